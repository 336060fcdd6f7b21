package io.curtail.sim;

import io.curtail.client.policy.FailFastDecision;
import io.curtail.client.policy.WriteAttribution;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.track.NodeTracker;
import java.util.ArrayList;
import java.util.List;

/**
 * One block written through a 3-DataNode pipeline, ExtendedCP-style: packets sent as fast as the
 * window of unacknowledged packets allows. Each DataNode receives a packet, forwards it to the
 * next and writes it to its disk; it acknowledges once its write is done and the next DataNode's
 * acknowledgement is in, as Hadoop's do. The acknowledgement carries each DataNode's downstream
 * time, as Curtail's plugin reports it, and Curtail's client feeds it to the client's own
 * {@link WriteAttribution}, its samples to the trackers and the pipeline's statistics to the
 * client's {@code FailFast} after every acknowledgement; a replacement rebuilds the acknowledged
 * bytes from the chosen source on a spare DataNode before writing resumes.
 */
final class WriteOp implements EventQueue.Event {
  /**
   * Fail-fast judges a pipeline every this many acknowledgements, where the client judges on
   * every one: the percentiles of three windows of 100 are most of a simulated write's cost,
   * and a decision three packets later changes a 64-packet file's time by a few percent.
   */
  static final int JUDGE_EVERY = 4;
  /** Hadoop's {@code dfs.client.write.max-packets}. */
  static final int WINDOW = 80;

  private final Simulation sim;
  private final SimClient client;
  private final long start;
  private final int packets;
  private final long lastPacketBytes;
  private final long blockBytes;
  private final DataNode[] pipeline;
  private NodeTracker[] trackers;
  private WriteAttribution attribution;
  private final long[][] downstream = new long[WINDOW][];
  private final long[] sentAt = new long[WINDOW];
  private final long[] ackAt = new long[WINDOW];
  private final boolean[] ready = new boolean[WINDOW];
  /** The next packet whose acknowledgement is to be scheduled, and when the last one comes. */
  private int nextAck;
  private long lastAckAt;
  /** When each DataNode of the pipeline last received and wrote a packet of this stream. */
  private final long[] lastReceived;
  private final long[] lastWritten;
  private final long[] lastAckSent;
  /** Per DataNode: packets waiting in the connection for its receiver, a ring of slots. */
  private final int[][] waiting;
  private final int[] waitingHead;
  private final int[] waitingCount;
  private final boolean[] nextScheduled;
  private final long[][] received = new long[WINDOW][];
  private final long[][] written = new long[WINDOW][];
  private final long[] samples;
  private final List<LatencyStats> stats = new ArrayList<>(3);
  private int nextToSend;
  private int acked;
  private int gen;
  private int aborted;
  /** Until when the pipeline is being rebuilt: the client judges no pipeline under repair. */
  private long repairedAt;

  WriteOp(Simulation sim, SimClient client, int[] placed, long bytes, long blockBytes) {
    this.sim = sim;
    this.client = client;
    this.start = sim.q.nanoTime();
    long pb = Simulation.PACKET_BYTES;
    this.packets = (int) Math.max(1, (bytes + pb - 1) / pb);
    this.lastPacketBytes = bytes - (packets - 1) * pb;
    this.blockBytes = blockBytes;
    this.pipeline = new DataNode[placed.length];
    for (int i = 0; i < placed.length; i++) {
      pipeline[i] = sim.cluster.nodes[placed[i]];
      pipeline[i].enter();
    }
    this.samples = new long[placed.length];
    this.lastReceived = new long[placed.length];
    this.lastWritten = new long[placed.length];
    this.lastAckSent = new long[placed.length];
    this.waiting = new int[placed.length][WINDOW];
    this.waitingHead = new int[placed.length];
    this.waitingCount = new int[placed.length];
    this.nextScheduled = new boolean[placed.length];
    for (int i = 0; i < WINDOW; i++) {
      downstream[i] = new long[placed.length];
      received[i] = new long[placed.length];
      written[i] = new long[placed.length];
    }
    if (sim.mode == Mode.CURTAIL) {
      watch();
      sim.q.at(start + sim.policy.failFastCheckNanos(), this, CHECK << 7);
    }
    sim.metrics.blocksWritten++;
  }

  private void watch() {
    trackers = new NodeTracker[pipeline.length];
    for (int i = 0; i < pipeline.length; i++) {
      trackers[i] = client.knowledge.tracker(pipeline[i]);
    }
    attribution = new WriteAttribution(pipeline.length);
  }

  /** Sets the pipeline up (a round trip through it) and fills the window. */
  void begin() {
    long ready = start + 2L * pipeline.length * sim.hw.hopNanos();
    fill(ready);
  }

  private void fill(long at) {
    while (nextToSend < packets && nextToSend - acked < WINDOW) {
      send(nextToSend++, at);
    }
  }

  private long bytes(int packet) {
    return packet == packets - 1 ? lastPacketBytes : Simulation.PACKET_BYTES;
  }

