package io.curtail.sim;

import io.curtail.client.policy.HedgeBackoff;
import io.curtail.client.policy.Hedging;
import io.curtail.client.policy.ReplicaOrder;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.track.NodeTracker;
import java.util.ArrayList;
import java.util.List;

/**
 * One read of a range of a block, packet by packet, from a chain of requests to one replica at a
 * time, and for a hedge a second chain. Curtail's reads decide as the client's {@code BlockRead}
 * does, with the client's classes: the replica order ({@link ReplicaOrder}), a hedge for a packet
 * that overran its DataNode's threshold ({@link Hedging}, the budget, the backoff), the rest of the
 * range moved to the hedge that won or away from a replica once it is known slow. Stock-best's
 * hedge is Hadoop's: the whole range again from the next replica after a static threshold, the
 * first to finish winning.
 */
final class ReadOp {
  private static final int ARRIVE = 0;
  private static final int HEDGE = 1;
  /** The packet reached the client's host, whose cores it waits for (a shared host only). */
  private static final int CLIENT = 2;
  /** As the client: a read looks at its replica's speed every this many packets. */
  private static final int LOOK_EVERY = 4;

  private final Simulation sim;
  private final SimClient client;
  private final Metrics.Op kind;
  private final DataNode[] replicas;
  private final NodeTracker[] trackers;
  private final long[] known;
  /** Whether the NameNode reports each replica loaded beside the block's least loaded. */
  private final boolean[] loaded;
  private final int packets;
  private final long lastPacketBytes;
  private final long start;
  private Chain primary;
  private Chain hedge;
  private boolean done;

  ReadOp(Simulation sim, SimClient client, Metrics.Op kind, int[] replicasByNameNode, long bytes) {
    this.sim = sim;
    this.client = client;
    this.kind = kind;
    this.start = sim.q.nanoTime();
    long pb = Simulation.PACKET_BYTES;
    this.packets = (int) Math.max(1, (bytes + pb - 1) / pb);
    this.lastPacketBytes = bytes - (packets - 1) * pb;
    int n = replicasByNameNode.length;
    this.replicas = new DataNode[n];
    this.trackers = new NodeTracker[n];
    this.known = new long[n];
    this.loaded = new boolean[n];
    int[] order = order(replicasByNameNode);
    for (int i = 0; i < n; i++) {
      replicas[i] = sim.cluster.nodes[order[i]];
    }
    if (sim.mode == Mode.CURTAIL) {
      plan(replicasByNameNode);
    }
  }

  void begin() {
    primary = new Chain(0, 0, false);
    primary.issue(start);
    if (sim.mode == Mode.STOCK_BEST && kind == Metrics.Op.PREAD && replicas.length > 1) {
      sim.q.after(sim.policy.stockHedgeThresholdNanos(), primary, (primary.gen << 2) | HEDGE);
    }
  }

  /** The order replicas are tried in, by mode; Curtail's is set again by {@link #plan}. */
  private int[] order(int[] byNameNode) {
    int n = byNameNode.length;
    int[] out = byNameNode.clone();
    if (sim.mode == Mode.STOCK_BEST || sim.mode == Mode.ORACLE) {
      long now = sim.q.nanoTime();
      for (int i = 1; i < n; i++) { // stable: the NameNode's order breaks ties
        int v = out[i];
        int j = i - 1;
        while (j >= 0 && rank(out[j], now) > rank(v, now)) {
          out[j + 1] = out[j];
          j--;
        }
        out[j + 1] = v;
      }
    }
    return out;
  }

  private long rank(int dn, long now) {
    DataNode d = sim.cluster.nodes[dn];
    return sim.mode == Mode.ORACLE ? (d.faulty(now) ? 1 : 0) : d.active;
  }

