package io.curtail.sim;

/**
 * A DataNode's fault, as the benchmark injects them, and when it holds: from {@code onsetNanos}
 * until {@code healNanos} of simulated time.
 *
 * <ul>
 *   <li>{@link Kind#SLOW_DISK}: every disk access waits its turn and {@code param} ns (the
 *       benchmark's FIFO disk at 10 ms a packet);
 *   <li>{@link Kind#THROTTLED}: the DataNode sends, and receives, at most {@code param} bytes a
 *       second over all its streams, through Hadoop's throttler (its
 *       {@code dfs.datanode.data.*.bandwidthPerSec}): bursts of half a second's share at full
 *       speed, then waits ({@link Throttle});
 *   <li>{@link Kind#STALLS}: its disk stops for {@code param} ns every {@link #STALL_EVERY_NANOS}
 *       (the benchmark's 1.5 s every 4 s).
 * </ul>
 */
public record Fault(Kind kind, long param, long onsetNanos, long healNanos) {
  public enum Kind { SLOW_DISK, THROTTLED, STALLS }

  public static final long STALL_EVERY_NANOS = 4_000_000_000L;

  public Fault {
    if (param <= 0 || onsetNanos < 0 || healNanos <= onsetNanos) {
      throw new IllegalArgumentException("a fault needs param > 0 and 0 <= onset < heal; got "
          + kind + " param=" + param + " onset=" + onsetNanos + " heal=" + healNanos);
    }
  }

  /** The benchmark's slow disk: 10 ms a packet. */
  public static Fault slowDisk(long onset, long heal) {
    return new Fault(Kind.SLOW_DISK, 10_000_000L, onset, heal);
  }

  /** The benchmark's throttle: 2 MiB/s. */
  public static Fault throttled(long onset, long heal) {
    return new Fault(Kind.THROTTLED, 2L << 20, onset, heal);
  }

  /** The benchmark's stalls: 1.5 s every 4 s. */
  public static Fault stalls(long onset, long heal) {
    return new Fault(Kind.STALLS, 1_500_000_000L, onset, heal);
  }

  public boolean active(long now) {
    return now >= onsetNanos && now < healNanos;
  }
}
