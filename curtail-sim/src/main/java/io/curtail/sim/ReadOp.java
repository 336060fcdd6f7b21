package io.curtail.sim;

import io.curtail.client.policy.HedgeBackoff;
import io.curtail.client.policy.Hedging;
import io.curtail.client.track.NodeTracker;
import java.util.ArrayList;
import java.util.List;

/**
 * One read of a block by one stream: {@code ranges} ranges one after another (one for a
 * sequential read, several positional reads for the benchmark's pread files), each packet by
 * packet from a chain of requests to one replica at a time, and for a hedge a second chain.
 *
 * <p>Curtail's reads decide as the client's {@code BlockRead} does, with the client's classes:
 * the replica order of the stream's {@link Plan} (made again once stale, as {@code FileBlocks}
 * keeps it), a hedge for a packet that overran its DataNode's threshold ({@link Hedging}, the
 * budget, the backoff; never to a DataNode a hedge overtook lately) looked at again on every
 * watchdog tick while the threshold is cold or no hedge could start, the rest of the range moved
 * to the hedge that won (and the overtaken DataNode read last for a while), or away from a
 * replica once the JVM knows it slow: every 4 packets on the stream's plan, after a slow packet
 * on a plan made afresh. Mirrored by hand
 * where the client's holds Hadoop types; keep the two alike. Stock-best's hedge is Hadoop's: the
 * whole range again from the next replica after a static threshold, the first to finish winning.
 */
final class ReadOp {
  private static final int ARRIVE = 0;
  private static final int HEDGE = 1;
  /** The packet reached the client's host, whose cores it waits for (a shared host only). */
  private static final int CLIENT = 2;
  /** As the client's {@code BlockRead.LOOK_EVERY_PACKETS}. */
  static final int LOOK_EVERY = 4;

  private final Simulation sim;
  private final SimClient client;
  private final Metrics.Op kind;
  private final boolean curtail;
  /** The block's replicas in the NameNode's order, indices into the cluster. */
  private final int[] byNameNode;
  private final int ranges;
  private final int packets;
  private final long lastPacketBytes;
  private final long start;
  /** The stream's plan, reused while fresh (Curtail's); the fixed order in other modes. */
  private Plan streamPlan;
  /** The plan the range in progress follows. */
  private Plan plan;
  private int range;
  private Chain primary;
  private Chain hedge;
  private boolean done;

  /**
   * @param replicasByNameNode the block's replicas in the NameNode's order for this reader
   * @param rangeBytes bytes of each range (a whole file for a sequential read)
   * @param ranges ranges read one after another by the same stream
   */
  ReadOp(Simulation sim, SimClient client, Metrics.Op kind, int[] replicasByNameNode,
      long rangeBytes, int ranges) {
    if (ranges < 1 || rangeBytes < 1) {
      throw new IllegalArgumentException("a read needs ranges >= 1 of bytes >= 1; got " + ranges
          + " of " + rangeBytes);
    }
    this.sim = sim;
    this.client = client;
    this.kind = kind;
    this.curtail = sim.mode == Mode.CURTAIL;
    this.start = sim.q.nanoTime();
    this.byNameNode = replicasByNameNode;
    this.ranges = ranges;
    long pb = Simulation.PACKET_BYTES;
    this.packets = (int) Math.max(1, (rangeBytes + pb - 1) / pb);
    this.lastPacketBytes = rangeBytes - (packets - 1) * pb;
    if (!curtail) {
      streamPlan = Plan.fixed(order(replicasByNameNode));
    }
  }

  void begin() {
    startRange(start);
  }

  /** A range begins, as a new {@code BlockRead}: on the stream's plan, from its first replica. */
  private void startRange(long now) {
    plan = source(now);
    primary = new Chain(0, 0, false);
    if (curtail) {
      client.knowledge.readFrom(primary.tracker);
    }
    primary.issue(now);
    if (sim.mode == Mode.STOCK_BEST && kind == Metrics.Op.PREAD && byNameNode.length > 1) {
      sim.q.after(sim.policy.stockHedgeThresholdNanos(), primary, (primary.gen << 2) | HEDGE);
    }
  }

  /** The stream's plan: the last one made, while fresh (the client's {@code FileBlocks.plan}). */
  private Plan source(long now) {
    if (curtail && (streamPlan == null || !streamPlan.fresh(client.knowledge))) {
      streamPlan = Plan.of(sim.cluster, client.knowledge, byNameNode, now);
    }
    return streamPlan;
  }

