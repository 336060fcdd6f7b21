package io.curtail.datanode.fault;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.apache.hadoop.util.DiskChecker.DiskOutOfSpaceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The faults injected on one DataNode, changeable while it runs. The DataNode's hooks call
 * {@link #await} with the access they are about to make; it returns at once unless the injected
 * {@link DiskFault} slows that access, in which case the calling thread waits for the disk: its
 * turn in a slow disk's FIFO queue, or the end of a stall.
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
    final DiskModel model;

    Disk(DiskFault fault, DiskModel model) {
      this.fault = fault;
      this.model = model;
    }
  }

  private final String dataNode;
  private final LongSupplier clock;
  private final ReadPath readPath;
  private final LongAdder delayedWrites = new LongAdder();
  private final LongAdder delayedReads = new LongAdder();
  private volatile Disk disk;
  /** Every packet write fails as on a full disk. */
  private volatile boolean full;

  public DataNodeFaults(String dataNode, LongSupplier clock, ReadPath readPath) {
    this.dataNode = dataNode;
    this.clock = clock;
    this.readPath = readPath;
  }

  /** The DataNode these faults act on, as its transfer address. */
  public String dataNode() {
    return dataNode;
  }

  /** Injects {@code fault}, replacing any disk fault this DataNode had. */
  public synchronized void slowDisk(DiskFault fault) {
    Disk before = disk;
    disk = new Disk(fault, fault.newModel(clock.getAsLong()));
    if (fault.reads() != (before != null && before.fault.reads())) {
      readPath.intercept(this, fault.reads());
    }
    LOG.info("Injected disk fault datanode={} fault={}", dataNode, fault);
  }

  /** The injected disk fault, or null if the disk is healthy. */
  public DiskFault disk() {
    Disk d = disk;
    return d == null ? null : d.fault;
  }

  @Override
  public void fill() {
    full = true;
    LOG.info("Filled disk datanode={}", dataNode);
  }

  /**
   * Called by the DataNode's hook after a packet's data is written: on a disk made full
   * ({@link #fill}), fails the write as the operating system would.
   */
  public void checkSpace() throws DiskOutOfSpaceException {
    if (full) {
      throw new DiskOutOfSpaceException("No space left on device (injected on " + dataNode + ")");
    }
  }

  @Override
  public boolean isDiskFull() {
    return full;
  }

  @Override
  public synchronized void heal() {
    if (full) {
      full = false;
      LOG.info("Emptied disk datanode={}", dataNode);
    }
    Disk before = disk;
    disk = null;
    if (before != null) {
      if (before.fault.reads()) {
        readPath.intercept(this, false);
      }
      LOG.info("Healed disk datanode={}", dataNode);
    }
  }

  /** Called by the DataNode's hook for {@code access}: waits for the disk if it is slowed. */
  public void await(DiskFault.Access access) {
    Disk d = disk;
    if (d != null && d.fault.slows(access)) {
      (access == DiskFault.Access.WRITES ? delayedWrites : delayedReads).increment();
      sleepUntil(d.model.admit(clock.getAsLong()));
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
    return f == null || f.stalls() ? 0 : f.serviceNanos() / 1000;
  }

  @Override
  public long getStallMillis() {
    DiskFault f = disk();
    return f == null || !f.stalls() ? 0 : f.serviceNanos() / 1_000_000;
  }

  @Override
  public String getDiskFault() {
    DiskFault f = disk();
    return f == null ? "none" : f.toString();
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
  public void slowOpens(long serviceMicros) {
    slowDisk(DiskFault.serviceTime(Duration.ofNanos(serviceMicros * 1000))
        .on(DiskFault.Access.OPENS));
  }

  @Override
  public void stall(long everyMillis, long lastingMillis) {
    slowDisk(DiskFault.stalls(Duration.ofMillis(everyMillis), Duration.ofMillis(lastingMillis)));
  }

  @Override
  public String toString() {
    return "DataNodeFaults{" + dataNode + ", disk=" + disk() + (full ? ", full" : "") + '}';
  }
}
