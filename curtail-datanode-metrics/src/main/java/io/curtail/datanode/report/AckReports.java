package io.curtail.datanode.report;

import io.curtail.client.wire.AckReport;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One DataNode's reports on pipeline acks: each block's {@link PacketTimings}, the busy flag and
 * the counters operators see over JMX. The hooks name the block by the calling thread's name,
 * which stock DataNodes set to include it ({@code "... [Receiving block BP-…:blk_…]"} for the
 * receiver, {@code "PacketResponder: BP-…:blk_…, type=…"} for the responder); a thread whose
 * name does not say is simply not timed.
 */
public final class AckReports implements AckReportsMXBean {
  /** A block not written to for this long is forgotten. */
  static final long IDLE_NANOS = TimeUnit.MINUTES.toNanos(2);
  private static final Pattern BLOCK = Pattern.compile("(BP-[^:\\s\\]]+:blk_\\d+)");

  private final LongSupplier clock;
  private final Map<String, PacketTimings> blocks = new ConcurrentHashMap<>();
  private final LongAdder sent = new LongAdder();
  private volatile boolean busySet;
  private volatile boolean busyFileSeen;
  private volatile long lastServiceNanos = -1;
  private volatile long lastDownstreamNanos = -1;
  private volatile long lastSweep;

  public AckReports(LongSupplier clock) {
    this.clock = clock;
    this.lastSweep = clock.getAsLong();
  }

  /**
   * The last thread name parsed on each thread, and its block: hooks run per packet, and a
   * thread keeps its name for a whole block, so the name is compared, not parsed, each time.
   */
  private static final ThreadLocal<String[]> PARSED = ThreadLocal.withInitial(() -> new String[2]);

  /** The block a DataNode thread works on, from its name; null if the name does not say. */
  static String blockOf(String threadName) {
    String[] parsed = PARSED.get();
    if (!threadName.equals(parsed[0])) {
      Matcher m = BLOCK.matcher(threadName);
      parsed[0] = threadName;
      parsed[1] = m.find() ? m.group(1) : null;
    }
    return parsed[1];
  }

  /** The receiver starts forwarding a packet to the next DataNode. */
  public void forwarding(String threadName) {
    long now = clock.getAsLong();
    PacketTimings t = timings(threadName, true, now);
    if (t != null) {
      t.forwarding(Thread.currentThread(), now);
    }
  }

  /** The receiver finished forwarding a packet to the next DataNode. */
  public void mirrored(String threadName) {
    long now = clock.getAsLong();
    PacketTimings t = timings(threadName, true, now);
    if (t != null) {
      t.mirrored(Thread.currentThread(), now);
    }
  }

  /** The receiver finished writing a packet's data locally (including any disk queueing). */
  public void wroteLocally(String threadName) {
    long now = clock.getAsLong();
    PacketTimings t = timings(threadName, false, now);
    if (t != null) {
      t.wroteLocally(Thread.currentThread(), now);
    }
  }

  /**
   * Adds this DataNode's reports to an ack about to go upstream. {@code replies[0]} is its own
   * header: it gets this DataNode's local service time and busy flag. When the next DataNode is
   * the last of the pipeline ({@code replies} has two headers) and did not time itself (it cannot,
   * see {@link PacketTimings}), {@code replies[1]} gets the service time this DataNode measured for
   * it, its busy flag kept. Other headers pass through untouched.
   */
  public void report(String threadName, int[] replies) {
    boolean busy = isBusy();
    long now = clock.getAsLong();
    PacketTimings t = timings(threadName, false, now);
    long local = t == null ? -1 : t.takeLocal();
    if (local >= 0) {
      replies[0] = AckReport.with(replies[0], local, busy);
      sent.increment();
      lastServiceNanos = local;
    } else {
      replies[0] = AckReport.busyOnly(replies[0], busy);
    }
    if (t != null && replies.length >= 2) {
      long downstream = t.takeDownstream(now);
      if (downstream >= 0 && replies.length == 2 && !AckReport.present(replies[1])) {
        replies[1] = AckReport.with(replies[1], downstream, AckReport.busy(replies[1]));
        lastDownstreamNanos = downstream;
      }
    }
  }

  private PacketTimings timings(String threadName, boolean create, long now) {
    String block = blockOf(threadName);
    if (block == null) {
      return null;
    }
    if (now - lastSweep > IDLE_NANOS) {
      lastSweep = now;
      blocks.values().removeIf(t -> now - t.lastUsed() > IDLE_NANOS);
    }
    PacketTimings t = blocks.get(block);
    return t != null || !create ? t : blocks.computeIfAbsent(block, b -> new PacketTimings(now));
  }

  @Override
  public boolean isBusy() {
    return busySet || busyFileSeen;
  }

  @Override
  public void setBusy(boolean busy) {
    this.busySet = busy;
  }

  /**
   * Whether the busy file ({@code curtail.datanode.busy.file}) exists, as last seen: a second way
   * to be busy, for co-located services that would rather touch a file than speak JMX.
   */
  public void busyFileSeen(boolean exists) {
    this.busyFileSeen = exists;
  }

  @Override
  public long getReportsSent() {
    return sent.sum();
  }

  @Override
  public long getLastServiceMicros() {
    long n = lastServiceNanos;
    return n < 0 ? -1 : TimeUnit.NANOSECONDS.toMicros(n);
  }

  @Override
  public long getLastDownstreamServiceMicros() {
    long n = lastDownstreamNanos;
    return n < 0 ? -1 : TimeUnit.NANOSECONDS.toMicros(n);
  }

  @Override
  public int getBlocksTimed() {
    return blocks.size();
  }
}
