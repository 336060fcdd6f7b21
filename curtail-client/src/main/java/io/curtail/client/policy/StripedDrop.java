package io.curtail.client.policy;

import io.curtail.client.track.LatencyStats;
import java.util.List;

/**
 * Decides whether an erasure-coded write lets the one streamer of a block group that falls behind
 * go, as stock's striped stream lets a <em>failed</em> one go: the group then completes with
 * {@code k + m − 1} internal blocks and the NameNode reconstructs the missing one (issue 36; the
 * fail-fast idea of paper §4.2 applied to a block group, whose streamers are compared with each
 * other as a pipeline's DataNodes are). Pure: numbers in, a {@link Decision} out.
 *
 * <ol>
 *   <li><b>Guard.</b> At most one drop per block group, and only while every one of its
 *       {@code k + m} streamers is writing: a group that already lost one (a failure, a parity
 *       block the NameNode could not place, an earlier drop) keeps the rest, so a drop never
 *       leaves fewer than {@code k + m − 1} internal blocks. Never with a single parity unit
 *       (XOR-2-1): the group would wait for its reconstruction with no redundancy at all, a
 *       trade stock makes only when a DataNode fails, never for speed.
 *   <li><b>Check.</b> Among the streamers {@link Slowness} judges, the one with the highest
 *       percentile is slow if that percentile is {@link Slowness#slower slower} than the
 *       fastest's, and its mean slower than the mean of the next slowest: a block group goes at
 *       the pace of its slowest streamer, so letting one go helps only if the one after it is
 *       much faster (two equally slow streamers, or a slow client, drop nothing).
 *   <li><b>Decide.</b> Keeping costs the slowest's mean for each packet still to write to the
 *       group's internal blocks; dropping costs the recovery (a new generation stamp and the
 *       other pipelines set up again, {@code recoveryNanos}) plus the remaining packets at the
 *       next slowest's mean. Drop if cheaper.
 * </ol>
 * Used by no writer yet: Curtail's erasure-coded files are written by stock's striped stream,
 * which offers no way to let a streamer go (see {@code StripedWriteTest} for the NameNode
 * behaviour a drop relies on).
 */
public final class StripedDrop {
  private final Slowness slowness;

  public StripedDrop(Slowness slowness) {
    this.slowness = slowness;
  }

  /**
   * @param streamers recent packet latencies of each streamer of the group, by internal block
   *     index ({@code k + m} of them); null for a streamer that is not writing (failed, dropped,
   *     or given no DataNode)
   * @param parityUnits the policy's {@code m}
   * @param dropsInGroup streamers of this block group already let go for being slow
   * @param packetsRemaining packets still to write to each internal block of the group
   * @param recoveryNanos what letting a streamer go costs the others (>= 0)
   */
  public Decision decide(List<LatencyStats> streamers, int parityUnits, int dropsInGroup,
      long packetsRemaining, long recoveryNanos) {
    if (parityUnits < 1 || parityUnits >= streamers.size() || dropsInGroup < 0
        || packetsRemaining < 0 || recoveryNanos < 0) {
      throw new IllegalArgumentException("need parityUnits in [1, " + streamers.size() + ") and"
          + " non-negative dropsInGroup, packetsRemaining and recoveryNanos; got " + parityUnits
          + ", " + dropsInGroup + ", " + packetsRemaining + ", " + recoveryNanos);
    }
    if (parityUnits < 2) {
      return Decision.keep(Reason.NO_REDUNDANCY_LEFT);
    }
    if (dropsInGroup > 0) {
      return Decision.keep(Reason.ALREADY_DROPPED);
    }
    int slowest = -1;
    int judged = 0;
    for (int i = 0; i < streamers.size(); i++) {
      LatencyStats s = streamers.get(i);
      if (s == null) {
        return Decision.keep(Reason.GROUP_ALREADY_SHORT);
      }
      if (slowness.judged(s)) {
        judged++;
        if (slowest < 0 || s.percentileNanos() > streamers.get(slowest).percentileNanos()) {
          slowest = i;
        }
      }
    }
    if (judged < 2) {
      return Decision.keep(Reason.WARMING_UP);
    }
    long fastestPercentile = Long.MAX_VALUE;
    long nextMean = -1;
    for (int i = 0; i < streamers.size(); i++) {
      LatencyStats s = streamers.get(i);
      if (i != slowest && slowness.judged(s)) {
        fastestPercentile = Math.min(fastestPercentile, s.percentileNanos());
        nextMean = Math.max(nextMean, s.meanNanos());
      }
    }
    LatencyStats slow = streamers.get(slowest);
    if (!slowness.slower(slow.percentileNanos(), fastestPercentile)) {
      return Decision.keep(Reason.NOT_SLOW);
    }
    if (!slowness.slower(slow.meanNanos(), nextMean)) {
      return Decision.keep(Reason.NOT_ALONE);
    }
    double keepNanos = (double) slow.meanNanos() * packetsRemaining;
    double dropNanos = recoveryNanos + (double) nextMean * packetsRemaining;
    if (dropNanos >= keepNanos) {
      return Decision.keep(Reason.NOT_WORTH_IT);
    }
    return new Decision(Reason.DROP, slowest, (long) keepNanos, (long) dropNanos);
  }

