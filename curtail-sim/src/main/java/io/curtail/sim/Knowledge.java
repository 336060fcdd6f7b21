package io.curtail.sim;

import io.curtail.client.policy.HedgeBackoff;
import io.curtail.client.policy.HedgeBudget;
import io.curtail.client.policy.Hedging;
import io.curtail.client.policy.ReplicaOrder;
import io.curtail.client.policy.ReportedLoad;
import io.curtail.client.track.LatencyRegistry;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.track.NodeTracker;
import java.util.HashMap;
import java.util.Map;

/**
 * What a client knows. Shared by the clients of one JVM, as the client's runtime shares them:
 * the client's own {@link LatencyRegistry} (bounded by {@code curtail.knowledge.max.nodes}) on
 * the simulated clock, the {@link HedgeBudget} and the DataNodes fail-fast avoids. Each client's
 * own, as each file system's {@code ReadContext}: each DataNode's {@link HedgeBackoff} and hedge
 * threshold, its packet count, the DataNodes a packet is compared with, and the reads a hedge
 * overtook. The pooling and refreshing glue mirrors {@code ReadContext}, which holds Hadoop types
 * and threads and so cannot be driven here (keep the two alike); the rules themselves are the
 * client's classes.
 */
final class Knowledge {
  /** As the client's {@code HedgeThresholds.MAX_COMPARED_NODES}. */
  static final int MAX_COMPARED = 32;

  final LatencyRegistry registry;
  final HedgeBudget budget;
  final Hedging hedging;
  final ReplicaOrder packetOrder;
  final ReplicaOrder startOrder;
  final ReplicaOrder tailOrder;
  /** The NameNode-load rule; null where it is off. */
  final ReportedLoad reportedLoad;
  final Policy policy;
  private final NodeTracker[] compared = new NodeTracker[MAX_COMPARED];
  private int comparedCount;
  private int comparedNext;
  private final Map<Integer, long[]> thresholds = new HashMap<>();
  private final Map<Integer, HedgeBackoff> backoffs = new HashMap<>();
  /** This client's packet count when a hedge last overtook a read from each DataNode. */
  private final Map<Integer, Long> overtakenAt = new HashMap<>();
  private final long[] scratch;
  private final long[] window;
  private final long[] planScratch;
  long packets;
  /** Reads a hedge overtook: a plan made before the last one is stale. */
  long overtakes;
  /**
   * DataNodes fail-fast replaced, avoided for new blocks and spares until their memory runs
   * out, the most recent {@code curtail.knowledge.max.avoided} (3) of them, JVM-wide as the
   * client's {@code AvoidedNodes}.
   */
  private final int[] avoided;
  private final long[] avoidedUntil;

  Knowledge(EventQueue clock, Policy p) {
    this.policy = p;
    this.registry = new LatencyRegistry(clock, p.knowledgeMaxNodes(), 900_000 * Policy.MS,
        30_000 * Policy.MS);
    this.budget = p.budget();
    this.hedging = p.hedging();
    this.packetOrder = p.packetOrder();
    this.startOrder = p.startOrder();
    this.tailOrder = p.tailOrder();
    this.reportedLoad = p.reportedLoad();
    this.scratch = new long[MAX_COMPARED * p.readWindow()];
    this.window = new long[Math.max(p.readWindow(), p.writeWindow())];
    this.planScratch = new long[p.readWindow()];
    this.avoided = new int[] {-1, -1, -1};
    this.avoidedUntil = new long[3];
  }

  /** Another client of {@code jvm}'s JVM: its registry, budget and avoided DataNodes shared. */
  Knowledge(Knowledge jvm) {
    this.policy = jvm.policy;
    this.registry = jvm.registry;
    this.budget = jvm.budget;
    this.hedging = jvm.hedging;
    this.packetOrder = jvm.packetOrder;
    this.startOrder = jvm.startOrder;
    this.tailOrder = jvm.tailOrder;
    this.reportedLoad = jvm.reportedLoad;
    this.scratch = jvm.scratch; // the simulation is single-threaded
    this.window = jvm.window;
    this.planScratch = jvm.planScratch;
    this.avoided = jvm.avoided;
    this.avoidedUntil = jvm.avoidedUntil;
  }

  NodeTracker tracker(DataNode dn) {
    return registry.tracker(dn.nodeId);
  }

  /**
   * Notes that this client reads from {@code t}'s DataNode (it took it up for a read), so that
   * packets from others are compared with its packets: the first {@value #MAX_COMPARED} DataNodes
   * met, as the client's {@code ReadContext.readsFrom}; a DataNode met again with a new tracker
   * (its old one forgotten by the registry) takes its place.
   */
  void readFrom(NodeTracker t) {
    for (int i = 0; i < comparedCount; i++) {
      if (compared[i] == t) {
        return;
      }
    }
    for (int i = 0; i < comparedCount; i++) {
      if (compared[i].node().equals(t.node())) {
        compared[i] = t;
        return;
      }
    }
    if (comparedCount < MAX_COMPARED) {
      compared[comparedCount++] = t;
    }
  }

