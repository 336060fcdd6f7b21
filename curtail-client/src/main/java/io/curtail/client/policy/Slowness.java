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
  /** Samples a DataNode not judged needs to be found slow early on its median; 0: never. */
  private final int earlySamples;

  /** The fewest samples a DataNode is found slow early on. */
  static final int EARLY_MIN_SAMPLES = 5;

  /**
   * @param factor how many times slower than the fastest counts as slow (> 1)
   * @param marginNanos how much slower it must also be (>= 0)
   * @param minSamples samples a DataNode needs before it is judged (>= 1)
   */
  public Slowness(double factor, long marginNanos, int minSamples) {
    this(factor, marginNanos, minSamples, 0);
  }

  private Slowness(double factor, long marginNanos, int minSamples, int earlySamples) {
    if (!(factor > 1) || Double.isInfinite(factor) || marginNanos < 0 || minSamples < 1) {
      throw new IllegalArgumentException("need a finite factor > 1, marginNanos >= 0 and"
          + " minSamples >= 1; got " + factor + ", " + marginNanos + ", " + minSamples);
    }
    this.factor = factor;
    this.marginNanos = marginNanos;
    this.minSamples = minSamples;
    this.earlySamples = earlySamples;
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

  /**
   * The same rule, judging from {@code samples} samples (at most this rule's own number), and
   * finding nobody slow early.
   */
  public Slowness withMinSamples(int samples) {
    return new Slowness(factor, marginNanos, Math.min(samples, minSamples));
  }

  /**
   * The same rule, which also finds a DataNode not yet judged slow early ({@link #slowEarly}):
   * on a quarter of the samples a percentile needs (at least {@value #EARLY_MIN_SAMPLES}), if
   * even its median is slow. A stall or two cannot make a median, so what it takes is a
   * DataNode slow at every other packet; and one so slow gathers its samples at its own pace,
   * and its pipelines with it: a NIC at 2 MiB/s shared by six writers gives one every 40 ms or
   * more, and its 20 took about a second. The median also tells a DataNode slow everywhere from
   * one slow only behind it (whose stage carries its sending), which is slow at some packets.
   */
  public Slowness withEarlyJudgement() {
    return new Slowness(factor, marginNanos, minSamples,
        Math.min(minSamples, Math.max(EARLY_MIN_SAMPLES, minSamples / 4)));
  }

  /**
   * What {@code s} tells of a DataNode's speed, to find another slow early beside it: its
   * percentile once judged; before, with early judgement, its median on as many samples as a
   * DataNode is found slow on; else nothing ({@link Long#MAX_VALUE}). The DataNodes of one
   * pipeline are timed on the same packets, at the pace of its slowest: behind a slow one, the
   * others gather samples no faster than it does.
   */
  public long yardstickNanos(LatencyStats s) {
    if (judged(s)) {
      return s.percentileNanos();
    }
    return earlySamples > 0 && s.samples() >= earlySamples && s.medianNanos() > 0
        ? s.medianNanos() : Long.MAX_VALUE;
  }

  /**
   * Whether {@code s}, not judged yet, is slow already next to {@code fastestNanos} (the least
   * {@link #yardstickNanos} of the others): on enough samples (see {@link #withEarlyJudgement}),
   * its median slower.
   */
  public boolean slowEarly(LatencyStats s, long fastestNanos) {
    return !judged(s) && s.medianNanos() > 0 && slowTypically(s, fastestNanos);
  }

  /**
   * Whether {@code s}, judged or not, is slow next to {@code fastestNanos} on its typical
   * sample (its median where known, else its mean), on the samples a DataNode is found slow
   * early on: a tail alone, a stall or two, does not make it. What makes a feeder the one to
   * take of two slow in a row ({@link FailFast}).
   */
  public boolean slowTypically(LatencyStats s, long fastestNanos) {
    long typical = s.medianNanos() > 0 ? s.medianNanos() : s.meanNanos();
    return earlySamples > 0 && s.samples() >= earlySamples && typical > 0
        && slower(typical, fastestNanos);
  }

  /**
   * Whether {@code s} shows a DataNode fast next to {@code fastestNanos} (the least
   * {@link #yardstickNanos} of the others): its yardstick known and not slower. A DataNode that
   * shows nothing yet is not shown fast.
   */
  public boolean shownFast(LatencyStats s, long fastestNanos) {
    long y = yardstickNanos(s);
    return y < Long.MAX_VALUE && !slower(y, fastestNanos);
  }

  /**
   * Whether DataNode {@code i} of a pipeline ({@code stats}) is slow early only on samples that
   * tell nothing of it yet: every one of them taken behind one and the same DataNode, whose
   * statistics {@code feeder} (at position {@code feederAt} of the pipeline, or -1 if it is not
   * in it) do not show it fast next to the others. Its stages there held that DataNode's
   * sending, a NIC's queue no report sees. {@code i} is slow early next to the least yardstick
   * but its own; the feeder is shown fast or not next to the least but its own and {@code i}'s.
   */
  public boolean slowEarlyOnlyBehind(List<LatencyStats> stats, int i, int feederAt,
      LatencyStats feeder) {
    long others = Long.MAX_VALUE;
    long beside = Long.MAX_VALUE;
    for (int j = 0; j < stats.size(); j++) {
      if (j != i) {
        long y = yardstickNanos(stats.get(j));
        others = Math.min(others, y);
        if (j != feederAt) {
          beside = Math.min(beside, y);
        }
      }
    }
    return others < Long.MAX_VALUE && beside < Long.MAX_VALUE
        && slowEarly(stats.get(i), others) && !shownFast(feeder, beside);
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
   * The DataNode of a pipeline to copy the block's acknowledged bytes from, among {@code stats}
   * (in pipeline order): one not {@code busy} before a busy one; then, by {@link #sourceClass},
   * one known not to be slow, then one not judged, then a slow one; then the furthest down the
   * pipeline. A DataNode makes a packet visible to readers only once those after it have
   * acknowledged it, so the furthest down holds every byte the ones before it have shown: a
   * newcomer copied from it never shows a tailing reader less than a survivor did.
   */
  public int bestSource(List<LatencyStats> stats, boolean[] busy) {
    long fastest = fastestPercentile(stats);
    int best = -1;
    int bestClass = Integer.MAX_VALUE;
    for (int i = stats.size() - 1; i >= 0; i--) {
      int c = sourceClass(stats.get(i), fastest) + (busy[i] ? SOURCE_CLASSES : 0);
      if (c < bestClass) {
        best = i;
        bestClass = c;
      }
    }
    return best;
  }

  /** How many values {@link #sourceClass} takes: a busy DataNode ranks after all of them. */
  private static final int SOURCE_CLASSES = 3;

  /**
   * How good a rebuild source {@code s} is, lower better: 0 judged and not slow next to
   * {@code fastestNanos}, 1 not judged, 2 slow. Within a class, the furthest down the pipeline
   * is best (see {@link #bestSource}).
   */
  public int sourceClass(LatencyStats s, long fastestNanos) {
    if (!judged(s)) {
      return 1;
    }
    return slower(s.percentileNanos(), fastestNanos) ? 2 : 0;
  }

  @Override
  public String toString() {
    return "Slowness{factor=" + factor + ", marginNanos=" + marginNanos + ", minSamples="
        + minSamples + ", earlySamples=" + earlySamples + '}';
  }
}