  /** Curtail's replica order and what a hedge to each would take, as the client's ReplicaPlan. */
  private void plan(int[] byNameNode) {
    Knowledge k = client.knowledge;
    Policy p = k.policy;
    int n = byNameNode.length;
    long now = sim.q.nanoTime();
    NodeTracker[] byNn = new NodeTracker[n];
    int[][] samples = new int[3][n];
    long[][] nanos = new long[3][n];
    boolean[] demoted = new boolean[n];
    for (int i = 0; i < n; i++) {
      NodeTracker t = k.tracker(sim.cluster.nodes[byNameNode[i]]);
      byNn[i] = t;
      if (now - t.lastStartNanos() <= p.knowledgeMemoryNanos()) {
        take(k, t.reads().stats(p.readWindow(), Policy.TYPICAL, new long[p.readWindow()]), samples[0], nanos[0], i);
        take(k, t.reads().stats(p.readWindow(), p.percentile(), new long[p.readWindow()]), samples[1], nanos[1], i);
        take(k, t.starts().stats(p.readWindow(), Policy.TYPICAL, new long[p.readWindow()]), samples[2], nanos[2], i);
      }
    }
    k.packetOrder.demoteSlow(samples[0], nanos[0], demoted);
    k.tailOrder.demoteSlow(samples[1], nanos[1], demoted);
    k.startOrder.demoteSlow(samples[2], nanos[2], demoted);
    boolean[] loadedByNn = reportedLoad(k, byNameNode);
    for (int i = 0; i < n; i++) {
      demoted[i] |= loadedByNn[i];
    }
    int[] order = ReplicaOrder.order(demoted);
    for (int i = 0; i < n; i++) {
      int j = order[i];
      replicas[i] = sim.cluster.nodes[byNameNode[j]];
      trackers[i] = byNn[j];
      loaded[i] = loadedByNn[j];
      long tail = k.tailOrder.judged(samples[1][j]) ? nanos[1][j] : 0;
      long st = k.startOrder.judged(samples[2][j]) ? nanos[2][j] : 0;
      known[i] = Math.max(tail, st);
    }
  }

  /**
   * Which replicas the NameNode reports loaded, as the client's {@code ReplicaPlan} asks
   * {@code ReportedLoad}: the transfers each DataNode serves, here its count now (the one that
   * stock-best's considerLoad order reads; a real NameNode's is up to a heartbeat old), none on
   * the client's host and every report fresh.
   */
  private boolean[] reportedLoad(Knowledge k, int[] byNameNode) {
    int n = byNameNode.length;
    boolean[] marked = new boolean[n];
    if (k.reportedLoad == null || n < 2) {
      return marked;
    }
    int[] transfers = new int[n];
    long[] reportedAt = new long[n];
    for (int i = 0; i < n; i++) {
      transfers[i] = sim.cluster.nodes[byNameNode[i]].active;
      reportedAt[i] = 1;
    }
    k.reportedLoad.markLoaded(transfers, reportedAt, new boolean[n], 1, marked);
    return marked;
  }

  private static void take(Knowledge k, LatencyStats s, int[] samples, long[] nanos, int i) {
    samples[i] = s.samples();
    nanos[i] = s.percentileNanos();
  }

  /** Whether the replica being read is now known slow beside another: the client leaves it. */
  private int betterReplica(int current) {
    Knowledge k = client.knowledge;
    Policy p = k.policy;
    int n = replicas.length;
    int[] samples = new int[n];
    long[] nanos = new long[n];
    boolean[] demoted = new boolean[n];
    long[] scratch = new long[p.readWindow()];
    for (int i = 0; i < n; i++) {
      LatencyStats s = trackers[i].reads().stats(p.readWindow(), Policy.TYPICAL, scratch);
      samples[i] = s.samples();
      nanos[i] = s.percentileNanos();
    }
    k.packetOrder.demoteSlow(samples, nanos, demoted);
    if (!demoted[current]) {
      return -1;
    }
    for (int i = 0; i < n; i++) {
      if (!demoted[i] && i != current) {
        return i;
      }
    }
    return -1;
  }

  private void finish(long now) {
    done = true;
    if (primary != null) {
      primary.end();
    }
    if (hedge != null) {
      hedge.end();
    }
    sim.metrics.record(kind, start, now - start);
    client.opDone(now);
  }

  /** Requests to one replica, one packet after another; an event for its arrivals and hedges. */
  private final class Chain implements EventQueue.Event {
    int replica;
    int packet;
    final boolean wholeRange;
    int gen;
    long issued;
    long lastLeft = Long.MIN_VALUE;
    boolean started;
    boolean ended;
    /** When the look for a hedge of the packet in flight is due; -1 when none is. */
    long hedgeAt = -1;

    Chain(int replica, int packet, boolean wholeRange) {
      this.replica = replica;
      this.packet = packet;
      this.wholeRange = wholeRange;
      replicas[replica].enter();
    }

    void end() {
      if (!ended) {
        ended = true;
        gen++;
        replicas[replica].leave();
      }
    }

    void moveTo(int r) {
      replicas[replica].leave();
      replicas[r].enter();
      replica = r;
      started = false;
      lastLeft = Long.MIN_VALUE;
      gen++;
    }

