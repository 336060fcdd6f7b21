package io.curtail.client.policy;

import io.curtail.client.track.LatencyStats;
import java.util.List;

/**
 * Decides whether to replace the slowest DataNode of a write pipeline (paper §4.2, "Fail fast for
 * writes"). Pure: numbers in, a {@link FailFastDecision} out; no clock, no I/O, no state.
 *
 * <ol>
 *   <li><b>Check.</b> Among the DataNodes {@link Slowness} judges (a DataNode the acks say
 *       nothing about is neither blamed nor compared with), once there are two, the slowest is
 *       slow if its percentile is {@link Slowness#slower slower} than the fastest's, and its
 *       mean than the mean of the cheaper end of the pipeline. The mean keeps a DataNode whose
 *       tail alone is long (a GC pause) from paying for a recovery; the ends are its yardstick
 *       because a middle DataNode acks before it writes, so behind an equally slow one its share
 *       says nothing of its speed (docs/writes.md, <i>Fail fast</i>). The slowest is not blamed
 *       while the DataNode feeding it, not judged yet, looks slower still on the samples it
 *       has: one slow sending makes the one it feeds look slow, and is itself the last of its
 *       pipelines to gather samples enough. So, where the rule allows it, a DataNode not
 *       judged yet whose median is slow already next to the fastest other one, as far as their
 *       samples tell ({@link Slowness#slowEarly}, {@link Slowness#yardstickNanos}), is the
 *       slowest, found early, and is compared with every DataNode whose samples tell anything;
 *       where the DataNode feeding it is slow too on its typical samples, judged or not,
 *       that one is (and so on up the pipeline), for the same reason.
 *   <li><b>Decide.</b> Keeping costs the slowest's mean for each packet still to write;
 *       replacing costs rebuilding the block's acknowledged bytes from the source (its mean per
 *       packet's worth) plus the remaining packets at the others' mean. Replace if cheaper. The
 *       source is a DataNode not slow next to the fastest, the furthest down the pipeline among
 *       those: it holds every byte the others have shown readers ({@link Slowness#bestSource}).
 *   <li><b>Retry.</b> After {@code abortedAttempts} overrun rebuilds, the expected rebuild time
 *       is multiplied by {@code abortedAttempts + 1}, the source moves to the next best, and
 *       after {@code maxAttempts} the block keeps its pipeline. A rebuild's timeout is its
 *       expected time, never below {@code minRebuildTimeoutNanos}.
 * </ol>
 * Whether a spare DataNode exists, and whether replication stays whole, is for the caller.
 */
public final class FailFast {
  private final Slowness slowness;
  private final int maxAttempts;
  private final long minRebuildTimeoutNanos;

  /**
   * @param slowness what counts as slow: the factor, the margin ({@code minSlowdownNanos}) and
   *     the samples every DataNode needs before it is judged ({@code minSamples})
   * @param maxAttempts replacement tries per block (>= 1)
   * @param minRebuildTimeoutNanos floor of a rebuild's timeout (> 0)
   */
  public FailFast(Slowness slowness, int maxAttempts, long minRebuildTimeoutNanos) {
    if (maxAttempts < 1 || minRebuildTimeoutNanos <= 0) {
      throw new IllegalArgumentException("need maxAttempts >= 1 and minRebuildTimeoutNanos > 0;"
          + " got " + maxAttempts + ", " + minRebuildTimeoutNanos);
    }
    this.slowness = slowness;
    this.maxAttempts = maxAttempts;
    this.minRebuildTimeoutNanos = minRebuildTimeoutNanos;
  }

  /** A policy with the rule made of these numbers, as the tests and the benchmarks build it. */
  public FailFast(double factor, int minSamples, int maxAttempts, long minRebuildTimeoutNanos,
      long minSlowdownNanos) {
    this(new Slowness(factor, minSlowdownNanos, minSamples), maxAttempts, minRebuildTimeoutNanos);
  }

