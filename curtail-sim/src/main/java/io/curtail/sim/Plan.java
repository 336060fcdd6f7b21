package io.curtail.sim;

import io.curtail.client.policy.ReplicaOrder;
import io.curtail.client.track.LatencyWindow;
import io.curtail.client.track.NodeTracker;

/**
 * A block's replicas in the order a read takes them, as the client's {@code read/ReplicaPlan}
 * makes it; mirrored by hand, as the client's holds Hadoop types (keep the two alike). Curtail's
 * ranks each replica with the client's {@link ReplicaOrder}: {@code DEMOTED} where the JVM knows
 * it slow (the median of its packets or of its starts, or the tail of its packets, slower than the
 * fastest judged replica's) or a hedge overtook a read from it within the backoff's packets (this
 * client's knowledge, {@link Knowledge#recentlyOvertaken}); {@code LOADED} where the NameNode
 * reports it loaded beside the block's typical replica ({@code ReportedLoad}) and the JVM does
 * not know it slow; {@code FIRST} otherwise. Busy flags are not modelled. Within a rank the
 * NameNode's order stands. Immutable; a stream reuses it while {@link #fresh}.
 */
final class Plan {
  final DataNode[] replicas;
  /** Curtail's trackers of each replica's DataNode; null in other modes. */
  final NodeTracker[] trackers;
  /** Known slow by the JVM's measurements or this client's overtaken reads. */
  final boolean[] slow;
  /** Reported loaded by the NameNode, beside the block's typical replica. */
  final boolean[] loaded;
  /** What a hedge to each would likely take (its packets' tail or typical start), 0 if unknown. */
  final long[] known;
  /** The client's packet count when it was made. */
  final long madeAtPacket;
  /** How many reads a hedge had overtaken for the client when it was made. */
  final long madeAtOvertakes;

  private Plan(DataNode[] replicas, NodeTracker[] trackers, boolean[] slow, boolean[] loaded,
      long[] known, long madeAtPacket, long madeAtOvertakes) {
    this.replicas = replicas;
    this.trackers = trackers;
    this.slow = slow;
    this.loaded = loaded;
    this.known = known;
    this.madeAtPacket = madeAtPacket;
    this.madeAtOvertakes = madeAtOvertakes;
  }

  /** A plan of a mode that judges nothing: {@code replicas} in the order given. */
  static Plan fixed(DataNode[] replicas) {
    int n = replicas.length;
    return new Plan(replicas, null, new boolean[n], new boolean[n], new long[n], 0, 0);
  }

  /** Curtail's plan for the replicas of {@code byNameNode}, from what {@code k} knows now. */
  static Plan of(Cluster cluster, Knowledge k, int[] byNameNode, long now) {
    long overtakes = k.overtakes; // before what it reflects, as the client's
    Policy p = k.policy;
    int n = byNameNode.length;
    int window = p.readWindow();
    NodeTracker[] byNn = new NodeTracker[n];
    int[][] samples = new int[3][n]; // packets' median, packets' tail, starts' median
    long[][] nanos = new long[3][n];
    boolean[] slowByNn = new boolean[n];
    long[] scratch = k.planScratch();
    for (int i = 0; i < n; i++) {
      DataNode dn = cluster.nodes[byNameNode[i]];
      NodeTracker t = k.tracker(dn);
      byNn[i] = t;
      // Knowledge older than the JVM's memory is no knowledge, as the client's.
      if (now - t.lastStartNanos() <= p.knowledgeMemoryNanos()) {
        take(t.reads(), window, Policy.TYPICAL, scratch, samples[0], nanos[0], i);
        take(t.reads(), window, p.percentile(), scratch, samples[1], nanos[1], i);
        take(t.starts(), window, Policy.TYPICAL, scratch, samples[2], nanos[2], i);
      }
      slowByNn[i] = k.recentlyOvertaken(dn);
    }
    k.packetOrder.demoteSlow(samples[0], nanos[0], slowByNn);
    k.startOrder.demoteSlow(samples[2], nanos[2], slowByNn);
    k.tailOrder.demoteSlow(samples[1], nanos[1], slowByNn);
    boolean[] loadedByNn = reportedLoad(cluster, k, byNameNode);
    int[] rank = new int[n];
    for (int i = 0; i < n; i++) {
      rank[i] = slowByNn[i] ? ReplicaOrder.DEMOTED
          : loadedByNn[i] ? ReplicaOrder.LOADED : ReplicaOrder.FIRST;
    }
    int[] order = ReplicaOrder.order(rank);
    DataNode[] replicas = new DataNode[n];
    NodeTracker[] trackers = new NodeTracker[n];
    boolean[] slow = new boolean[n];
    boolean[] loaded = new boolean[n];
    long[] known = new long[n];
    for (int i = 0; i < n; i++) {
      int j = order[i];
      replicas[i] = cluster.nodes[byNameNode[j]];
      trackers[i] = byNn[j];
      slow[i] = slowByNn[j];
      loaded[i] = loadedByNn[j];
      long tail = k.tailOrder.judged(samples[1][j]) ? nanos[1][j] : 0;
      long start = k.startOrder.judged(samples[2][j]) ? nanos[2][j] : 0;
      known[i] = Math.max(tail, start);
    }
    return new Plan(replicas, trackers, slow, loaded, known, k.packets, overtakes);
  }

  private static void take(LatencyWindow w, int window, double percentile, long[] scratch,
      int[] samples, long[] nanos, int i) {
    samples[i] = w.available(window);
    nanos[i] = w.stats(window, percentile, scratch).percentileNanos();
  }

  /**
   * Which replicas the NameNode reports loaded, as the client's {@code ReplicaPlan} asks
   * {@code ReportedLoad}: the transfers each DataNode serves, here its count now (the one
   * stock-best's considerLoad order reads; a real NameNode's is up to a heartbeat old), every
   * report fresh and none on the client's host (on the benchmark's one host, every replica is on
   * it, and the rule then compares them all alike).
   */
  static boolean[] reportedLoad(Cluster cluster, Knowledge k, int[] byNameNode) {
    int n = byNameNode.length;
    boolean[] marked = new boolean[n];
    if (k.reportedLoad == null || n < 2) {
      return marked;
    }
    int[] transfers = new int[n];
    long[] reportedAt = new long[n];
    for (int i = 0; i < n; i++) {
      transfers[i] = cluster.nodes[byNameNode[i]].active;
      reportedAt[i] = 1;
    }
    k.reportedLoad.markLoaded(transfers, reportedAt, new boolean[n], 1, marked);
    return marked;
  }

  /**
   * Whether the client has read fewer than {@code curtail.read.hedging.threshold.refresh.packets}
   * packets since this was made and no hedge has overtaken a read of its since.
   */
  boolean fresh(Knowledge k) {
    return k.packets - madeAtPacket < k.policy.refreshPackets()
        && k.overtakes == madeAtOvertakes;
  }

  /** Where {@code dn} is in this order; -1 if it is not a replica. */
  int indexOf(DataNode dn) {
    for (int i = 0; i < replicas.length; i++) {
      if (replicas[i] == dn) {
        return i;
      }
    }
    return -1;
  }
}