  /**
   * The hedge threshold of a packet from {@code dn}, as the client's
   * {@code ReadContext.thresholdNanos}; {@code reportedLoaded} where the NameNode reports
   * {@code dn} loaded. Pooled over the other DataNodes this client reads from and remembered for
   * {@code refresh-packets} of its packets; while it has read too little from others to adapt
   * (fewer samples than a window), pooled over every DataNode the JVM knows instead and computed
   * again on every look ({@link #cold}).
   */
  long thresholdNanos(DataNode dn, NodeTracker self, boolean reportedLoaded) {
    // {threshold, threshold if reported loaded, the packet count they were computed at, cold}
    long[] t = thresholds.computeIfAbsent(dn.id, k -> new long[] {0, 0, Long.MIN_VALUE / 2, 1});
    if (t[3] != 0 || packets - t[2] >= policy.refreshPackets()) {
      int n = poolOthers(self);
      if (n < policy.readWindow()) {
        n = poolKnown(self);
      }
      long p = LatencyStats.percentile(scratch, n, policy.percentile());
      t[0] = hedging.thresholdNanos(n, p, false);
      t[1] = hedging.thresholdNanos(n, p, true);
      t[2] = packets;
      t[3] = n < policy.readWindow() ? 1 : 0;
    }
    return reportedLoaded ? t[1] : t[0];
  }

  /** Whether {@code dn}'s threshold was last computed from too few samples to adapt. */
  boolean cold(DataNode dn) {
    long[] t = thresholds.get(dn.id);
    return t == null || t[3] != 0;
  }

  /** The latencies of the DataNodes this client reads from, other than {@code self}, pooled. */
  private int poolOthers(NodeTracker self) {
    int n = 0;
    int w = policy.readWindow();
    for (int i = 0; i < comparedCount; i++) {
      if (compared[i] != self && n + w <= scratch.length) {
        n += compared[i].reads().copyLast(w, scratch, n);
      }
    }
    return n;
  }

  /**
   * The same over the DataNodes the JVM knows, as many as the scratch holds, in the registry's
   * order: the client's {@code ReadContext.poolKnown}, for a client that has read from too few.
   */
  private int poolKnown(NodeTracker self) {
    int n = 0;
    int w = policy.readWindow();
    for (NodeTracker t : registry.trackers()) {
      if (t.node().equals(self.node())) {
        continue;
      }
      if (n + w > scratch.length) {
        break;
      }
      n += t.reads().copyLast(w, scratch, n);
    }
    return n;
  }

  /**
   * A hedge overtook a read from {@code dn}: this client reads it last for the next
   * {@code curtail.read.hedging.backoff.packets} packets and its plans made before are stale, as
   * the client's {@code ReadContext.overtaken}.
   */
  void overtaken(DataNode dn) {
    overtakenAt.put(dn.id, packets);
    overtakes++;
  }

  /** Whether a hedge overtook a read from {@code dn} within the backoff's packets. */
  boolean recentlyOvertaken(DataNode dn) {
    Long at = overtakenAt.get(dn.id);
    return at != null && packets - at < policy.backoffPackets();
  }

  /** A window's scratch for making plans (the simulation is single-threaded). */
  long[] planScratch() {
    return planScratch;
  }

  HedgeBackoff backoff(DataNode dn) {
    return backoffs.getOrDefault(dn.id, HedgeBackoff.NONE);
  }

  void backoff(DataNode dn, HedgeBackoff b) {
    if (b.equals(HedgeBackoff.NONE)) {
      backoffs.remove(dn.id);
    } else {
      backoffs.put(dn.id, b);
    }
  }

  /** Statistics of a window of {@code t}'s reads or writes (the caller's choice). */
  LatencyStats stats(io.curtail.client.track.LatencyWindow w, int size, double percentile) {
    return w.stats(size, percentile, window);
  }

  boolean avoided(int dn, long now) {
    for (int i = 0; i < avoided.length; i++) {
      if (avoided[i] == dn && now < avoidedUntil[i]) {
        return true;
      }
    }
    return false;
  }

  /** Remembers a DataNode fail-fast replaced; the oldest of the three is forgotten first. */
  void avoid(DataNode dn, long now) {
    int slot = 0;
    for (int i = 0; i < avoided.length; i++) {
      if (avoided[i] == dn.id) {
        slot = i;
        break;
      }
      if (avoidedUntil[i] < avoidedUntil[slot]) {
        slot = i;
      }
    }
    avoided[slot] = dn.id;
    avoidedUntil[slot] = now + policy.knowledgeMemoryNanos();
  }

  int knownNodes() {
    return registry.size();
  }
}
