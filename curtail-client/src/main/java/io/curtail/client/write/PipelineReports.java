package io.curtail.client.write;

import io.curtail.client.track.LatencyWindow;
import io.curtail.client.wire.AckReport;
import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;

/**
 * The service times the DataNodes of one write pipeline report about themselves on its acks
 * (Curtail's DataNode plugin, see {@link AckReport}), position by position. Once every DataNode
 * of the pipeline has reported, which proves all of them run the plugin, the pipeline is judged on
 * these alone: they measure other spans than the client's own attribution and are never compared
 * with it, and a DataNode's reports at one position (the last is timed by its upstream) are not
 * mixed with its reports at another, so the windows are the pipeline's own.
 *
 * <p>Owned by the pipeline's ack reader; {@link #windows} may be read by other threads once
 * published.
 */
final class PipelineReports {
  private final LatencyWindow[] windows;
  private final long[] reported;
  private long firstSentNanos = Long.MIN_VALUE;
  private boolean complete;

  /** @param nodes DataNodes in the pipeline */
  PipelineReports(int nodes) {
    windows = new LatencyWindow[nodes];
    for (int i = 0; i < nodes; i++) {
      windows[i] = new LatencyWindow();
    }
    reported = new long[nodes];
  }

  /**
   * Records the reports on the ack for a packet sent at {@code sentNanos}, read at {@code nowNanos}
   * (acks come in order, so the first is for the pipeline's first packet). An ack with an
   * impossible report, longer than the pipeline has been carrying packets, is ignored whole.
   * Returns true on the ack that completes the evidence: from then on, judge on {@link #windows}.
   */
  boolean record(PipelineAck ack, long sentNanos, long nowNanos) {
    if (firstSentNanos == Long.MIN_VALUE) {
      firstSentNanos = sentNanos;
    }
    if (!AckReport.serviceTimes(ack, nowNanos - firstSentNanos, reported)) {
      return false;
    }
    for (int i = 0; i < reported.length; i++) {
      if (reported[i] >= 0) {
        windows[i].record(reported[i]);
      }
    }
    if (complete) {
      return false;
    }
    for (LatencyWindow w : windows) {
      if (w.totalRecorded() == 0) {
        return false;
      }
    }
    complete = true;
    return true;
  }

  /** Whether every DataNode has reported: the pipeline is judged on {@link #windows}. */
  boolean complete() {
    return complete;
  }

  /** The reported service times, by pipeline position. */
  LatencyWindow[] windows() {
    return windows;
  }
}