  /** Sends {@code packet} at {@code at}: the client's work on it, then the first DataNode. */
  private void send(int packet, long at) {
    int slot = packet % WINDOW;
    sentAt[slot] = at;
    sim.packets++;
    sim.q.at(sim.cluster.client(at, sim.hw) + sim.hw.hopNanos(), this, tag(REACH, slot));
  }

  private int tag(int stage, int slot) {
    return (gen << 10) | (stage << 7) | slot;
  }

  /**
   * Stages: 0 an acknowledgement; 1..3 a packet reaches DataNode 0..2; 4..6 it takes the next;
   * 7 the client's periodic look at the pipeline.
   */
  private static final int REACH = 1;
  private static final int NEXT = 4;
  private static final int CHECK = 7;

  @Override
  public void fire(long now, int tag) {
    if (((tag >>> 7) & 7) == CHECK) {
      check(now);
      return;
    }
    if ((tag >>> 10) != gen) {
      return; // a packet of a pipeline replaced since
    }
    int stage = (tag >>> 7) & 7;
    int slot = tag & 127;
    if (stage == 0) {
      acked(now);
    } else if (stage < NEXT) {
      reached(stage - REACH, slot, now);
    } else {
      next(stage - NEXT, now);
    }
  }

  /**
   * The packet in {@code slot} reached DataNode {@code i}. A DataNode's receiver takes a
   * stream's next packet once it wrote the last one (it writes as it receives): until then the
   * packet waits in the connection, not in the DataNode's queues, and leaves with it if the
   * pipeline is cut.
   */
  private void reached(int i, int slot, long now) {
    if (now < lastWritten[i] || waitingCount[i] > 0) {
      waiting[i][(waitingHead[i] + waitingCount[i]++) % WINDOW] = slot;
      if (!nextScheduled[i]) {
        nextScheduled[i] = true;
        sim.q.at(Math.max(now, lastWritten[i]), this, tag(NEXT + i, 0));
      }
      return;
    }
    take(i, slot, now);
  }

  /** DataNode {@code i} is done with this stream's last packet: it takes the next waiting. */
  private void next(int i, long now) {
    nextScheduled[i] = false;
    int slot = waiting[i][waitingHead[i]];
    waitingHead[i] = (waitingHead[i] + 1) % WINDOW;
    waitingCount[i]--;
    take(i, slot, now);
    if (waitingCount[i] > 0) {
      nextScheduled[i] = true;
      sim.q.at(Math.max(now, lastWritten[i]), this, tag(NEXT + i, 0));
    }
  }

  /** DataNode {@code i} receives, forwards and writes the packet in {@code slot}. */
  private void take(int i, int slot, long now) {
    Hardware hw = sim.hw;
    int packet = acked + Math.floorMod(slot - acked, WINDOW);
    long bytes = bytes(packet);
    int n = pipeline.length;
    // A DataNode handles a stream's packets in order, one thread per stream, even where the
    // shared host's cores would finish them out of order.
    written[slot][i] = pipeline[i].write(now, bytes);
    received[slot][i] = Math.max(pipeline[i].lastReceived, lastReceived[i]);
    written[slot][i] = Math.max(written[slot][i], Math.max(lastWritten[i], received[slot][i]));
    lastReceived[i] = received[slot][i];
    lastWritten[i] = written[slot][i];
    if (i < n - 1) { // forwarded before it is written, as Hadoop does
      sim.q.at(received[slot][i] + hw.hopNanos(), this, tag(REACH + i + 1, slot));
      return;
    }
    // Each DataNode acknowledges once it wrote the packet and read the next one's ack, and in
    // order: after its acknowledgement of the packet before.
    long[] down = downstream[slot];
    long ackSent = Math.max(written[slot][n - 1], lastAckSent[n - 1]);
    lastAckSent[n - 1] = ackSent;
    down[n - 1] = WriteAttribution.UNKNOWN;
    for (int k = n - 2; k >= 0; k--) {
      long ackIn = ackSent + hw.hopNanos();
      down[k] = ackIn - received[slot][k];
      ackSent = Math.max(Math.max(written[slot][k], ackIn), lastAckSent[k]);
      lastAckSent[k] = ackSent;
    }
    ackAt[slot] = ackSent + hw.hopNanos();
    ready[slot] = true;
    // Acknowledgements come back in order: a packet's waits for the one before it.
    while (nextAck < nextToSend && ready[nextAck % WINDOW]) {
      int k = nextAck % WINDOW;
      ready[k] = false;
      lastAckAt = Math.max(Math.max(now, lastAckAt), ackAt[k]);
      sim.q.at(lastAckAt, this, tag(0, k));
      nextAck++;
    }
  }

  private void acked(long now) {
    int packet = acked++;
    sim.metrics.bytesWritten += bytes(packet);
    if (sim.mode == Mode.CURTAIL && attribute(packet, now)) {
      return;
    }
    if (acked == packets) {
      close(now);
      return;
    }
    fill(now);
  }

