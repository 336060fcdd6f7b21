package io.curtail.datanode.fault;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The faults injected on one DataNode, changeable while it runs. The DataNode's packet paths call
 * {@link #awaitWriteDisk()} and {@link #awaitReadDisk()}; they return at once unless a slow disk is
 * injected, in which case the calling thread waits its turn in the disk's FIFO queue.
 *
 * <p>Thread-safe: the fault is one volatile reference, swapped whole.
 */
public final class DataNodeFaults implements DataNodeFaultsMXBean {
  private static final Logger LOG = LoggerFactory.getLogger(DataNodeFaults.class);

  /** Turns interception of packet reads on or off; the DataNode side provides it. */
  public interface ReadPath {
    void intercept(DataNodeFaults faults, boolean on);
  }

  private static final class Disk {
    final DiskFault fault;
    final DiskQueue queue;

    Disk(DiskFault fault, DiskQueue queue) {
      this.fault = fault;
      this.queue = queue;
    }
  }

  private final String dataNode;
  private final LongSupplier clock;
  private final ReadPath readPath;
  private final LongAdder delayedWrites = new LongAdder();
  private final LongAdder delayedReads = new LongAdder();
  private volatile Disk disk;

  public DataNodeFaults(String dataNode, LongSupplier clock, ReadPath readPath) {
    this.dataNode = dataNode;
    this.clock = clock;
    this.readPath = readPath;
  }

  /** The DataNode these faults act on, as its transfer address. */
  public String dataNode() {
    return dataNode;
  }

  /** Injects {@code fault}, replacing any slow disk this DataNode had. */
  public synchronized void slowDisk(DiskFault fault) {
    Disk before = disk;
    disk = new Disk(fault, fault.newQueue(clock.getAsLong()));
    if (fault.reads() != (before != null && before.fault.reads())) {
      readPath.intercept(this, fault.reads());
    }
    LOG.info("Injected slow disk datanode={} fault={}", dataNode, fault);
  }

  /** The injected slow disk, or null if the disk is healthy. */
  public DiskFault disk() {
    Disk d = disk;
    return d == null ? null : d.fault;
  }

  @Override
  public synchronized void heal() {
    Disk before = disk;
    disk = null;
    if (before != null) {
      if (before.fault.reads()) {
        readPath.intercept(this, false);
      }
      LOG.info("Healed disk datanode={}", dataNode);
    }
  }

  /** Called by the DataNode after writing a packet to disk. */
  public void awaitWriteDisk() {
    Disk d = disk;
    if (d != null) {
      delayedWrites.increment();
      sleepUntil(d.queue.admit(clock.getAsLong()));
    }
  }

  /** Called by the DataNode before sending a packet of a block read. */
  public void awaitReadDisk() {
    Disk d = disk;
    if (d != null && d.fault.reads()) {
      delayedReads.increment();
      sleepUntil(d.queue.admit(clock.getAsLong()));
    }
  }

  private void sleepUntil(long deadlineNanos) {
    for (long left = deadlineNanos - clock.getAsLong(); left > 0;
        left = deadlineNanos - clock.getAsLong()) {
      LockSupport.parkNanos(left);
      if (Thread.currentThread().isInterrupted()) {
        return; // the DataNode is shutting this thread down: stop waiting, keep the flag
      }
    }
  }

  @Override
  public long getDiskServiceMicros() {
    DiskFault f = disk();
    return f == null ? 0 : f.serviceNanos() / 1000;
  }

  @Override
  public double getDiskUtilisation() {
    DiskFault f = disk();
    return f == null ? 0 : f.utilisation();
  }

  @Override
  public boolean isDiskSlowingReads() {
    DiskFault f = disk();
    return f != null && f.reads();
  }

  @Override
  public long getDelayedWrites() {
    return delayedWrites.sum();
  }

  @Override
  public long getDelayedReads() {
    return delayedReads.sum();
  }

  @Override
  public void slowDisk(long serviceMicros, double utilisation, boolean reads) {
    DiskFault f = DiskFault.serviceTime(Duration.ofNanos(serviceMicros * 1000))
        .withUtilisation(utilisation);
    slowDisk(reads ? f.withReads() : f);
  }

  @Override
  public String toString() {
    return "DataNodeFaults{" + dataNode + ", disk=" + disk() + '}';
  }
}
