package io.curtail.client.wire;

import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;

/**
 * What a DataNode running Curtail's plugin adds to its reply in a pipeline ack: how long it spent
 * on packets lately, and whether an operator marked it busy. It rides in the high bits of the
 * per-DataNode reply header of Hadoop's {@code PipelineAck}, whose readers use bits 0–8 (status,
 * ECN, SLOW) and mask the rest; so stock clients and DataNodes pass it along and ignore it.
 *
 * <pre>
 *   bit 30      a report is present (a DataNode without the plugin leaves it 0)
 *   bit 29      busy: do not pick this DataNode as a replacement, rebuild source or hedge target
 *   bits 16–28  service time in units of 100 µs, 0–819.1 ms; longer times saturate
 * </pre>
 * Pure.
 */
public final class AckReport {
  private static final int PRESENT = 1 << 30;
  private static final int BUSY = 1 << 29;
  private static final int SHIFT = 16;
  private static final int LATENCY_BITS = 13;
  private static final int LATENCY_MASK = ((1 << LATENCY_BITS) - 1) << SHIFT;
  /** Nanoseconds in one unit of the encoded service time. */
  public static final long UNIT_NANOS = 100_000;
  /** The longest service time a report can say; longer ones are reported as this. */
  public static final long MAX_NANOS = ((1L << LATENCY_BITS) - 1) * UNIT_NANOS;
  /** Every bit a report may use: bits 16–30. */
  public static final int BITS = PRESENT | BUSY | LATENCY_MASK;

  private AckReport() {
  }

  /**
   * {@code header} with a report of {@code serviceNanos} (rounded to the nearest unit, clamped
   * to [0, {@link #MAX_NANOS}]) and the busy flag; the stock bits are kept.
   */
  public static int with(int header, long serviceNanos, boolean busy) {
    long units = Math.min((1L << LATENCY_BITS) - 1,
        Math.max(0, (serviceNanos + UNIT_NANOS / 2) / UNIT_NANOS));
    return (header & ~BITS) | PRESENT | (busy ? BUSY : 0) | ((int) units << SHIFT);
  }

  /** {@code header} with only the busy flag reported (no service time measured lately). */
  public static int busyOnly(int header, boolean busy) {
    return busy ? (header & ~BITS) | BUSY : header & ~BITS;
  }

  /** Whether {@code header} carries a service time. */
  public static boolean present(int header) {
    return (header & PRESENT) != 0;
  }

  /** Whether the DataNode said it is busy. */
  public static boolean busy(int header) {
    return (header & BUSY) != 0;
  }

  /** The reported service time; meaningful only if {@link #present}. */
  public static long serviceNanos(int header) {
    return (long) ((header & LATENCY_MASK) >>> SHIFT) * UNIT_NANOS;
  }

  /**
   * Fills {@code out} with the service times reported on {@code ack}, reply by reply, -1 where a
   * DataNode reported nothing: it has no plugin (nor does its upstream report for it, unless it is
   * the last of the pipeline), or it has written nothing since its last ack (a DataNode ahead of a
   * slow one downstream). Returns false if the ack is not to be believed: a report longer than
   * {@code maxNanos}, the time the pipeline has been carrying packets, is impossible for an honest
   * DataNode, so a malformed report is never trusted into a replacement. (A report may well be
   * longer than its own ack's round trip: DataNodes report their packets' times in order, one per
   * ack, not the acked packet's.)
   *
   * @param out one slot per reply to read
   */
  public static boolean serviceTimes(PipelineAck ack, long maxNanos, long[] out) {
    for (int i = 0; i < out.length; i++) {
      int header = ack.getHeaderFlag(i);
      out[i] = present(header) ? serviceNanos(header) : -1;
      if (out[i] > maxNanos) {
        return false;
      }
    }
    return true;
  }
}
