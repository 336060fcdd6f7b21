package io.curtail.client.policy;

import io.curtail.client.track.LatencyStats;
import java.util.List;

/**
 * The one rule of what counts as slow, shared by fail-fast, write attribution, the choice of a
 * rebuild source and the order replicas are read in (paper §4.1: DataNodes are compared with each
 * other, never with a fixed number alone). Pure.
 *
 * <p>A DataNode is <em>judged</em> once it has {@code minSamples} recent samples; a judged
 * latency is <em>slower</em> than the fastest judged one when it exceeds it by the {@code factor}
 * and by at least {@code marginNanos} (so that at millisecond timings, where scheduling jitter is a
 * large factor, jitter decides nothing).
 */
public final class Slowness {
  private final double factor;
  private final long marginNanos;
  private final int minSamples;

  /**
   * @param factor how many times slower than the fastest counts as slow (> 1)
   * @param marginNanos how much slower it must also be (>= 0)
   * @param minSamples samples a DataNode needs before it is judged (>= 1)
   */
  public Slowness(double factor, long marginNanos, int minSamples) {
    if (!(factor > 1) || Double.isInfinite(factor) || marginNanos < 0 || minSamples < 1) {
      throw new IllegalArgumentException("need a finite factor > 1, marginNanos >= 0 and"
          + " minSamples >= 1; got " + factor + ", " + marginNanos + ", " + minSamples);
    }
    this.factor = factor;
    this.marginNanos = marginNanos;
    this.minSamples = minSamples;
  }

  /**
   * Samples needed before a percentile is judged: enough that the percentile is not the largest
   * sample (20 for p95), so one stall is never a DataNode's percentile, and at least a tenth of
   * the window; never more than the window.
   */
  public static int minSamples(double percentile, int window) {
    int n = 2;
    while (Math.ceil(percentile * n) >= n) {
      n++;
    }
    return Math.min(window, Math.max(n, window / 10));
  }

  public int minSamples() {
    return minSamples;
  }

  /** Whether a DataNode with {@code samples} recent samples has enough to be judged. */
  public boolean judged(int samples) {
    return samples >= minSamples;
  }

  public boolean judged(LatencyStats s) {
    return judged(s.samples());
  }

  /** Whether {@code nanos} is slow next to {@code fastestNanos}: by the factor and the margin. */
  public boolean slower(long nanos, long fastestNanos) {
    return nanos > factor * fastestNanos && nanos - fastestNanos >= marginNanos;
  }

  /** The lowest percentile among the judged {@code stats}; {@link Long#MAX_VALUE} if none. */
  public long fastestPercentile(List<LatencyStats> stats) {
    long fastest = Long.MAX_VALUE;
    for (int i = 0; i < stats.size(); i++) {
      if (judged(stats.get(i))) {
        fastest = Math.min(fastest, stats.get(i).percentileNanos());
      }
    }
    return fastest;
  }

  /** Whether judged {@code s} is known not to be slow next to {@code fastestNanos}. */
  public boolean knownFast(LatencyStats s, long fastestNanos) {
    return judged(s) && !slower(s.percentileNanos(), fastestNanos);
  }

  /**
   * The DataNode to copy from, among {@code stats}: one not {@code busy} before a busy one, one
   * with samples before one without, then the lowest percentile; ties go to the earlier position.
   */
  public static int bestSource(List<LatencyStats> stats, boolean[] busy) {
    int best = 0;
    for (int i = 1; i < stats.size(); i++) {
      if (compareAsSource(stats.get(i), busy[i], stats.get(best), busy[best]) < 0) {
        best = i;
      }
    }
    return best;
  }

  private static int compareAsSource(LatencyStats a, boolean aBusy, LatencyStats b,
      boolean bBusy) {
    if (aBusy != bBusy) {
      return aBusy ? 1 : -1;
    }
    boolean aKnown = a.samples() > 0;
    if (aKnown != (b.samples() > 0)) {
      return aKnown ? -1 : 1;
    }
    return Long.compare(a.percentileNanos(), b.percentileNanos());
  }

  @Override
  public String toString() {
    return "Slowness{factor=" + factor + ", marginNanos=" + marginNanos + ", minSamples="
        + minSamples + '}';
  }
}
