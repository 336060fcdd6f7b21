package io.curtail.client.write;

import io.curtail.client.trace.BlockObserver;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.track.LatencyWindow;
import io.curtail.client.track.NodeTracker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a writer knew of its pipeline's DataNodes, told to the block's watchers
 * ({@link BlockObserver#samples}): with a slow replacement, the statistics fail-fast decided on;
 * at the block's end, each DataNode's window then. Off the packet path: once per block or
 * replacement.
 */
final class BlockSamples {
  private BlockSamples() {
  }

  /** Tells {@code observer} {@code stats}, those of {@code t}'s DataNodes in order, if any. */
  static void tell(BlockObserver observer, Pipeline.Targets t, List<LatencyStats> stats,
      long acked, long nowNanos) {
    if (stats == null || stats.size() != t.size()) {
      return; // a failure's recovery has no statistics to tell
    }
    long[] p = new long[stats.size()];
    int[] n = new int[stats.size()];
    for (int i = 0; i < p.length; i++) {
      p[i] = stats.get(i).percentileNanos();
      n[i] = stats.get(i).samples();
    }
    observer.samples(Arrays.asList(t.addresses()), p, n, acked, nowNanos);
  }

  /** Each of {@code t}'s DataNodes' recent write statistics, as fail-fast judges them. */
  static List<LatencyStats> windows(WriteContext ctx, Pipeline.Targets t) {
    List<LatencyStats> out = new ArrayList<>(t.size());
    long[] scratch = new long[LatencyWindow.CAPACITY];
    for (NodeTracker tracker : ctx.trackersOf(t)) {
      out.add(tracker.judgedWrites(ctx.config.writeWindowPackets(),
          ctx.config.slownessPercentile(), scratch));
    }
    return out;
  }
}
