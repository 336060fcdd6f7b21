package io.curtail.datanode.report;

import io.curtail.wire.AckReport;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;

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
  private volatile boolean version1;
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

  /** The receiver's forward of a packet to the next DataNode returned (written and flushed). */
  public void forwarded(String threadName) {
    long now = clock.getAsLong();
    PacketTimings t = timings(threadName, false, now);
    if (t != null) {
      t.forwarded(Thread.currentThread(), now);
    }
  }

  /**
   * Sends version 1 reports (downstream time only) instead of version 2: for clients of the
   * previous plugin's layout, which read a version 2 report as none, and for tests of pipelines
   * that mix both.
   */
  public void reportVersion1(boolean v1) {
    this.version1 = v1;
  }

  /**
   * Adds this DataNode's report to an ack about to go upstream, into its own header
   * ({@code replies[0]}): its busy flag, and, when it has a downstream ({@code replies} has more
   * headers, all of them successes), its downstream and blocked times for the acked packet. Other headers pass
   * through untouched. An ack with a failure or an out-of-band status answers no forward, so it
   * takes none.
   */
  public void report(String threadName, int[] replies) {
    if (replies.length == 0) {
      return; // no header of its own to add to (never from a stock PacketResponder)
    }
    boolean busy = isBusy();
    long now = clock.getAsLong();
    PacketTimings t = replies.length >= 2 && allSucceeded(replies)
        ? timings(threadName, false, now) : null;
    long downstream = t == null ? -1 : t.takeDownstream(now);
    if (downstream >= 0) {
      replies[0] = version1 ? AckReport.withV1(replies[0], downstream, busy)
          : AckReport.with(replies[0], downstream, t.lastBlocked(), busy);
      sent.increment();
      lastDownstreamNanos = downstream;
    } else {
      replies[0] = AckReport.busyOnly(replies[0], busy);
    }
  }

  private static boolean allSucceeded(int[] replies) {
    for (int r : replies) {
      if (PipelineAck.getStatusFromHeader(r) != Status.SUCCESS) {
        return false;
      }
    }
    return true;
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
  public long getLastDownstreamMicros() {
    long n = lastDownstreamNanos;
    return n < 0 ? -1 : TimeUnit.NANOSECONDS.toMicros(n);
  }

  @Override
  public int getBlocksTimed() {
    return blocks.size();
  }
}
