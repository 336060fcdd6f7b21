package io.curtail.client.write;

/**
 * Where a file's {@link Streamer} stands. Only {@link WriteQueue#moveTo} changes it, and only
 * along these transitions:
 *
 * <pre>
 *   IDLE        → STREAMING   a pipeline is set up for a block (new, appended to, or resumed)
 *   STREAMING   → IDLE        the block's end is acknowledged, or the pipeline was stopped
 *   STREAMING   → RECOVERING  a DataNode of the pipeline failed
 *   STREAMING   → REPLACING   fail-fast judged a DataNode slow enough to replace
 *   RECOVERING  → STREAMING   the pipeline is set up again without the DataNode
 *   RECOVERING  → IDLE        the block held no data and was abandoned for a fresh one
 *   REPLACING   → STREAMING   the pipeline is set up again, with a replacement or as it was
 *   IDLE        → CLOSED      the writer finished and every packet is acknowledged
 *   any but CLOSED → BROKEN   a failure no recovery can mend, or the writer aborted
 * </pre>
 */
enum WriterState {
  /** No pipeline: before the first block, between blocks. */
  IDLE,
  /** A pipeline is up; packets go out and acks come back. */
  STREAMING,
  /** A DataNode failed; the streamer drops it, replaces it and sets the pipeline up again. */
  RECOVERING,
  /** Fail-fast stopped the pipeline to replace its slow DataNode (paper §4.2). */
  REPLACING,
  /** Finished: every packet acknowledged, nothing left to send. */
  CLOSED,
  /** Failed for good: every call from the writer throws the failure. */
  BROKEN;

  /** Whether the streamer may go from this state to {@code next}. */
  boolean canMoveTo(WriterState next) {
    if (next == BROKEN) {
      return this != CLOSED && this != BROKEN;
    }
    switch (this) {
      case IDLE:
        return next == STREAMING || next == CLOSED;
      case STREAMING:
        return next == IDLE || next == RECOVERING || next == REPLACING;
      case RECOVERING:
        return next == STREAMING || next == IDLE;
      case REPLACING:
        return next == STREAMING;
      default:
        return false;
    }
  }
}