    long bytes() {
      return packet == packets - 1 ? lastPacketBytes : Simulation.PACKET_BYTES;
    }

    void issue(long now) {
      Hardware hw = sim.hw;
      DataNode dn = replicas[replica];
      // The first request travels to the DataNode; later ones are streamed (read ahead).
      long left = dn.read(started ? now : now + hw.hopNanos(), bytes());
      long reaches = left + hw.hopNanos();
      issued = now;
      sim.packets++;
      boolean sharedHost = sim.cluster.host != null;
      long arrives = sharedHost ? reaches : sim.cluster.client(reaches, hw);
      sim.q.at(arrives, this, (gen << 2) | (sharedHost ? CLIENT : ARRIVE));
      if (sim.mode == Mode.CURTAIL && this == primary && hedge == null) {
        long threshold = client.knowledge.thresholdNanos(dn, trackers[replica], loaded[replica]);
        // Where the packet's arrival is known now, a packet in time needs no look.
        if (sharedHost || arrives - now > threshold) {
          hedgeAt = now + threshold;
          sim.q.at(hedgeAt, this, (gen << 2) | HEDGE);
        }
      }
    }

    @Override
    public void fire(long now, int tag) {
      if (done || ended || (tag >>> 2) != gen) {
        return; // a cancelled chain's, or a moved chain's, stale event
      }
      switch (tag & 3) {
        case HEDGE -> startHedge(now);
        case CLIENT -> sim.q.at(sim.cluster.client(now, sim.hw), this, (gen << 2) | ARRIVE);
        default -> arrived(now);
      }
    }

    private void startHedge(long now) {
      Knowledge k = client.knowledge;
      int n = replicas.length;
      if (sim.mode != Mode.STOCK_BEST && (hedge != null || now != hedgeAt)) {
        return; // the look of a packet that arrived before it (on a shared host)
      }
      if (sim.mode == Mode.STOCK_BEST) {
        sim.metrics.hedgesTried++;
        hedge = new Chain((replica + 1) % n, 0, true);
        hedge.issue(now);
        return;
      }
      long threshold = k.thresholdNanos(replicas[replica], trackers[replica], loaded[replica]);
      List<HedgeBackoff> backoffs = new ArrayList<>(n);
      boolean[] skip = new boolean[n];
      for (int i = 0; i < n; i++) {
        backoffs.add(k.backoff(replicas[i]));
        skip[i] = !Hedging.worthHedgingTo(known[i], threshold);
      }
      int target = k.hedging.nextTarget(replica, backoffs, skip, k.packets);
      if (target < 0) {
        return;
      }
      if (!k.budget.tryHedge()) {
        sim.metrics.hedgesDenied++;
        return;
      }
      sim.metrics.hedgesTried++;
      hedge = new Chain(target, packet, false);
      hedge.issue(now);
    }

    private void arrived(long now) {
      long latency = now - issued;
      hedgeAt = -1;
      Knowledge k = client.knowledge;
      boolean curtail = sim.mode == Mode.CURTAIL;
      if (this == hedge) {
        sim.metrics.hedgedBytes += bytes();
      } else {
        sim.metrics.bytesRead += bytes();
      }
      if (curtail) {
        k.packets++;
        k.budget.onRead();
        k.readFrom(trackers[replica]);
        record(trackers[replica], latency, now);
        if (this == hedge) { // the hedge won its race: the rest of the range is read from it
          record(trackers[primary.replica], now - primary.issued, now);
          k.backoff(replicas[replica], k.hedging.afterWin());
          sim.metrics.hedgesWon++;
          primary.end();
          primary = this;
          hedge = null;
        } else if (hedge != null) { // the primary won: the hedge lost
          DataNode h = replicas[hedge.replica];
          k.backoff(h, k.hedging.afterLoss(k.backoff(h), k.packets));
          hedge.end();
          hedge = null;
        }
      }
      started = true;
      packet++;
      if (packet == packets) {
        if (this == hedge) {
          sim.metrics.hedgesWon++;
        }
        finish(now);
        return;
      }
      if (curtail && (packet % LOOK_EVERY == 0 || latency >= k.policy.readMinSlowdownNanos())) {
        int better = betterReplica(replica);
        if (better >= 0) {
          sim.metrics.replicaSwitches++;
          moveTo(better);
        }
      }
      issue(now);
    }

    private void record(NodeTracker t, long latency, long now) {
      if (t == trackers[replica] && !started) {
        t.recordStart(latency, now);
      } else {
        t.reads().record(latency);
      }
    }
  }
}
