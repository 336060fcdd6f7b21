package io.curtail.datanode.fault;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
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
 * turn in a slow disk's FIFO queue, or the end of a stall. Likewise {@link #awaitForward} before a
 * packet is forwarded down a pipeline and {@link #awaitSend} after one is sent to a reader wait
 * for a slow network ({@link NetFault}), and {@link #awaitCpu} at each packet-handling step for a
 * starved CPU ({@link CpuStarvation}). A {@link Flapping} schedule, if set, turns them all on and
 * off together.
 *
 * <p>Thread-safe: each fault is one volatile reference, swapped whole.
 */
public final class DataNodeFaults implements DataNodeFaultsMXBean {
  private static final Logger LOG = LoggerFactory.getLogger(DataNodeFaults.class);

  /** Turns interception of packet reads on or off; the DataNode side provides it. */
  public interface ReadPath {
    void intercept(DataNodeFaults faults, boolean on);
  }

  /**
   * A fault as injected, with what it acts through: a slow disk's queue model, a slow network's
   * wire, a flapping schedule's start. One reference, swapped whole, so a hook reads both at once.
   */
  private static final class Injected<F, S> {
    final F fault;
    final S state;

    Injected(F fault, S state) {
      this.fault = fault;
      this.state = state;
    }
  }

  private final String dataNode;
  private final LongSupplier clock;
  private final ReadPath readPath;
  private final LongAdder delayedWrites = new LongAdder();
  private final LongAdder delayedReads = new LongAdder();
  private final LongAdder delayedForwards = new LongAdder();
  private final LongAdder delayedSends = new LongAdder();
  private final LongAdder starvedSteps = new LongAdder();
  private volatile Injected<DiskFault, DiskModel> disk;
  private volatile Injected<NetFault, Wire> net;
  private volatile CpuStarvation cpu;
  /** When the faults act (the schedule, and when it started); null: always. */
  private volatile Injected<Flapping, Long> schedule;
  /** Whether the DataNode's packet reads come through {@link #awaitSend}; under this lock. */
  private boolean readsIntercepted;
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
    disk = new Injected<>(fault, fault.newModel(clock.getAsLong()));
    interceptReadsIfSlowed();
    LOG.info("Injected disk fault datanode={} fault={}", dataNode, fault);
  }

  /** Injects {@code fault}, replacing any network fault this DataNode had. */
  public synchronized void slowNet(NetFault fault) {
    net = new Injected<>(fault, fault.newWire());
    interceptReadsIfSlowed();
    LOG.info("Injected network fault datanode={} fault={}", dataNode, fault);
  }

  /** Starves this DataNode's CPU as {@code starvation} says, replacing any starvation before. */
  public synchronized void starveCpu(CpuStarvation starvation) {
    cpu = starvation;
    interceptReadsIfSlowed();
    LOG.info("Injected CPU starvation datanode={} fault={}", dataNode, starvation);
  }

  /**
   * Makes every fault of this DataNode, injected before or after, act only in the slow spells
   * of {@code flapping}, which start now.
   */
  public synchronized void flap(Flapping flapping) {
    schedule = new Injected<>(flapping, clock.getAsLong());
    LOG.info("Flapping datanode={} schedule={}", dataNode, flapping);
  }

  /** The injected network fault, or null. */
  public NetFault net() {
    Injected<NetFault, Wire> n = net;
    return n == null ? null : n.fault;
  }

  /** The injected CPU starvation, or null. */
  public CpuStarvation cpu() {
    return cpu;
  }

  /** The flapping schedule, or null if faults act all the time. */
  public Flapping flapping() {
    Injected<Flapping, Long> s = schedule;
    return s == null ? null : s.fault;
  }

  /** Routes packet reads through {@link #awaitSend} while any fault slows them, and only then. */
  private void interceptReadsIfSlowed() {
    Injected<DiskFault, DiskModel> d = disk;
    Injected<NetFault, Wire> n = net;
    boolean slowed = (d != null && d.fault.reads()) || (n != null && n.fault.slowsReads())
        || cpu != null;
    if (slowed != readsIntercepted) {
      readPath.intercept(this, slowed);
      readsIntercepted = slowed;
    }
  }

  /** The injected disk fault, or null if the disk is healthy. */
  public DiskFault disk() {
    Injected<DiskFault, DiskModel> d = disk;
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
    boolean any = disk != null || net != null || cpu != null || schedule != null;
    disk = null;
    net = null;
    cpu = null;
    schedule = null;
    interceptReadsIfSlowed();
    if (any) {
      LOG.info("Healed datanode={}", dataNode);
    }
  }

  /** Called by the DataNode's hook for {@code access}: waits for the disk if it is slowed. */
  public void await(DiskFault.Access access) {
    Injected<DiskFault, DiskModel> d = disk;
    if (d != null && d.fault.slows(access) && slowNow()) {
      (access == DiskFault.Access.WRITES ? delayedWrites : delayedReads).increment();
      sleepUntil(d.state.admit(clock.getAsLong()));
    }
  }

  /**
   * Called by the DataNode's hook just before it forwards a packet to {@code mirror} (its
   * {@code ip:port}): waits for a slow NIC, or a slow link to that mirror.
   */
  public void awaitForward(String mirror) {
    Injected<NetFault, Wire> n = net;
    if (n != null && n.fault.slowsForwardingTo(mirror) && slowNow()) {
      delayedForwards.increment();
      sleepUntil(n.state.admit(clock.getAsLong(), NetFault.FORWARDED_PACKET_BYTES));
    }
  }

  /**
   * Called for each packet of {@code bytes} sent to a reader: waits for the disk if it slows
   * reads, for a slow NIC, and for a starved CPU, in that order.
   */
  public void awaitSend(long bytes) {
    await(DiskFault.Access.READS);
    Injected<NetFault, Wire> n = net;
    if (n != null && n.fault.slowsReads() && slowNow()) {
      delayedSends.increment();
      sleepUntil(n.state.admit(clock.getAsLong(), bytes));
    }
    awaitCpu();
  }

  /** Called at each step of packet handling (receiving, acking, sending): waits if starved. */
  public void awaitCpu() {
    CpuStarvation c = cpu;
    if (c != null && slowNow()) {
      starvedSteps.increment();
      sleepUntil(clock.getAsLong() + c.delayNanos(ThreadLocalRandom.current().nextDouble()));
    }
  }

  private boolean slowNow() {
    Injected<Flapping, Long> s = schedule;
    return s == null || s.fault.slowAt(s.state, clock.getAsLong());
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
  public long getDelayedForwards() {
    return delayedForwards.sum();
  }

  @Override
  public long getDelayedSends() {
    return delayedSends.sum();
  }

  @Override
  public long getStarvedSteps() {
    return starvedSteps.sum();
  }

  @Override
  public String getFaults() {
    StringBuilder b = new StringBuilder();
    for (Object f : new Object[] {disk(), net(), cpu(), full ? "disk full" : null, flapping()}) {
      if (f != null) {
        b.append(b.length() == 0 ? "" : ", ").append(f);
      }
    }
    return b.length() == 0 ? "none" : b.toString();
  }

  @Override
  public void slowNic(long bytesPerSecond) {
    slowNet(NetFault.nic(bytesPerSecond));
  }

  @Override
  public void delayNic(long perPacketMicros) {
    slowNet(NetFault.nic(Duration.ofNanos(perPacketMicros * 1000)));
  }

  @Override
  public void slowLink(String peer, long bytesPerSecond) {
    slowNet(NetFault.link(peer, bytesPerSecond));
  }

  @Override
  public void delayLink(String peer, long perPacketMicros) {
    slowNet(NetFault.link(peer, Duration.ofNanos(perPacketMicros * 1000)));
  }

  @Override
  public void starveCpu(long meanMicros, double jitter) {
    starveCpu(CpuStarvation.of(Duration.ofNanos(meanMicros * 1000), jitter));
  }

  @Override
  public void flap(long slowMillis, long healthyMillis) {
    flap(Flapping.of(Duration.ofMillis(slowMillis), Duration.ofMillis(healthyMillis)));
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
    return "DataNodeFaults{" + dataNode + ", " + getFaults() + '}';
  }
}
