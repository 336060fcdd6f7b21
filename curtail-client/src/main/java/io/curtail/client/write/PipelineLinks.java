package io.curtail.client.write;

import io.curtail.client.policy.Slowness;
import io.curtail.client.policy.WriteAttribution;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.track.LatencyWindow;
import io.curtail.client.track.NodeId;
import io.curtail.client.track.SlowLinks;
import java.util.List;

/**
 * One pipeline's links between DataNodes, link i from DataNode i to i + 1: their times and each
 * DataNode's own service, recorded per ack, judged by the one rule of slowness, voted into the
 * JVM's {@link SlowLinks}, and the vote handed to the attribution. The ack reader's own: not
 * thread-safe. Public for the microbenchmark of the per-ack cost ({@code AckReportsBenchmark}).
 */
public final class PipelineLinks {
  private final NodeId[] ids;
  private final Slowness slowness;
  private final SlowLinks slowLinks;
  private final int window;
  private final double percentile;
  private final LatencyWindow[] linkWindows;
  /** Each DataNode's own service in this pipeline, links left out: is a link's receiver slow? */
  private final LatencyWindow[] ownWindows;
  private final boolean[] linkJudged;
  private final long[] scratch = new long[LatencyWindow.CAPACITY];

  public PipelineLinks(NodeId[] ids, Slowness slowness, SlowLinks slowLinks, int window,
      double percentile) {
    this.ids = ids.clone();
    this.slowness = slowness;
    this.slowLinks = slowLinks;
    this.window = window;
    this.percentile = percentile;
    int n = ids.length;
    this.linkWindows = new LatencyWindow[n];
    this.ownWindows = new LatencyWindow[n];
    this.linkJudged = new boolean[n];
    for (int i = 0; i < n; i++) {
      linkWindows[i] = new LatencyWindow();
      ownWindows[i] = new LatencyWindow();
    }
  }

  /**
   * Records one ack's link times ({@code links[i]}, or {@link WriteAttribution#NO_EVIDENCE}) and
   * the own service of each link's receiver, as the attribution told them apart.
   */
  public void record(long[] links, WriteAttribution attribution) {
    for (int i = 0; i < links.length; i++) {
      if (links[i] != WriteAttribution.NO_EVIDENCE) {
        linkWindows[i].record(links[i]);
        ownWindows[i + 1].record(Math.max(0, attribution.ownService(i + 1)));
      }
    }
  }

  /**
   * Judges each link whose time the DataNodes reported, by the one rule of slowness against the
   * fastest DataNode of the pipeline ({@code stats}), votes the verdict into the JVM's
   * {@link SlowLinks}, and tells the attribution, from the vote, whose each judged link's time is
   * (a link not judged yet is nobody's).
   */
  public void judge(List<LatencyStats> stats, long now, WriteAttribution attribution) {
    long fastest = slowness.fastestPercentile(stats);
    boolean voted = false;
    for (int i = 0; i + 1 < ids.length; i++) {
      LatencyStats link = linkWindows[i].stats(window, percentile, scratch);
      linkJudged[i] = slowness.judged(link) && fastest != Long.MAX_VALUE;
      if (!linkJudged[i]) {
        continue;
      }
      voted = true;
      if (slowness.slower(link.percentileNanos(), fastest)) {
        slowLinks.slow(ids[i], ids[i + 1], now);
      } else {
        slowLinks.fast(ids[i], ids[i + 1]);
      }
    }
    // All of this pipeline's votes first: a DataNode slow both ways is the common end of two.
    for (int i = 0; voted && i + 1 < ids.length; i++) {
      if (linkJudged[i]) {
        LatencyStats receiver = ownWindows[i + 1].stats(window, percentile, scratch);
        boolean receiverSlow = slowness.judged(receiver)
            && slowness.slower(receiver.percentileNanos(), fastest);
        attribution.blameLink(i, slowLinks.blameSender(ids[i], ids[i + 1], receiverSlow, now)
            ? WriteAttribution.LinkEnd.SENDER : WriteAttribution.LinkEnd.RECEIVER);
      }
    }
  }
}