  /**
   * @param pipeline recent write latencies of each DataNode, in pipeline order
   * @param bytesInBlock bytes already acknowledged in the current block (to rebuild on a new node)
   * @param packetBytes data bytes in a full packet
   * @param packetsRemaining packets still to write to the current block
   * @param abortedAttempts rebuilds of this block already aborted for overrunning their timeout
   */
  public FailFastDecision decide(List<LatencyStats> pipeline, long bytesInBlock, int packetBytes,
      long packetsRemaining, int abortedAttempts) {
    if (packetBytes < 1 || bytesInBlock < 0 || packetsRemaining < 0 || abortedAttempts < 0) {
      throw new IllegalArgumentException("need packetBytes >= 1 and non-negative bytesInBlock,"
          + " packetsRemaining, abortedAttempts; got " + packetBytes + ", " + bytesInBlock + ", "
          + packetsRemaining + ", " + abortedAttempts);
    }
    if (pipeline.size() < 2) {
      return FailFastDecision.keep(FailFastDecision.Reason.NOTHING_TO_COMPARE);
    }
    // One found slow early is checked first; where that keeps it, the judged slowest is.
    int early = slowestEarly(pipeline);
    if (early >= 0) {
      FailFastDecision d = decide(pipeline, early, bytesInBlock, packetBytes, packetsRemaining,
          abortedAttempts);
      if (d.replace()) {
        return d;
      }
    }
    return decide(pipeline, -1, bytesInBlock, packetBytes, packetsRemaining, abortedAttempts);
  }

  /**
   * The decision about {@code early}, found slow early and compared with each other DataNode as
   * far as its samples tell, or with {@code early} -1 about the slowest judged DataNode, compared
   * with the judged ones.
   */
  private FailFastDecision decide(List<LatencyStats> pipeline, int early, long bytesInBlock,
      int packetBytes, long packetsRemaining, int abortedAttempts) {
    int n = pipeline.size();
    boolean earlyView = early >= 0;
    int slowest = early;
    int counted = 0;
    for (int i = 0; i < n; i++) {
      if (!counts(pipeline.get(i), earlyView)) {
        continue;
      }
      counted++;
      if (!earlyView && (slowest < 0
          || pipeline.get(i).percentileNanos() > pipeline.get(slowest).percentileNanos())) {
        slowest = i;
      }
    }
    int others = counted - 1;
    if (others < 1) {
      return FailFastDecision.keep(FailFastDecision.Reason.WARMING_UP);
    }
    int fastest = fastestExcept(pipeline, slowest, earlyView);
    int cheapestEnd = cheapestEndExcept(pipeline, slowest, earlyView);
    if (cheapestEnd < 0) {
      return FailFastDecision.keep(FailFastDecision.Reason.WARMING_UP);
    }
    LatencyStats slow = pipeline.get(slowest);
    if (!slowness.slower(slow.percentileNanos(), pipeline.get(fastest).percentileNanos())
        || !slowness.slower(slow.meanNanos(), pipeline.get(cheapestEnd).meanNanos())) {
      return FailFastDecision.keep(FailFastDecision.Reason.NOT_SLOW);
    }
    if (slowest > 0 && !judged(pipeline.get(slowest - 1))
        && pipeline.get(slowest - 1).percentileNanos() > slow.percentileNanos()) {
      return FailFastDecision.keep(FailFastDecision.Reason.WARMING_UP);
    }
    if (abortedAttempts >= maxAttempts) {
      return FailFastDecision.keep(FailFastDecision.Reason.ATTEMPTS_EXHAUSTED);
    }

    int source = nthBestSourceExcept(pipeline, slowest, abortedAttempts % others, earlyView);
    double packetsToRebuild = (double) bytesInBlock / packetBytes;
    double rebuildNanos =
        packetsToRebuild * pipeline.get(source).meanNanos() * (abortedAttempts + 1);
    double othersMean = 0;
    for (int i = 0; i < n; i++) {
      if (i != slowest && counts(pipeline.get(i), earlyView)) {
        othersMean += pipeline.get(i).meanNanos();
      }
    }
    othersMean /= others;
    double keepNanos = (double) slow.meanNanos() * packetsRemaining;
    double replaceNanos = rebuildNanos + othersMean * packetsRemaining;
    if (replaceNanos >= keepNanos) {
      return FailFastDecision.keep(FailFastDecision.Reason.NOT_WORTH_IT);
    }
    long timeout = Math.max(minRebuildTimeoutNanos, (long) Math.ceil(rebuildNanos));
    return FailFastDecision.replace(slowest, source, timeout, (long) keepNanos,
        (long) replaceNanos);
  }

  private boolean judged(LatencyStats s) {
    return slowness.judged(s);
  }

  /**
   * Whether {@code s} is compared with: judged, or, where a DataNode was found slow early
   * ({@code earlyView}), telling anything ({@link Slowness#yardstickNanos}).
   */
  private boolean counts(LatencyStats s, boolean earlyView) {
    return earlyView ? slowness.yardstickNanos(s) < Long.MAX_VALUE : judged(s);
  }

