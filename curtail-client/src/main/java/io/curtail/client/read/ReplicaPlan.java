package io.curtail.client.read;

import io.curtail.client.policy.ReplicaOrder;
import io.curtail.client.track.NodeId;
import io.curtail.client.track.NodeTracker;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * A block's replicas in the order to read them ({@code ReplicaOrder}), each with this JVM's
 * tracker of its DataNode and whether it was demoted (busy, or slow to deliver or to start: no
 * hedge goes to it). Immutable. Made once and reused by the reads of a block while the
 * client reads fewer than {@code curtail.read.hedging.threshold.refresh.packets} packets (the
 * knowledge it is made from moves slower than that), so a small positional read does not
 * recompute it.
 */
final class ReplicaPlan {
  final LocatedBlock block;
  final DatanodeInfo[] replicas;
  final NodeTracker[] trackers;
  final boolean[] demoted;
  /** The client's packet count when it was made. */
  final long madeAtPacket;

  private ReplicaPlan(LocatedBlock block, DatanodeInfo[] replicas, NodeTracker[] trackers,
      boolean[] demoted, long madeAtPacket) {
    this.block = block;
    this.replicas = replicas;
    this.trackers = trackers;
    this.demoted = demoted;
    this.madeAtPacket = madeAtPacket;
  }

  /** The plan for {@code located} from what the JVM knows now. */
  static ReplicaPlan of(ReadContext ctx, LocatedBlock located) {
    DatanodeInfo[] byNameNode = located.getLocations();
    int n = byNameNode.length;
    NodeTracker[] byNameNodeTrackers = new NodeTracker[n];
    int[] readSamples = new int[n];
    long[] readPercentile = new long[n];
    int[] startSamples = new int[n];
    long[] startPercentile = new long[n];
    boolean[] demotedByNameNodeOrder = new boolean[n];
    int window = ctx.config.readWindowPackets();
    double percentile = ReadContext.ORDER_PERCENTILE;
    long[] scratch = new long[window];
    long now = ctx.clock.nanoTime();
    for (int i = 0; i < n; i++) {
      NodeTracker t = ctx.runtime.registry().tracker(NodeId.of(byNameNode[i].getXferAddr()));
      byNameNodeTrackers[i] = t;
      readSamples[i] = t.reads().available(window);
      readPercentile[i] = t.reads().stats(window, percentile, scratch).percentileNanos();
      startSamples[i] = t.starts().available(window);
      startPercentile[i] = t.starts().stats(window, percentile, scratch).percentileNanos();
      demotedByNameNodeOrder[i] = t.busy(now);
    }
    ctx.replicaOrder.demoteSlow(readSamples, readPercentile, demotedByNameNodeOrder);
    ctx.replicaOrder.demoteSlow(startSamples, startPercentile, demotedByNameNodeOrder);
    int[] order = ReplicaOrder.order(demotedByNameNodeOrder);
    DatanodeInfo[] replicas = new DatanodeInfo[n];
    NodeTracker[] trackers = new NodeTracker[n];
    boolean[] demoted = new boolean[n];
    for (int i = 0; i < n; i++) {
      replicas[i] = byNameNode[order[i]];
      trackers[i] = byNameNodeTrackers[order[i]];
      demoted[i] = demotedByNameNodeOrder[order[i]];
    }
    return new ReplicaPlan(located, replicas, trackers, demoted, ctx.packets());
  }

  /** Whether the client has read few enough packets since this was made to use it again. */
  boolean fresh(ReadContext ctx) {
    return ctx.packets() - madeAtPacket < ctx.config.thresholdRefreshPackets();
  }
}
