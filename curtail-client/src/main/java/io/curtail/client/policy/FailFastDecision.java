package io.curtail.client.policy;

/** What {@link FailFast} decided for a pipeline: keep it (and why), or replace one DataNode. */
public final class FailFastDecision {
  /** Why a pipeline is kept. */
  public enum Reason {
    /** Replacing was predicted to finish the block sooner. */
    REPLACE,
    /** A pipeline of one DataNode has nothing to compare it with. */
    NOTHING_TO_COMPARE,
    /** Some DataNode has too few recent samples to judge. */
    WARMING_UP,
    /** The slowest DataNode is within the factor of the fastest. */
    NOT_SLOW,
    /** Rebuilding the partial block would cost more than it saves. */
    NOT_WORTH_IT,
    /** This block already used every replacement try. */
    ATTEMPTS_EXHAUSTED
  }

  private final Reason reason;
  private final int replaceIndex;
  private final int sourceIndex;
  private final long rebuildTimeoutNanos;
  private final long predictedKeepNanos;
  private final long predictedReplaceNanos;

  private FailFastDecision(Reason reason, int replaceIndex, int sourceIndex,
      long rebuildTimeoutNanos, long predictedKeepNanos, long predictedReplaceNanos) {
    this.reason = reason;
    this.replaceIndex = replaceIndex;
    this.sourceIndex = sourceIndex;
    this.rebuildTimeoutNanos = rebuildTimeoutNanos;
    this.predictedKeepNanos = predictedKeepNanos;
    this.predictedReplaceNanos = predictedReplaceNanos;
  }

  /** One shared "keep" decision per reason: the common outcome allocates nothing. */
  private static final FailFastDecision[] KEEP = new FailFastDecision[Reason.values().length];

  static {
    for (Reason r : Reason.values()) {
      KEEP[r.ordinal()] = new FailFastDecision(r, -1, -1, 0, 0, 0);
    }
  }

  static FailFastDecision keep(Reason reason) {
    return KEEP[reason.ordinal()];
  }

  static FailFastDecision replace(int replaceIndex, int sourceIndex, long rebuildTimeoutNanos,
      long predictedKeepNanos, long predictedReplaceNanos) {
    return new FailFastDecision(Reason.REPLACE, replaceIndex, sourceIndex, rebuildTimeoutNanos,
        predictedKeepNanos, predictedReplaceNanos);
  }

  public boolean replace() {
    return reason == Reason.REPLACE;
  }

  public Reason reason() {
    return reason;
  }

  /** Pipeline index of the DataNode to replace; -1 when keeping. */
  public int replaceIndex() {
    return replaceIndex;
  }

  /** Pipeline index of the DataNode to rebuild the partial block from; -1 when keeping. */
  public int sourceIndex() {
    return sourceIndex;
  }

  /** How long the rebuild may take before it is aborted and retried; 0 when keeping. */
  public long rebuildTimeoutNanos() {
    return rebuildTimeoutNanos;
  }

  /** Predicted time to finish the block with the current pipeline; 0 unless replacing. */
  public long predictedKeepNanos() {
    return predictedKeepNanos;
  }

  /** Predicted time to finish the block after replacing; 0 unless replacing. */
  public long predictedReplaceNanos() {
    return predictedReplaceNanos;
  }

  @Override
  public String toString() {
    return replace()
        ? "replace{index=" + replaceIndex + ", source=" + sourceIndex + ", timeoutMs="
            + rebuildTimeoutNanos / 1_000_000 + ", keepMs=" + predictedKeepNanos / 1_000_000
            + ", replaceMs=" + predictedReplaceNanos / 1_000_000 + '}'
        : "keep{" + reason + '}';
  }
}
