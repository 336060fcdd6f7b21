package io.curtail.client.write;

import io.curtail.client.policy.FailFastDecision;
import io.curtail.client.track.LatencyStats;
import java.io.IOException;
import java.util.List;

/**
 * Why a pipeline stopped: a DataNode failed ({@link #badIndex} names it, -1 if none can be), or
 * fail-fast stopped it on purpose to replace a slow one ({@link #failFast} is then the policy's
 * decision, {@link #stats} what it was made on). A DataNode that failed may have said it is
 * restarting for an upgrade ({@link #restarting}): it is to be back on its ports within seconds.
 * Passed from the ack reader to the streamer.
 */
final class PipelineFailure extends IOException {
  final int badIndex;
  /** Whether the DataNode at {@link #badIndex} said (an out-of-band ack) it is restarting. */
  final boolean restarting;
  final FailFastDecision failFast;
  final List<LatencyStats> stats;
  /** For a fail-fast stop: whether the acks told every DataNode's share apart. */
  final boolean attributedExactly;

  PipelineFailure(String message, int badIndex, Throwable cause) {
    this(message, badIndex, false, cause);
  }

  PipelineFailure(String message, int badIndex, boolean restarting, Throwable cause) {
    super(message, cause);
    this.badIndex = badIndex;
    this.restarting = restarting;
    this.failFast = null;
    this.stats = null;
    this.attributedExactly = false;
  }

  PipelineFailure(String message, FailFastDecision failFast, List<LatencyStats> stats,
      boolean attributedExactly) {
    super(message);
    this.badIndex = failFast.replaceIndex();
    this.restarting = false;
    this.failFast = failFast;
    this.stats = stats;
    this.attributedExactly = attributedExactly;
  }

  boolean isFailFast() {
    return failFast != null;
  }
}
