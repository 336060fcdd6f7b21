package io.curtail.wire;

import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;

/**
 * What a DataNode running Curtail's plugin adds to its reply in a pipeline ack: how long it waited
 * on the rest of the pipeline for the acked packet, and whether an operator marked it busy. It
 * rides in the high bits of the per-DataNode reply header of Hadoop's {@code PipelineAck}, whose
 * readers use bits 0–8 (status, ECN, SLOW) and mask the rest; so stock clients and DataNodes pass
 * it along and ignore it.
 *
 * <pre>
 *   bit 30      a report is present (a DataNode without the plugin leaves it 0)
 *   bit 29      busy: do not pick this DataNode as a replacement, rebuild source or hedge target
 *   bits 9–28   downstream time in whole units of 100 µs (truncated), 0–104.9 s; longer times
 *               saturate, and a saturated one says nothing
 * </pre>
 * The downstream time is what a stock ack's {@code downstreamAckTimeNanos} is for the first
 * DataNode, from each DataNode: from just before it forwarded the packet to the next DataNode
 * until it read that DataNode's ack. Truncating keeps what an honest pipeline reports ordered:
 * each DataNode's span contains the next one's. Pure.
 */
public final class AckReport {
  private static final int PRESENT = 1 << 30;
  private static final int BUSY = 1 << 29;
  private static final int SHIFT = 9;
  private static final int SPAN_BITS = 20;
  private static final long MAX_UNITS = (1L << SPAN_BITS) - 1;
  private static final int SPAN_MASK = (int) MAX_UNITS << SHIFT;
  /** Nanoseconds in one unit of the encoded downstream time. */
  private static final long UNIT_NANOS = 100_000;
  /** Every bit a report may use: bits 9–30. */
  public static final int BITS = PRESENT | BUSY | SPAN_MASK;

  private AckReport() {
  }

  /**
   * {@code header} with a report of {@code downstreamNanos} (truncated to whole units, clamped to
   * [0, saturation]) and the busy flag; the stock bits are kept.
   */
  public static int with(int header, long downstreamNanos, boolean busy) {
    long units = Math.min(MAX_UNITS, Math.max(0, downstreamNanos / UNIT_NANOS));
    return (header & ~BITS) | PRESENT | (busy ? BUSY : 0) | ((int) units << SHIFT);
  }

  /** {@code header} with only the busy flag reported (no downstream time to tell). */
  public static int busyOnly(int header, boolean busy) {
    return busy ? (header & ~BITS) | BUSY : header & ~BITS;
  }

  /** Whether {@code header} carries a downstream time. */
  public static boolean present(int header) {
    return (header & PRESENT) != 0;
  }

  /** Whether the DataNode said it is busy. */
  public static boolean busy(int header) {
    return (header & BUSY) != 0;
  }

  /**
   * The downstream time {@code header} reports, or -1 if it reports none or a saturated one (which
   * says only that it was long).
   */
  public static long downstreamNanos(int header) {
    long units = (header & SPAN_MASK) >>> SHIFT;
    return present(header) && units < MAX_UNITS ? units * UNIT_NANOS : -1;
  }

  /**
   * Fills {@code out[i]} with the downstream time DataNode {@code i} reported on {@code ack}, -1
   * if none: it has no plugin, or it is the last of the pipeline (nothing downstream to time).
   *
   * @param out one slot per reply to read
   */
  public static void downstreamTimes(PipelineAck ack, long[] out) {
    for (int i = 0; i < out.length; i++) {
      out[i] = downstreamNanos(ack.getHeaderFlag(i));
    }
  }
}
