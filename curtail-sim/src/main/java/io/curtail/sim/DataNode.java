package io.curtail.sim;

import io.curtail.client.track.NodeId;

/**
 * A simulated DataNode: a disk and a network interface (one queue each way), in a rack, with at
 * most one fault. Times are reserved when a request arrives ({@link Fifo}); what a request costs
 * is the healthy {@link Hardware}'s, or the fault's while it holds.
 */
public final class DataNode {
  final int id;
  final int rack;
  final NodeId nodeId;
  private final Hardware hw;
  private final Fifo disk = new Fifo();
  private final Fifo netOut = new Fifo();
  private final Fifo netIn = new Fifo();
  /** Hadoop's read and write throttlers where the fault is a throttle (a period begins with use). */
  private Throttle sendThrottle;
  private Throttle receiveThrottle;
  private Fault fault;
  /** Reads and writes in progress here: what the NameNode's considerLoad counts (xceivers). */
  int active;
  /** The cluster's sum of {@link #active}, shared by its DataNodes. */
  private final long[] clusterActive;
  long bytesSent;
  long bytesReceived;

  /**
   * The cores of the one host every DataNode and client shares (the benchmark's embedded
   * cluster), which then does their healthy work; null on a cluster of hosts of their own.
   */
  private final Fifo host;

  private final java.util.SplittableRandom rnd;

  DataNode(int id, int rack, Hardware hw, long[] clusterActive, Fifo host, long seed) {
    this.rnd = new java.util.SplittableRandom(seed);
    this.clusterActive = clusterActive;
    this.host = host;
    this.id = id;
    this.rack = rack;
    this.hw = hw;
    this.nodeId = NodeId.of("dn" + id + ".r" + rack + ":9866");
  }

  /** A transfer starts here. */
  void enter() {
    active++;
    clusterActive[0]++;
  }

  /** A transfer here ended. */
  void leave() {
    active--;
    clusterActive[0]--;
  }

  void fault(Fault f) {
    this.fault = f;
    if (f.kind() == Fault.Kind.THROTTLED) {
      sendThrottle = new Throttle(f.param());
      receiveThrottle = new Throttle(f.param());
    }
  }

  Fault fault() {
    return fault;
  }

  /** Whether the fault holds at {@code now}: what the oracle knows. */
  boolean faulty(long now) {
    return fault != null && fault.active(now);
  }

  /** When the last {@link #write} had received its packet, the moment it forwards it. */
  long lastReceived;

  /**
   * A read of {@code bytes} (a packet, or a rebuild's whole block) asked for at {@code at}: the
   * disk, then the wire; returns when its last byte left. Call at time {@code at}.
   */
  long read(long at, long bytes) {
    long diskCost = jitter(hw.diskNanos(bytes));
    long netCost = jitter(hw.netNanos(bytes));
    long t = at;
    Fault.Kind kind = faulty(at) ? fault.kind() : null;
    if (kind == Fault.Kind.STALLS) {
      t = stall(t);
    } else if (kind == Fault.Kind.SLOW_DISK) {
      t = disk.serve(t, fault.param()); // the fault's FIFO queue stands for the disk
      diskCost = 0;
    }
    bytesSent += bytes;
    if (host != null) {
      t = host.serve(t, diskCost + netCost); // one core reads, checksums and sends it
    } else {
      t = netOut.serve(disk.serve(t, diskCost), netCost);
    }
    // The throttle's wait last: reserved ahead on a queue, it would hold up every request after.
    return kind == Fault.Kind.THROTTLED ? sendThrottle.admit(t, bytes) : t;
  }

  /**
   * A write of {@code bytes} arriving at {@code at}: received (then {@link #lastReceived}, when
   * it is forwarded), then written to disk; returns when it is written. Call at time {@code at}.
   */
  long write(long at, long bytes) {
    long diskCost = jitter((long) (hw.diskNanos(bytes) * hw.writeCost()));
    long netCost = jitter((long) (hw.netNanos(bytes) * hw.writeCost()));
    Fault.Kind kind = faulty(at) ? fault.kind() : null;
    bytesReceived += bytes;
    long t = host != null ? host.serve(at, netCost) : netIn.serve(at, netCost);
    if (kind == Fault.Kind.THROTTLED) {
      t = receiveThrottle.admit(t, bytes);
    }
    lastReceived = t;
    if (kind == Fault.Kind.SLOW_DISK) {
      return disk.serve(t, fault.param());
    }
    if (kind == Fault.Kind.STALLS) {
      t = stall(t);
    }
    return (host != null ? host : disk).serve(t, diskCost);
  }

  /** Waits out a stall of the disk under way at {@code t}; returns when the disk is free. */
  private long stall(long t) {
    long into = (t - fault.onsetNanos()) % Fault.STALL_EVERY_NANOS;
    if (into < fault.param()) {
      disk.stallUntil(t - into + fault.param());
    }
    return disk.serve(t, 0);
  }

  private long jitter(long mean) {
    return hw.jittered(mean, 1 - rnd.nextDouble());
  }

  Fifo diskQueue() {
    return disk;
  }

  @Override
  public String toString() {
    return nodeId.address();
  }
}
