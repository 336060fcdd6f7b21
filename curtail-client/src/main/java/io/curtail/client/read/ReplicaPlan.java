package io.curtail.client.read;

import io.curtail.client.policy.ReplicaOrder;
import io.curtail.client.trace.BlockObserver;
import io.curtail.client.track.LatencyWindow;
import io.curtail.client.track.NodeId;
import io.curtail.client.track.NodeTracker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A block's replicas in the order to read them ({@code ReplicaOrder}), each with this JVM's
 * tracker of its DataNode and whether it was demoted (busy, slow to deliver or to start, or
 * reported loaded by the NameNode, {@code ReportedLoad}, which go before the others). Immutable.
 * Made once and reused by the reads of a block while the client reads fewer than
 * {@code curtail.read.hedging.threshold.refresh.packets} packets (the knowledge it is made from
 * moves slower than that), so a small positional read does not recompute it.
 */
final class ReplicaPlan {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaPlan.class);
  final LocatedBlock block;
  final DatanodeInfo[] replicas;
  final NodeTracker[] trackers;
  final boolean[] demoted;
  /**
   * Whether each replica was demoted on the JVM's own knowledge (busy, slow to deliver or to
   * start) or this client's (a hedge overtook a read from it lately), the NameNode's load aside.
   */
  final boolean[] slow;
  /** Whether the NameNode reports each replica's DataNode loaded beside the block's typical one. */
  final boolean[] loaded;
  /** What each replica is known to take (its packets' tail or typical start), 0 if unknown. */
  final long[] knownNanos;
  /** The client's packet count when it was made. */
  final long madeAtPacket;
  /** How many reads the client had seen overtaken by a hedge when it was made. */
  final long madeAtOvertakes;

  private ReplicaPlan(LocatedBlock block, DatanodeInfo[] replicas, NodeTracker[] trackers,
      boolean[] demoted, boolean[] slow, boolean[] loaded, long[] knownNanos, long madeAtPacket,
      long madeAtOvertakes) {
    this.block = block;
    this.replicas = replicas;
    this.trackers = trackers;
    this.demoted = demoted;
    this.slow = slow;
    this.loaded = loaded;
    this.knownNanos = knownNanos;
    this.madeAtPacket = madeAtPacket;
    this.madeAtOvertakes = madeAtOvertakes;
  }

  /** The plan for {@code located} from what the JVM knows now. */
  static ReplicaPlan of(ReadContext ctx, LocatedBlock located) {
    long overtakes = ctx.overtakes(); // before what it reflects: a later one makes this stale
    DatanodeInfo[] byNameNode = located.getLocations();
    int n = byNameNode.length;
    int window = ctx.config.readWindowPackets();
    NodeTracker[] byNameNodeTrackers = new NodeTracker[n];
    Measure packets = new Measure(n);
    Measure packetTails = new Measure(n);
    Measure starts = new Measure(n);
    boolean[] demotedByNameNodeOrder = new boolean[n];
    long[] scratch = new long[window];
    long now = ctx.clock.nanoTime();
    for (int i = 0; i < n; i++) {
      NodeTracker t = ctx.runtime.registry().tracker(NodeId.of(byNameNode[i].getXferAddr()));
      byNameNodeTrackers[i] = t;
      // Knowledge older than the JVM's memory is no knowledge: a DataNode once known slow is
      // tried again, as fail-fast forgets the DataNodes it avoids.
      if (now - t.lastStartNanos() <= ctx.config.knowledgeMemoryNanos()) {
        packets.take(i, t.reads(), window, ReadContext.TYPICAL_PERCENTILE, scratch);
        packetTails.take(i, t.reads(), window, ctx.config.slownessPercentile(), scratch);
        starts.take(i, t.starts(), window, ReadContext.TYPICAL_PERCENTILE, scratch);
      }
      demotedByNameNodeOrder[i] = t.busy(now) || ctx.recentlyOvertaken(t.node());
    }
    ctx.packetOrder.demoteSlow(packets.samples, packets.nanos, demotedByNameNodeOrder);
    ctx.startOrder.demoteSlow(starts.samples, starts.nanos, demotedByNameNodeOrder);
    ctx.tailOrder.demoteSlow(packetTails.samples, packetTails.nanos, demotedByNameNodeOrder);
    boolean[] slowByNameNodeOrder = demotedByNameNodeOrder.clone();
    boolean[] loadedByNameNodeOrder = reportedLoad(ctx, located);
    for (int i = 0; i < n; i++) {
      demotedByNameNodeOrder[i] |= loadedByNameNodeOrder[i];
    }
    int[] rank = new int[n];
    for (int i = 0; i < n; i++) {
      rank[i] = byNameNodeTrackers[i].busy(now) ? ReplicaOrder.BUSY
          : slowByNameNodeOrder[i] ? ReplicaOrder.DEMOTED
          : loadedByNameNodeOrder[i] ? ReplicaOrder.LOADED : ReplicaOrder.FIRST;
    }
    int[] order = ReplicaOrder.order(rank);
    DatanodeInfo[] replicas = new DatanodeInfo[n];
    NodeTracker[] trackers = new NodeTracker[n];
    boolean[] demoted = new boolean[n];
    boolean[] slow = new boolean[n];
    boolean[] loaded = new boolean[n];
    long[] known = new long[n];
    for (int i = 0; i < n; i++) {
      int k = order[i];
      replicas[i] = byNameNode[k];
      trackers[i] = byNameNodeTrackers[k];
      demoted[i] = demotedByNameNodeOrder[k];
      slow[i] = slowByNameNodeOrder[k];
      loaded[i] = loadedByNameNodeOrder[k];
      // What a hedge there would likely take: its packets' tail and its typical start.
      known[i] = Math.max(packetTails.known(k, ctx.tailOrder), starts.known(k, ctx.startOrder));
    }
    return new ReplicaPlan(located, replicas, trackers, demoted, slow, loaded, known,
        ctx.packets(), overtakes);
  }

  /**
   * Which replicas the NameNode reports loaded, from the transfer counts and heartbeat times
   * its block locations carry (all false when the rule is off).
   */
  private static boolean[] reportedLoad(ReadContext ctx, LocatedBlock located) {
    DatanodeInfo[] byNameNode = located.getLocations();
    int n = byNameNode.length;
    boolean[] loaded = new boolean[n];
    if (ctx.reportedLoad == null || n < 2) {
      return loaded;
    }
    int[] transfers = new int[n];
    long[] reportedAt = new long[n];
    boolean[] onThisHost = new boolean[n];
    for (int i = 0; i < n; i++) {
      transfers[i] = byNameNode[i].getXceiverCount();
      reportedAt[i] = byNameNode[i].getLastUpdate();
      onThisHost[i] = ctx.distances.onThisHost(byNameNode[i]);
    }
    if (ctx.reportedLoad.markLoaded(transfers, reportedAt, onThisHost,
        System.currentTimeMillis(), loaded) > 0 && LOG.isDebugEnabled()) {
      LOG.debug("Replicas reported loaded block={} datanodes={} transfers={} loaded={}",
          located.getBlock(), Arrays.toString(byNameNode), Arrays.toString(transfers),
          Arrays.toString(loaded));
    }
    return loaded;
  }

  /** One measure of each replica: its recent samples and their percentile. */
  private static final class Measure {
    final int[] samples;
    final long[] nanos;

    Measure(int n) {
      samples = new int[n];
      nanos = new long[n];
    }

    void take(int i, LatencyWindow w, int window, double percentile, long[] scratch) {
      samples[i] = w.available(window);
      nanos[i] = w.stats(window, percentile, scratch).percentileNanos();
    }

    /** Replica {@code i}'s percentile if {@code order} judges it, else 0: unknown. */
    long known(int i, ReplicaOrder order) {
      return order.judged(samples[i]) ? nanos[i] : 0;
    }
  }

  /**
   * Whether a read of {@code current} should leave it for this plan's order: if the JVM knows
   * it slow (by its own measurements, busy included) while another replica not known slow and not
   * failed is left, loaded or not (a heartbeat's count is a proxy, the packets are measured).
   * Returns which of this plan's replicas failed the read so far (by the read's {@code replicas}
   * and their {@code failed} flags), or null to stay.
   */
  boolean[] failedIfLeaving(String current, DatanodeInfo[] readReplicas, boolean[] readFailed) {
    boolean[] stillFailed = new boolean[replicas.length];
    int at = -1;
    boolean better = false;
    for (int i = 0; i < replicas.length; i++) {
      String addr = replicas[i].getXferAddr();
      for (int k = 0; k < readReplicas.length; k++) {
        stillFailed[i] |= readFailed[k] && readReplicas[k].getXferAddr().equals(addr);
      }
      if (addr.equals(current)) {
        at = i;
      } else {
        better |= !slow[i] && !stillFailed[i];
      }
    }
    return at >= 0 && slow[at] && better ? stillFailed : null;
  }

  /**
   * Whether the client has read few enough packets since this was made to use it again, and no
   * hedge has overtaken a read of it since.
   */
  boolean fresh(ReadContext ctx) {
    return ctx.packets() - madeAtPacket < ctx.config.thresholdRefreshPackets()
        && ctx.overtakes() == madeAtOvertakes;
  }

  /**
   * Tells {@code observer} the replicas in order, and which are busy at {@code nowNanos} or
   * demoted.
   */
  void tell(BlockObserver observer, long nowNanos) {
    List<String> order = new ArrayList<>(replicas.length);
    for (int i = 0; i < replicas.length; i++) {
      order.add(replicas[i].getXferAddr());
      if (trackers[i].busy(nowNanos)) {
        observer.busy(replicas[i].getXferAddr());
      }
      if (demoted[i]) {
        observer.demoted(replicas[i].getXferAddr());
      }
    }
    observer.dataNodes(order);
  }
}
