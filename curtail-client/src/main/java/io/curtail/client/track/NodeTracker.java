package io.curtail.client.track;

/**
 * What this JVM knows of one DataNode's recent latency: packet writes through it and packet reads
 * from it, in separate windows because the two differ by nature. Thread-safe; see
 * {@link LatencyWindow} for the contract of each window.
 */
public final class NodeTracker {
  private final NodeId node;
  private final LatencyWindow writes = new LatencyWindow();
  private final LatencyWindow reads = new LatencyWindow();

  /** How long a busy flag counts without being heard again. */
  private final long busyMemoryNanos;

  /** What the DataNode last said of itself on an ack, and when. */
  private volatile boolean busy;
  private volatile long busyHeardNanos;

  // Maintained by the registry's sweeps and look-ups only: never on the per-packet path.
  private volatile long lastActiveNanos;
  private long samplesAtLastSweep;

  NodeTracker(NodeId node, long nowNanos, long busyMemoryNanos) {
    this.node = node;
    this.busyMemoryNanos = busyMemoryNanos;
    this.lastActiveNanos = nowNanos;
  }

  public NodeId node() {
    return node;
  }

  /** Packet write latencies attributed to this DataNode. */
  public LatencyWindow writes() {
    return writes;
  }

  /** Packet read latencies from this DataNode. */
  public LatencyWindow reads() {
    return reads;
  }

  /** Records what the DataNode said of itself on an ack at {@code nowNanos}. */
  public void heardBusy(boolean busy, long nowNanos) {
    if (busy) {
      busyHeardNanos = nowNanos;
    }
    this.busy = busy;
  }

  /**
   * Whether the DataNode said it is busy and has not said otherwise, within the last
   * busy memory: a flag not heard again for that long is forgotten.
   */
  public boolean busy(long nowNanos) {
    return busy && nowNanos - busyHeardNanos <= busyMemoryNanos;
  }

  long lastActiveNanos() {
    return lastActiveNanos;
  }

  void touch(long nowNanos) {
    lastActiveNanos = nowNanos;
  }

  /** Called under the registry's sweep lock: marks active if samples arrived since the last sweep. */
  void noteSamples(long nowNanos) {
    long total = writes.totalRecorded() + reads.totalRecorded();
    if (total != samplesAtLastSweep) {
      samplesAtLastSweep = total;
      lastActiveNanos = nowNanos;
    }
  }

  @Override
  public String toString() {
    return "NodeTracker{" + node + ", writes=" + writes.totalRecorded() + ", reads="
        + reads.totalRecorded() + '}';
  }
}