  /** Why a group keeps its streamers, or {@link #DROP}. */
  public enum Reason {
    /** Letting the slowest go was predicted to finish the group sooner. */
    DROP,
    /** The policy has one parity unit: a drop would leave the group no redundancy. */
    NO_REDUNDANCY_LEFT,
    /** This group already let a slow streamer go. */
    ALREADY_DROPPED,
    /** A streamer of this group is not writing: a drop would leave fewer than k + m − 1. */
    GROUP_ALREADY_SHORT,
    /** Fewer than two streamers have enough samples to be compared. */
    WARMING_UP,
    /** The slowest streamer's percentile is within the rule of the fastest's. */
    NOT_SLOW,
    /** Another streamer is nearly as slow: the group would go no faster without the slowest. */
    NOT_ALONE,
    /** The recovery would cost more than waiting for the slowest saves. */
    NOT_WORTH_IT
  }

  /** What {@link StripedDrop} decided for a block group. */
  public static final class Decision {
    /** One shared "keep" decision per reason: the common outcome allocates nothing. */
    private static final Decision[] KEEP = new Decision[Reason.values().length];

    static {
      for (Reason r : Reason.values()) {
        KEEP[r.ordinal()] = new Decision(r, -1, 0, 0);
      }
    }

    private final Reason reason;
    private final int dropIndex;
    private final long predictedKeepNanos;
    private final long predictedDropNanos;

    private Decision(Reason reason, int dropIndex, long predictedKeepNanos,
        long predictedDropNanos) {
      this.reason = reason;
      this.dropIndex = dropIndex;
      this.predictedKeepNanos = predictedKeepNanos;
      this.predictedDropNanos = predictedDropNanos;
    }

    static Decision keep(Reason reason) {
      return KEEP[reason.ordinal()];
    }

    public boolean drop() {
      return reason == Reason.DROP;
    }

    public Reason reason() {
      return reason;
    }

    /** The internal block index of the streamer to let go; -1 when kept. */
    public int dropIndex() {
      return dropIndex;
    }

    /** The group's remaining time waiting for the slowest (0 when kept before the cost step). */
    public long predictedKeepNanos() {
      return predictedKeepNanos;
    }

    /** The group's remaining time without it, recovery included (0 likewise). */
    public long predictedDropNanos() {
      return predictedDropNanos;
    }

    @Override
    public String toString() {
      return drop() ? "drop #" + dropIndex + " (keep " + predictedKeepNanos / 1_000_000
          + " ms, drop " + predictedDropNanos / 1_000_000 + " ms)" : "keep: " + reason;
    }
  }
}
