package io.curtail.sim;

/**
 * Hadoop's {@code DataTransferThrottler}, the one {@code dfs.datanode.data.read.bandwidthPerSec}
 * (and {@code .write.}) installs on a DataNode and all its streams share: each period of 500 ms
 * lets {@code bytesPerSecond / 2} bytes through at full speed, and a packet that finds them spent
 * waits for the next period. So a throttled DataNode's packets come in bursts (a 1 MiB period's
 * 16 packets at once, then a wait of up to half a second), not evenly spaced as a slow link's:
 * what a client sees of it is fast packets and rare long stalls.
 *
 * <p>Hadoop's thread sends a packet and then waits if the period's bytes are spent; here the wait
 * is charged to the stream's next packet, when it asks ({@link #admit}), which is the same for
 * one stream. Like Hadoop's, a throttler idle for three periods or more starts a new period with
 * its full share. Times are reserved as they are asked for, as {@link Fifo}'s.
 */
final class Throttle {
  /** Hadoop's default period. */
  static final long PERIOD_NANOS = 500_000_000L;

  private final long bytesPerPeriod;
  private long periodStart;
  private long reserve;
  private boolean used;

  Throttle(long bytesPerSecond) {
    if (bytesPerSecond <= 0) {
      throw new IllegalArgumentException("a throttle needs bytesPerSecond > 0, was "
          + bytesPerSecond);
    }
    this.bytesPerPeriod = Math.max(1, bytesPerSecond * PERIOD_NANOS / 1_000_000_000L);
  }

  /** When a packet of {@code bytes} asked for at {@code at} may be sent; its bytes are spent. */
  long admit(long at, long bytes) {
    if (!used) {
      used = true;
      periodStart = at;
      reserve = bytesPerPeriod;
    }
    long t = at;
    while (reserve <= 0) {
      long end = periodStart + PERIOD_NANOS;
      t = Math.max(t, end);
      if (t < periodStart + 3 * PERIOD_NANOS) {
        periodStart = end;
        reserve += bytesPerPeriod;
      } else { // idle for a while: a new period, its whole share
        periodStart = t;
        reserve = bytesPerPeriod;
      }
    }
    reserve -= bytes;
    return t;
  }
}