  /** Curtail's look at the pipeline after an acknowledgement; true if it is being replaced. */
  private boolean attribute(int packet, long now) {
    attribution.attribute(sentAt[packet % WINDOW], now, downstream[packet % WINDOW], samples);
    for (int i = 0; i < pipeline.length; i++) {
      if (samples[i] != WriteAttribution.NO_EVIDENCE) {
        trackers[i].writes().record(samples[i]);
      }
    }
    if (acked == packets || acked % JUDGE_EVERY != 0) {
      return false;
    }
    return judge(now);
  }

  /**
   * The client's periodic look ({@code curtail.write.failfast.check.ms}): every open pipeline is
   * judged on what the JVM knows of its DataNodes, even one whose acks are queued behind a slow
   * DataNode's disk, unless it is being rebuilt; the client's {@code AckReader.check}.
   */
  private void check(long now) {
    if (acked == packets) {
      return; // closed: no more looks
    }
    if (now >= repairedAt) {
      judge(now);
    }
    sim.q.at(now + sim.policy.failFastCheckNanos(), this, CHECK << 7);
  }

  /** Fail-fast's decision on the pipeline now, carried out; true if it is being replaced. */
  private boolean judge(long now) {
    Policy p = sim.policy;
    stats.clear();
    for (NodeTracker t : trackers) {
      stats.add(client.knowledge.stats(t.writes(), p.writeWindow(), p.percentile()));
    }
    long ackedBytes = (long) acked * Simulation.PACKET_BYTES;
    long left = (blockBytes - ackedBytes + Simulation.PACKET_BYTES - 1) / Simulation.PACKET_BYTES;
    FailFastDecision d = client.failFast.decide(stats, ackedBytes, (int) Simulation.PACKET_BYTES,
        left, aborted);
    sim.metrics.decisions.merge(d.reason(), 1L, Long::sum);
    if (!d.replace()) {
      return false;
    }
    int spare = sim.cluster.spare(ids(), client.rnd, dn -> client.eligible(dn, now));
    if (spare < 0) {
      return false;
    }
    replace(d, sim.cluster.nodes[spare], ackedBytes, now);
    return true;
  }

  /** Rebuilds the acknowledged bytes on {@code spare} from the decision's source, then resumes. */
  private void replace(FailFastDecision d, DataNode spare, long ackedBytes, long now) {
    Hardware hw = sim.hw;
    DataNode source = pipeline[d.sourceIndex()];
    // One transfer of the whole: the copy is timed as a block, not packet by packet.
    long sent = source.read(now + hw.hopNanos(), ackedBytes);
    long rebuilt = spare.write(sent + hw.hopNanos(), ackedBytes) + hw.hopNanos();
    gen++; // the packets in flight are sent again on the new pipeline
    nextToSend = acked;
    nextAck = acked;
    java.util.Arrays.fill(ready, false);
    java.util.Arrays.fill(waitingCount, 0);
    java.util.Arrays.fill(nextScheduled, false);
    if (rebuilt - now > d.rebuildTimeoutNanos()) { // overran: the block keeps its pipeline
      repairedAt = now + d.rebuildTimeoutNanos();
      aborted++;
      sim.metrics.rebuildsAborted++;
      sim.metrics.rebuildBytes += ackedBytes;
      fill(now + d.rebuildTimeoutNanos());
      return;
    }
    repairedAt = rebuilt;
    sim.metrics.replacements++;
    sim.metrics.rebuildBytes += ackedBytes;
    DataNode slow = pipeline[d.replaceIndex()];
    client.avoid(slow, now);
    slow.leave();
    spare.enter();
    pipeline[d.replaceIndex()] = spare;
    watch();
    fill(rebuilt + 2L * pipeline.length * hw.hopNanos());
  }

  private int[] ids() {
    int[] out = new int[pipeline.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = pipeline[i].id;
    }
    return out;
  }

  /** Stock's first wait for a block's reports at close (its locateFollowingBlock delay). */
  static final long STOCK_COMPLETE_RETRY_NANOS = 400_000_000L;
  /** Curtail's (its CurtailOutputStream's first retry). */
  static final long CURTAIL_COMPLETE_RETRY_NANOS = 25_000_000L;

  /**
   * Completes the file: a round trip to the NameNode, again after a wait (doubling) while the
   * NameNode has not heard of a finished replica.
   */
  private void close(long now) {
    for (DataNode d : pipeline) {
      d.leave();
    }
    long reported = sim.cluster.reported(now, pipeline.length);
    long wait = sim.mode == Mode.CURTAIL ? CURTAIL_COMPLETE_RETRY_NANOS
        : STOCK_COMPLETE_RETRY_NANOS;
    long done = now + 2 * sim.hw.hopNanos();
    while (done - sim.hw.hopNanos() < reported) {
      done += wait + 2 * sim.hw.hopNanos();
      wait *= 2;
      if (start >= sim.metrics.recordFrom) {
        sim.metrics.closeRetries++;
      }
    }
    sim.metrics.record(Metrics.Op.WRITE, client.index(), client.done(), start,
        done - start);
    client.opDoneAt(done);
  }
}