  /** The order replicas are tried in by the modes that do not judge them (not Curtail). */
  private DataNode[] order(int[] byNameNodeOrder) {
    int n = byNameNodeOrder.length;
    int[] out = byNameNodeOrder.clone();
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
    DataNode[] replicas = new DataNode[n];
    for (int i = 0; i < n; i++) {
      replicas[i] = sim.cluster.nodes[out[i]];
    }
    return replicas;
  }

  private long rank(int dn, long now) {
    DataNode d = sim.cluster.nodes[dn];
    return sim.mode == Mode.ORACLE ? (d.faulty(now) ? 1 : 0) : d.active;
  }

  private void rangeDone(long now) {
    primary.end();
    if (hedge != null) {
      hedge.end();
      hedge = null;
    }
    if (++range < ranges) {
      startRange(now);
      return;
    }
    done = true;
    sim.metrics.record(kind, client.index(), client.done(), start, now - start);
    client.opDone(now);
  }

  /**
   * The replicas of {@code plan} a hedge of a packet that overran {@code threshold} may not go
   * to, as the client's {@code BlockRead.startHedge} skips them: one known to take longer (a
   * hedge would only join its queue), or one a hedge overtook within the backoff's packets
   * (main's cd51084, after e7554a1). Busy flags, failures and hedges in flight are not modelled.
   */
  static boolean[] notHedgedTo(Plan plan, Knowledge k, long threshold) {
    boolean[] skip = new boolean[plan.replicas.length];
    for (int i = 0; i < skip.length; i++) {
      skip[i] = !Hedging.worthHedgingTo(plan.known[i], threshold)
          || k.recentlyOvertaken(plan.replicas[i]);
    }
    return skip;
  }

  /** Requests to one replica, one packet after another; an event for its arrivals and hedges. */
  private final class Chain implements EventQueue.Event {
    int replica;
    DataNode dn;
    NodeTracker tracker;
    int packet;
    final boolean wholeRange;
    int gen;
    long issued;
    /** When the packet in flight reaches the client, if known when it was asked for. */
    long arrivesAt;
    /** The packet in flight's hedge threshold when it was asked for (the client's race's). */
    long threshold;
    boolean started;
    boolean ended;
    /** When the look for a hedge of the packet in flight is due; -1 when none is. */
    long hedgeAt = -1;
    /** Whether the budget refused a hedge of the packet in flight: counted once. */
    boolean denied;
    /** Packets since the read took this replica up or last looked at it (the client's). */
    int sinceLook;
    boolean lastPacketSlow;

    Chain(int replica, int packet, boolean wholeRange) {
      this.packet = packet;
      this.wholeRange = wholeRange;
      take(replica);
    }

    private void take(int r) {
      replica = r;
      dn = plan.replicas[r];
      tracker = plan.trackers == null ? null : plan.trackers[r];
      dn.enter();
    }

    void end() {
      if (!ended) {
        ended = true;
        gen++;
        dn.leave();
      }
    }

    /** The read takes up replica {@code r} of the plan it now follows (the client's open). */
    void moveTo(int r) {
      dn.leave();
      take(r);
      started = false;
      gen++;
      sinceLook = 0;
      lastPacketSlow = false;
      client.knowledge.readFrom(tracker);
    }

    long bytes() {
      return packet == packets - 1 ? lastPacketBytes : Simulation.PACKET_BYTES;
    }

    void issue(long now) {
      Hardware hw = sim.hw;
      // The first request travels to the DataNode; later ones are streamed (read ahead).
      long left = dn.read(started ? now : now + hw.hopNanos(), bytes());
      long reaches = left + hw.hopNanos();
      issued = now;
      sim.packets++;
      boolean sharedHost = sim.cluster.host != null;
      long arrives = sharedHost ? reaches : sim.cluster.client(reaches, hw);
      arrivesAt = sharedHost ? Long.MAX_VALUE : arrives;
      sim.q.at(arrives, this, (gen << 2) | (sharedHost ? CLIENT : ARRIVE));
      if (curtail && this == primary && hedge == null) {
        threshold = client.knowledge.thresholdNanos(dn, tracker, plan.loaded[replica]);
        denied = false;
        lookAt(issued + threshold, now);
      }
    }

