package io.curtail.wire;

import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;

/**
 * What a DataNode running Curtail's plugin adds to its reply in a pipeline ack: how long it waited
 * on the rest of the pipeline for the acked packet, how much of that it was blocked handing the
 * packet to the next DataNode, and whether an operator marked it busy. It rides in the high bits
 * of the per-DataNode reply header of Hadoop's {@code PipelineAck}, whose readers use bits 0–8
 * (status, ECN, SLOW) and mask the rest; so stock clients and DataNodes pass it along and ignore
 * it. Two layouts, told apart by the version bit each sets:
 *
 * <pre>
 *   bit 31      version 2 report present (bit 30 is then clear)
 *   bit 30      version 1 report present (bit 31 is then clear)
 *   bit 29      busy: do not pick this DataNode as a replacement, rebuild source or hedge target
 *   version 1:
 *   bits 9–28   downstream time in whole units of 100 µs (truncated), 0–104.9 s; longer times
 *               saturate, and a saturated one says nothing
 *   version 2, two times in microseconds, each a 10-bit float (see {@link #encodeMicros}):
 *   bits 9–18   downstream time
 *   bits 19–28  blocked time: how long the forward's socket write and flush to the next DataNode
 *               blocked
 * </pre>
 * A client of version 1 reads a version 2 header as "no report" (bit 30 clear), never misreads it;
 * this decoder reads both, so a pipeline may mix DataNodes of either plugin and stock ones.
 *
 * <p>The downstream time is what a stock ack's {@code downstreamAckTimeNanos} is for the first
 * DataNode, from each DataNode: from just before it forwarded the packet to the next DataNode
 * until it read that DataNode's ack. The blocked time is its first part, the write to the socket:
 * long when the link to the next DataNode is slow, or when that DataNode is slow to read (its
 * disk, its CPU, its NIC), so it belongs to the link, either end, not to the sender. Both
 * encodings truncate and are monotone, so what an honest pipeline reports stays ordered: each
 * DataNode's span contains the next one's, and its blocked time is within its span. Pure.
 */
public final class AckReport {
  private static final int V2 = 1 << 31;
  private static final int V1 = 1 << 30;
  private static final int BUSY = 1 << 29;
  private static final int SHIFT = 9;
  private static final int SPAN_BITS = 20;
  private static final long MAX_UNITS = (1L << SPAN_BITS) - 1;
  private static final int SPAN_MASK = (int) MAX_UNITS << SHIFT;
  /** Nanoseconds in one unit of the version 1 downstream time. */
  private static final long UNIT_NANOS = 100_000;
  private static final int BLOCKED_SHIFT = SHIFT + 10;
  private static final int CODE_MASK = (1 << 10) - 1;
  /** The 10-bit code that says nothing: unknown, or too long to encode. */
  static final int UNKNOWN_CODE = CODE_MASK;
  /** Every bit a report may use: bits 9–31. */
  public static final int BITS = V2 | V1 | BUSY | SPAN_MASK;

  private AckReport() {
  }

  /**
   * {@code header} with a version 2 report of {@code downstreamNanos} and {@code blockedNanos}
   * (each truncated to the float encoding; a negative one is sent as unknown) and the busy flag;
   * the stock bits are kept.
   */
  public static int with(int header, long downstreamNanos, long blockedNanos, boolean busy) {
    int down = downstreamNanos < 0 ? UNKNOWN_CODE : encodeMicros(downstreamNanos / 1000);
    int blocked = blockedNanos < 0 ? UNKNOWN_CODE : encodeMicros(blockedNanos / 1000);
    return (header & ~BITS) | V2 | (busy ? BUSY : 0) | down << SHIFT | blocked << BLOCKED_SHIFT;
  }

  /**
   * {@code header} with a version 1 report of {@code downstreamNanos} (truncated to whole units,
   * clamped to [0, saturation]) and the busy flag; the stock bits are kept. What the previous
   * plugin sent, for clients older than version 2 during an upgrade, and for tests of mixed
   * pipelines.
   */
  public static int withV1(int header, long downstreamNanos, boolean busy) {
    long units = Math.min(MAX_UNITS, Math.max(0, downstreamNanos / UNIT_NANOS));
    return (header & ~BITS) | V1 | (busy ? BUSY : 0) | ((int) units << SHIFT);
  }

  /** {@code header} with only the busy flag reported (no downstream time to tell). */
  public static int busyOnly(int header, boolean busy) {
    return busy ? (header & ~BITS) | BUSY : header & ~BITS;
  }

  /**
   * The version of the report {@code header} carries: 2, 1, or 0 for none. Both version bits set
   * is no layout either plugin sends: 0.
   */
  public static int version(int header) {
    switch (header & (V2 | V1)) {
      case V2:
        return 2;
      case V1:
        return 1;
      default:
        return 0;
    }
  }

  /** Whether {@code header} carries a downstream time, of either version. */
  public static boolean present(int header) {
    return version(header) != 0;
  }

  /** Whether the DataNode said it is busy (the same bit in every version). */
  public static boolean busy(int header) {
    return (header & BUSY) != 0;
  }

  /**
   * The downstream time {@code header} reports, or -1 if it reports none, or one unknown or
   * saturated (which says only that it was long).
   */
  public static long downstreamNanos(int header) {
    switch (version(header)) {
      case 2:
        return decodeNanos((header >>> SHIFT) & CODE_MASK);
      case 1:
        long units = (header & SPAN_MASK) >>> SHIFT;
        return units < MAX_UNITS ? units * UNIT_NANOS : -1;
      default:
        return -1;
    }
  }

  /**
   * How long, of its downstream time, the DataNode was blocked forwarding the packet to the next
   * one; -1 if {@code header} does not say (no report, a version 1 one, or an unknown time).
   */
  public static long blockedNanos(int header) {
    return version(header) == 2 ? decodeNanos((header >>> BLOCKED_SHIFT) & CODE_MASK) : -1;
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

  /** Fills {@code out[i]} with the blocked time DataNode {@code i} reported on {@code ack}, -1 if none. */
  public static void blockedTimes(PipelineAck ack, long[] out) {
    for (int i = 0; i < out.length; i++) {
      out[i] = blockedNanos(ack.getHeaderFlag(i));
    }
  }

  /**
   * A time in microseconds as a 10-bit float, truncated: a 5-bit exponent {@code e} over a 5-bit
   * mantissa {@code m}; {@code e = 0} is {@code m} µs exactly, otherwise {@code (32 + m) << (e - 1)}
   * µs. So times under 32 µs are exact and longer ones lose less than 1/32 (3.1 %) of their
   * value; the largest is 62 × 2^30 µs (about 18 hours); longer ones, and the top code, are
   * {@link #UNKNOWN_CODE}.
   */
  static int encodeMicros(long micros) {
    if (micros < 32) {
      return (int) Math.max(0, micros);
    }
    int p = 63 - Long.numberOfLeadingZeros(micros); // >= 5
    int e = p - 4;
    int code = e > 31 ? UNKNOWN_CODE : e << 5 | (int) ((micros >>> (p - 5)) - 32);
    return Math.min(code, UNKNOWN_CODE);
  }

  /** The nanoseconds a 10-bit {@code code} stands for; -1 for {@link #UNKNOWN_CODE}. */
  static long decodeNanos(int code) {
    if (code == UNKNOWN_CODE) {
      return -1;
    }
    int e = code >>> 5;
    long m = code & 31;
    long micros = e == 0 ? m : (32 + m) << (e - 1);
    return micros * 1000;
  }
}
