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
 * threshold, its packet count, and the DataNodes a packet is compared with. The pooling and
 * refreshing glue mirrors {@code ReadContext}, which holds Hadoop types and threads and so cannot
 * be driven here; the rules themselves are the client's classes.
 */
final class Knowledge {
  /** As the client's {@code ReadContext.MAX_COMPARED_NODES}. */
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
  private final long[] scratch;
  private final long[] window;
  long packets;
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
    this.avoided = jvm.avoided;
    this.avoidedUntil = jvm.avoidedUntil;
  }

  NodeTracker tracker(DataNode dn) {
    return registry.tracker(dn.nodeId);
  }

  /** Notes that this JVM reads from {@code t}: its packets are what others are compared with. */
  void readFrom(NodeTracker t) {
    for (int i = 0; i < comparedCount; i++) {
      if (compared[i] == t) {
        return;
      }
    }
    compared[comparedNext] = t;
    comparedNext = (comparedNext + 1) % MAX_COMPARED;
    comparedCount = Math.min(MAX_COMPARED, comparedCount + 1);
  }

  /**
   * The hedge threshold of a packet from {@code dn}, refreshed every few packets as the client's;
   * {@code reportedLoaded} where the NameNode reports {@code dn} loaded beside another replica.
   */
  long thresholdNanos(DataNode dn, NodeTracker self, boolean reportedLoaded) {
    // {threshold, threshold if reported loaded, the packet count they were computed at}
    long[] t = thresholds.computeIfAbsent(dn.id, k -> new long[] {0, 0, Long.MIN_VALUE / 2});
    if (packets - t[2] >= policy.refreshPackets()) {
      int n = 0;
      for (int i = 0; i < comparedCount; i++) {
        if (compared[i] != self) {
          n += compared[i].reads().copyLast(policy.readWindow(), scratch, n);
        }
      }
      long p = LatencyStats.percentile(scratch, n, policy.percentile());
      t[0] = hedging.thresholdNanos(n, p, false);
      t[1] = hedging.thresholdNanos(n, p, true);
      t[2] = packets;
    }
    return reportedLoaded ? t[1] : t[0];
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
