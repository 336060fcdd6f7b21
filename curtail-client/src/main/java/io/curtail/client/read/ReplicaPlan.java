package io.curtail.client.read;

import io.curtail.client.track.NodeId;
import io.curtail.client.track.NodeTracker;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * A block's replicas in the order to read them ({@code ReplicaOrder}), each with this JVM's
 * tracker of its DataNode. Immutable. Made once and reused by the reads of a block while the
 * client reads fewer than {@code curtail.read.hedging.threshold.refresh.packets} packets (the
 * knowledge it is made from moves slower than that), so a small positional read does not
 * recompute it.
 */
final class ReplicaPlan {
  final LocatedBlock block;
  final DatanodeInfo[] replicas;
  final NodeTracker[] trackers;
  /** The client's packet count when it was made. */
  final long madeAtPacket;

  private ReplicaPlan(LocatedBlock block, DatanodeInfo[] replicas, NodeTracker[] trackers,
      long madeAtPacket) {
    this.block = block;
    this.replicas = replicas;
    this.trackers = trackers;
    this.madeAtPacket = madeAtPacket;
  }

  /** The plan for {@code located} from what the JVM knows now. */
  static ReplicaPlan of(ReadContext ctx, LocatedBlock located) {
    DatanodeInfo[] byNameNode = located.getLocations();
    int n = byNameNode.length;
    NodeTracker[] byNameNodeTrackers = new NodeTracker[n];
    int[] samples = new int[n];
    long[] percentile = new long[n];
    boolean[] busy = new boolean[n];
    long[] scratch = new long[ctx.config.readWindowPackets()];
    long now = ctx.clock.nanoTime();
    for (int i = 0; i < n; i++) {
      NodeTracker t = ctx.runtime.registry().tracker(NodeId.of(byNameNode[i].getXferAddr()));
      byNameNodeTrackers[i] = t;
      samples[i] = t.reads().available(ctx.config.readWindowPackets());
      percentile[i] = t.reads().stats(ctx.config.readWindowPackets(),
          ctx.config.slownessPercentile(), scratch).percentileNanos();
      busy[i] = t.busy(now);
    }
    int[] order = ctx.replicaOrder.order(samples, percentile, busy);
    DatanodeInfo[] replicas = new DatanodeInfo[n];
    NodeTracker[] trackers = new NodeTracker[n];
    for (int i = 0; i < n; i++) {
      replicas[i] = byNameNode[order[i]];
      trackers[i] = byNameNodeTrackers[order[i]];
    }
    return new ReplicaPlan(located, replicas, trackers, ctx.packets());
  }

  /** Whether the client has read few enough packets since this was made to use it again. */
  boolean fresh(ReadContext ctx) {
    return ctx.packets() - madeAtPacket < ctx.config.thresholdRefreshPackets();
  }
}