    /**
     * Schedules the next look for a hedge at {@code due}, or sooner on the watchdog's next tick
     * while the threshold is cold (it is computed again on every look); none where the packet is
     * known to arrive first.
     */
    private void lookAt(long due, long now) {
      if (client.knowledge.cold(dn)) {
        due = Math.min(due, now + sim.policy.checkNanos());
      }
      if (due >= arrivesAt) {
        return;
      }
      hedgeAt = Math.max(due, now);
      sim.q.at(hedgeAt, this, (gen << 2) | HEDGE);
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
      int n = plan.replicas.length;
      if (sim.mode == Mode.STOCK_BEST) {
        if (hedge == null) {
          sim.metrics.hedgesTried++;
          hedge = new Chain((replica + 1) % n, 0, true);
          hedge.issue(now);
        }
        return;
      }
      if (hedge != null || now != hedgeAt) {
        return; // the look of a packet that arrived before it (on a shared host)
      }
      hedgeAt = -1;
      // Overdue once past the deadline armed or the threshold as the client knows it now.
      long thresholdNow = k.thresholdNanos(dn, tracker, plan.loaded[replica]);
      if (now - issued < Math.min(threshold, thresholdNow)) {
        lookAt(issued + Math.min(threshold, thresholdNow), now);
        return;
      }
      List<HedgeBackoff> backoffs = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        backoffs.add(k.backoff(plan.replicas[i]));
      }
      int target = k.hedging.nextTarget(replica, backoffs, notHedgedTo(plan, k, threshold),
          k.packets);
      if (target >= 0 && !k.budget.tryHedge()) {
        if (!denied) {
          denied = true;
          sim.metrics.hedgesDenied++;
        }
        target = -1;
      }
      if (target < 0) { // the watchdog tries again on its next tick
        long next = now + sim.policy.checkNanos();
        if (next < arrivesAt) {
          hedgeAt = next;
          sim.q.at(next, this, (gen << 2) | HEDGE);
        }
        return;
      }
      sim.metrics.hedgesTried++;
      hedge = new Chain(target, packet, false);
      hedge.issue(now);
    }

    private void arrived(long now) {
      long latency = now - issued;
      hedgeAt = -1;
      if (this == hedge) {
        sim.metrics.hedgedBytes += bytes();
      } else {
        sim.metrics.bytesRead += bytes();
      }
      if (curtail) {
        Knowledge k = client.knowledge;
        k.packets++;
        k.budget.onRead();
        record(latency, now);
        if (this == hedge) { // the hedge won its race: the rest of the range is read from it
          primary.record(now - primary.issued, now);
          k.overtaken(primary.dn);
          k.backoff(dn, k.hedging.afterWin());
          sim.metrics.hedgesWon++;
          primary.end();
          primary = this;
          hedge = null;
          sinceLook = 0;
          lastPacketSlow = false;
          k.readFrom(tracker);
        } else {
          if (hedge != null) { // the primary won: the hedge lost
            k.backoff(hedge.dn, k.hedging.afterLoss(k.backoff(hedge.dn), k.packets));
            hedge.end();
            hedge = null;
          }
          lastPacketSlow = started && latency >= k.policy.readMinSlowdownNanos();
        }
      }
      started = true;
      packet++;
      if (packet == packets) {
        if (this == hedge) {
          sim.metrics.hedgesWon++; // stock-best's whole-range hedge finished first
        }
        rangeDone(now);
        return;
      }
      if (curtail && (++sinceLook >= LOOK_EVERY || lastPacketSlow)) {
        leaveIfKnownSlow(now);
      }
      issue(now);
    }

    /**
     * The client's {@code BlockRead.leaveIfKnownSlow}: on the stream's plan, or after a slow
     * packet on one made now, if the JVM knows this replica slow and another not, the rest of
     * the range goes to the first replica of that plan (loaded or not: the count is a proxy).
     */
    private void leaveIfKnownSlow(long now) {
      Plan fresh = lastPacketSlow ? Plan.of(sim.cluster, client.knowledge, byNameNode, now)
          : source(now);
      sinceLook = 0;
      lastPacketSlow = false;
      if (fresh == plan) {
        return; // nothing learnt since the read took it up
      }
      int at = fresh.indexOf(dn);
      boolean better = false;
      for (int i = 0; i < fresh.replicas.length; i++) {
        better |= i != at && !fresh.slow[i];
      }
      if (at < 0 || !fresh.slow[at] || !better) {
        return;
      }
      plan = fresh;
      sim.metrics.replicaSwitches++;
      moveTo(0);
    }

    /** A packet's time, or for the first packet from a replica its start. */
    private void record(long latency, long now) {
      if (!started) {
        tracker.recordStart(latency, now);
      } else {
        tracker.reads().record(latency);
      }
    }
  }
}