  /**
   * The DataNode not judged yet that is slow already on its median next to the fastest other one
   * ({@link Slowness#slowEarly}, {@link Slowness#yardstickNanos}), the slowest such if several;
   * or, where the DataNodes feeding it are slow too on their typical samples, judged or not
   * ({@link Slowness#slowTypically}), the first of those in a row before it; -1 if none.
   */
  private int slowestEarly(List<LatencyStats> pipeline) {
    // The least yardstick and the next: the fastest other DataNode's is the least but at its own.
    int least = -1;
    long leastNanos = Long.MAX_VALUE;
    long nextNanos = Long.MAX_VALUE;
    for (int i = 0; i < pipeline.size(); i++) {
      long y = slowness.yardstickNanos(pipeline.get(i));
      if (y < leastNanos) {
        nextNanos = leastNanos;
        leastNanos = y;
        least = i;
      } else if (y < nextNanos) {
        nextNanos = y;
      }
    }
    int early = -1;
    for (int i = 0; i < pipeline.size(); i++) {
      if (slowness.slowEarly(pipeline.get(i), leastBut(i, least, leastNanos, nextNanos))
          && (early < 0 || pipeline.get(i).medianNanos() > pipeline.get(early).medianNanos())) {
        early = i;
      }
    }
    // Of several slow in a row, the first, judged or not: a DataNode's sending slows the stages
    // of those it feeds (a NIC's queue, which no report sees), never its feeder's.
    while (early > 0 && slowness.slowTypically(pipeline.get(early - 1),
        leastBut(early - 1, least, leastNanos, nextNanos))) {
      early--;
    }
    return early;
  }

  /**
   * The least yardstick but DataNode {@code i}'s own, given the least ({@code least}'s) and the
   * next; {@link Long#MAX_VALUE} (next to which nothing is slow) if no other tells anything.
   */
  private static long leastBut(int i, int least, long leastNanos, long nextNanos) {
    return i == least ? nextNanos : leastNanos;
  }

  /** The counted end of the pipeline (other than {@code skip}) with the lower mean, or -1. */
  private int cheapestEndExcept(List<LatencyStats> pipeline, int skip, boolean earlyView) {
    int last = pipeline.size() - 1;
    boolean first = skip != 0 && counts(pipeline.get(0), earlyView);
    boolean end = skip != last && counts(pipeline.get(last), earlyView);
    if (first && end) {
      return pipeline.get(last).meanNanos() < pipeline.get(0).meanNanos() ? last : 0;
    }
    return first ? 0 : end ? last : -1;
  }

  /** Index of the fastest counted DataNode other than {@code skip}. */
  private int fastestExcept(List<LatencyStats> pipeline, int skip, boolean earlyView) {
    int fastest = -1;
    for (int i = 0; i < pipeline.size(); i++) {
      if (i != skip && counts(pipeline.get(i), earlyView)
          && (fastest < 0 || isFaster(pipeline, i, fastest))) {
        fastest = i;
      }
    }
    return fastest;
  }

  /**
   * Index of the {@code rank}-th best rebuild source (0 = best) among the counted DataNodes
   * other than {@code skip}: those not slow next to the fastest of them first, then the furthest
   * down the pipeline (see {@link Slowness#bestSource}).
   */
  private int nthBestSourceExcept(List<LatencyStats> pipeline, int skip, int rank,
      boolean earlyView) {
    int n = pipeline.size();
    long fastest = pipeline.get(fastestExcept(pipeline, skip, earlyView)).percentileNanos();
    // Selection by counting: pipelines hold a handful of nodes, so this beats sorting and
    // allocates nothing.
    for (int i = 0; i < n; i++) {
      if (i == skip || !counts(pipeline.get(i), earlyView)) {
        continue;
      }
      int better = 0;
      int c = slowness.sourceClass(pipeline.get(i), fastest);
      for (int j = 0; j < n; j++) {
        if (j != skip && j != i && counts(pipeline.get(j), earlyView)) {
          int d = slowness.sourceClass(pipeline.get(j), fastest);
          if (d < c || (d == c && j > i)) {
            better++;
          }
        }
      }
      if (better == rank) {
        return i;
      }
    }
    throw new IllegalStateException("rank " + rank + " out of " + (n - 1));
  }

  private static boolean isFaster(List<LatencyStats> pipeline, int a, int b) {
    long pa = pipeline.get(a).percentileNanos();
    long pb = pipeline.get(b).percentileNanos();
    return pa < pb || (pa == pb && a < b);
  }
}
