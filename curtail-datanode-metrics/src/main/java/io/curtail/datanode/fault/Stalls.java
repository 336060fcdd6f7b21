package io.curtail.datanode.fault;

/**
 * A disk that freezes for {@code lastingNanos} at the start of every {@code everyNanos} period,
 * and is instant otherwise: an access arriving during a freeze completes when it ends, as on a
 * DataNode hung by a long garbage collection, a firmware reset or a saturated controller. Pure
 * and stateless, so thread-safe.
 */
final class Stalls implements DiskModel {
  private final long everyNanos;
  private final long lastingNanos;
  private final long startNanos;

  Stalls(long everyNanos, long lastingNanos, long startNanos) {
    this.everyNanos = everyNanos;
    this.lastingNanos = lastingNanos;
    this.startNanos = startNanos;
  }

  @Override
  public long admit(long nowNanos) {
    long phase = Math.floorMod(nowNanos - startNanos, everyNanos);
    return phase < lastingNanos ? nowNanos - phase + lastingNanos : nowNanos;
  }
}
