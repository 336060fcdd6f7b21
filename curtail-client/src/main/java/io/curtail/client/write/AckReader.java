package io.curtail.client.write;

import io.curtail.client.metrics.ClientMetrics;
import io.curtail.client.policy.FailFast;
import io.curtail.client.policy.FailFastDecision;
import io.curtail.client.policy.Slowness;
import io.curtail.client.policy.WriteAttribution;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.track.LatencyWindow;
import io.curtail.client.track.NodeTracker;
import io.curtail.wire.AckReport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one pipeline's acks, in order, on a thread of its own: matches each to the oldest packet
 * in flight, records each DataNode's share of the packet's time in this JVM's window for it
 * ({@link WriteAttribution}), notes the busy flags DataNodes report, and after every ack asks
 * fail-fast whether to replace the slowest DataNode (here, because the streamer may be blocked
 * sending to that very DataNode). The first DataNode that answers with a failure, or a malformed
 * ack, stops the pipeline with a {@link PipelineFailure} for the streamer to recover from; one
 * that answers it is restarting (an out-of-band ack) is marked so, to be waited for.
 *
 * <p>Threads: {@link #run} is the ack reader's; {@link #judge} is also called by the client's
 * periodic check (for a pipeline whose slow DataNode stopped acking altogether). Everything the
 * two share is immutable or volatile; stopping the pipeline goes through the {@link WriteQueue}.
 */
final class AckReader implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(AckReader.class);

  private final WriteContext ctx;
  private final Streamer streamer;
  private final WriteQueue queue;
  private final Pipeline pipeline;
  private final ExtendedBlock block;
  private final NodeTracker[] trackers;
  private final Progressable progress;
  /** Whether the last attributed ack told every DataNode's share apart. */
  private volatile boolean attributedExactly;
  /**
   * Per DataNode, how many samples its window had when it joined the block while the JVM avoided
   * it, else -1: it is judged on those it recorded since (see {@code BlockPipeline}).
   */
  private final long[] judgedSince;

  // The ack reader thread's own.
  private final WriteAttribution attribution;
  private final long[] samples;
  private final long[] downstream;
  private final long[] blocked;
  private final long[] links;
  private final long[] own;
  private final long[] stages;
  /** Which DataNodes were known fast at the last ack: what they feed is fed fast. */
  private final boolean[] knownFast;
  private final PipelineLinks pipelineLinks;
  private final long[] scratch = new long[LatencyWindow.CAPACITY];
  private final List<LatencyStats> stats = new ArrayList<>();
  private final List<LatencyStats> linkStats = new ArrayList<>();

  /** @param judgedSince see {@link #judgedSince}, one per DataNode of {@code pipeline} */
  AckReader(WriteContext ctx, Streamer streamer, WriteQueue queue, Pipeline pipeline,
      long[] judgedSince, ExtendedBlock block, Progressable progress) {
    this.ctx = ctx;
    this.streamer = streamer;
    this.queue = queue;
    this.pipeline = pipeline;
    this.block = block;
    this.trackers = ctx.trackersOf(pipeline.targets);
    this.progress = progress;
    int n = trackers.length;
    this.attribution = new WriteAttribution(n);
    this.samples = new long[n];
    this.downstream = new long[n];
    this.blocked = new long[n];
    this.links = new long[n];
    this.own = new long[n];
    this.stages = new long[n];
    this.knownFast = new boolean[n];
    this.judgedSince = judgedSince;
    this.pipelineLinks = new PipelineLinks(trackers, ctx.linkSlowness, ctx.runtime.slowLinks(),
        ctx.config.writeWindowPackets());
  }

  @Override
  public void run() {
    int bad = -1;
    boolean restarting = false;
    try {
      while (true) {
        PipelineAck ack = pipeline.readAck();
        long now = ctx.clock.nanoTime();
        bad = firstFailure(ack);
        if (bad >= 0) {
          Status status = PipelineAck.getStatusFromHeader(ack.getHeaderFlag(bad));
          // An out-of-band ack: the DataNode is going down for a restart (a rolling upgrade),
          // and is to be back on its ports, with its replicas, within seconds.
          restarting = PipelineAck.isRestartOOBStatus(status);
          throw new IOException(pipeline.targets.nodes[bad] + " answered " + status
              + (restarting ? " (restarting)" : " for seqno " + ack.getSeqno()));
        }
        noteBusyFlags(ack, now);
        if (ack.getSeqno() == Packet.HEARTBEAT_SEQNO) {
          continue;
        }
        Packet acked = queue.acked(ack.getSeqno());
        record(ack, acked, now);
        boolean last = acked.lastInBlock;
        acked.recycle(); // every DataNode has it: it is never sent again, and is made another
        if (progress != null) {
          progress.progress();
        }
        if (last) {
          return;
        }
        statsOf(scratch, stats);
        learnWhoIsFast(stats);
        // Links first: downstream of a slow link a DataNode idles between packets, and its
        // samples then carry the ack's whole way back, a loaded machine's noise.
        if ((pipelineLinks.judge(now, attribution) && leaveSlowLink())
            || judge(stats, -1, ctx.failFast, scratch)) {
          return;
        }
      }
    } catch (IOException | RuntimeException e) {
      queue.stop(pipeline, new PipelineFailure("pipeline " + pipeline.targets + " for " + block
          + " of " + streamer.src + " failed: " + e.getMessage(), bad, restarting, e));
    }
  }

  private int firstFailure(PipelineAck ack) throws IOException {
    return firstFailure(ack, trackers.length);
  }

  /**
   * The first of {@code n} DataNodes whose reply on {@code ack} is not a success (-1 if none). A
   * DataNode that lost its downstream answers with its own status and its mirror's ERROR, so
   * statuses come first: the first failure names the DataNode to blame.
   *
   * @throws IOException if the ack has not one reply per DataNode, or header flags for some
   *     replies only (malformed: every header read after this one is one the ack has)
   */
  static int firstFailure(PipelineAck ack, int n) throws IOException {
    int replies = Math.min(ack.getNumOfReplies(), n);
    try {
      for (int i = 0; i < replies; i++) {
        if (PipelineAck.getStatusFromHeader(ack.getHeaderFlag(i)) != Status.SUCCESS) {
          return i;
        }
      }
    } catch (IndexOutOfBoundsException e) {
      throw new IOException("malformed ack for seqno " + ack.getSeqno() + ": fewer header flags"
          + " than its " + ack.getNumOfReplies() + " replies");
    }
    if (ack.getNumOfReplies() != n) {
      throw new IOException("ack for seqno " + ack.getSeqno() + " has " + ack.getNumOfReplies()
          + " replies from a pipeline of " + n);
    }
    return -1;
  }

  private void noteBusyFlags(PipelineAck ack, long now) {
    for (int i = 0; i < trackers.length; i++) {
      boolean busy = AckReport.busy(ack.getHeaderFlag(i));
      if (busy != trackers[i].busy(now)) {
        if (busy) {
          ctx.runtime.busyNodes().avoid(pipeline.targets.nodes[i]);
          ClientMetrics.JVM.busyAvoided.increment();
        } else {
          ctx.runtime.busyNodes().forget(pipeline.targets.nodes[i]);
        }
      }
      trackers[i].heardBusy(busy, now);
    }
  }

  /**
   * Records each DataNode's share of {@code acked}'s time. A DataNode's report is not used for a
   * packet it had to sync or finalise before acking: that wait, its own, would count as its
   * downstream's.
   */
  private void record(PipelineAck ack, Packet acked, long now) {
    if (ctx.config.useDataNodeReports()) {
      // Even where this packet's reports are not used: its link's time is then in the next stage.
      for (int i = 0; i + 1 < samples.length; i++) {
        if (AckReport.version(ack.getHeaderFlag(i)) == 2) {
          attribution.tellsLinks(i);
        }
      }
    }
    if (ctx.config.useDataNodeReports() && !acked.lastInBlock && !acked.syncRequested()) {
      AckReport.downstreamTimes(ack, downstream);
      AckReport.blockedTimes(ack, blocked);
    } else {
      Arrays.fill(downstream, WriteAttribution.UNKNOWN);
      Arrays.fill(blocked, WriteAttribution.UNKNOWN);
    }
    downstream[0] = ack.getDownstreamAckTimeNanos();
    attributedExactly = attribution.attribute(acked.sentNanos, now, downstream, blocked, samples,
        links);
    for (int i = 0; i < samples.length; i++) {
      if (samples[i] != WriteAttribution.NO_EVIDENCE) {
        trackers[i].recordWrite(samples[i], i == 0 ? null : trackers[i - 1],
            i == 0 || knownFast[i - 1], now);
      }
    }
    for (int i = 0; i < own.length; i++) {
      own[i] = attribution.ownService(i);
      stages[i] = attribution.stage(i);
    }
    pipelineLinks.record(links, own, stages, now);
  }

  /**
   * Tells the attribution which DataNodes are known fast, for the next acks: a stage of several
   * DataNodes goes to the one that is not (see {@link WriteAttribution}); and what they feed is
   * fed fast ({@link NodeTracker#recordWrite}).
   */
  private void learnWhoIsFast(List<LatencyStats> stats) {
    long fastest = ctx.slowness.fastestPercentile(stats);
    for (int i = 0; i < stats.size(); i++) {
      knownFast[i] = ctx.slowness.knownFast(stats.get(i), fastest);
      attribution.knownFast(i, knownFast[i]);
    }
  }

  /**
   * The client's periodic look at this pipeline, for one whose slow DataNode has stopped acking
   * altogether (a throttled DataNode can go silent for seconds). The buffers are the caller's.
   */
  void check(long[] scratch, List<LatencyStats> stats) {
    statsOf(scratch, stats);
    judge(stats, -1, ctx.failFast, scratch);
  }

  /**
   * Leaves a slow link whose time is its own (see {@link PipelineLinks}) by replacing an end of
   * it, if fail-fast finds it pays, weighing the link's time against the DataNodes' own; the end
   * is healthy, so nothing else avoids it. Returns whether the pipeline is stopped.
   */
  private boolean leaveSlowLink() {
    int end = pipelineLinks.linkToLeave(linkStats);
    return end >= 0 && judge(linkStats, end,
        pipelineLinks.onKnowledge(end) ? ctx.failFastOnKnownLink : ctx.failFastOnLink, scratch);
  }

  /**
   * Asks the fail-fast policy about this pipeline, whose DataNodes' statistics are {@code stats},
   * and, when replacing its slowest DataNode pays, stops the pipeline with the decision for the
   * streamer. With {@code linkEnd} >= 0, {@code stats} weigh a slow link at that position: only
   * that end is replaced, and as it is not slow itself, it is not avoided. Returns whether the
   * pipeline is stopped (by this call or earlier).
   */
  private boolean judge(List<LatencyStats> stats, int linkEnd, FailFast failFast,
      long[] scratch) {
    Pipeline.Targets t = pipeline.targets;
    if (!ctx.config.writeFailFastEnabled() || t.size() < 2) {
      return false;
    }
    long acked = queue.bytesAcked();
    FailFastDecision decision = failFast.decide(stats, acked, streamer.layout.packetBytes,
        streamer.layout.packetsLeftInBlock(acked), streamer.repair.abortedAttempts());
    // The clock only once replacing pays: a healthy pipeline's acks never read it.
    if (!decision.replace() || (linkEnd >= 0 && decision.replaceIndex() != linkEnd)
        || streamer.repair.noSpare(ctx.clock.nanoTime())) {
      if (LOG.isDebugEnabled()) { // why a pipeline was kept, for a run that replaced nobody
        LOG.debug("Keeping file={} block={} pipeline={} stats={} acked={} reason={}",
            streamer.src, block, t, stats, acked,
            decision.replace() ? "no spare DataNode for now" : decision.reason());
      }
      return false;
    }
    int slow = decision.replaceIndex();
    if (linkEnd < 0 && pipelineLinks.slowOnlyBehindOthers(slow, ctx.config.slownessPercentile(),
        stats.get(slow).percentileNanos(), ctx.slowness.fastestPercentile(stats),
        ctx.clock.nanoTime(), scratch)) {
      // The stages that made it slow were its feeders' sending, not its own.
      LOG.debug("Keeping file={} block={} pipeline={} stats={} acked={} reason=fast where fed fast",
          streamer.src, block, t, stats, acked);
      return false;
    }
    String what = linkEnd < 0 ? "slow " + t.nodes[slow]
        : "the end " + t.nodes[slow] + " of the slow link to " + t.nodes[slow + 1];
    if (!queue.stop(pipeline, new PipelineFailure("replacing " + what, decision,
        new ArrayList<>(stats), attributedExactly))) {
      return true; // the ack reader and the periodic check may both judge: the first one stops it
    }
    LOG.info("Fail-fast file={} block={} datanode={} link={} stats={} decision={}", streamer.src,
        block, t.nodes[slow], linkEnd < 0 ? "-" : t.nodes[slow + 1], stats.get(slow), decision);
    if (linkEnd < 0) {
      ctx.runtime.slowNodes().avoid(t.nodes[slow]); // new blocks avoid it, replaced or not
      judgeFedAfresh(stats, slow);
    }
    pipeline.abort();
    return true;
  }

  /**
   * Judges afresh the DataNode that {@code slow}, just found slow, fed in this pipeline (see
   * {@link NodeTracker#judgeWritesAfresh}): otherwise it is the next one replaced, in whatever
   * pipeline it is in next, on the slow one's time. Not when its own samples look slower still:
   * those may say that it is the slow one and the feeder was blamed for it.
   */
  private void judgeFedAfresh(List<LatencyStats> stats, int slow) {
    int fed = slow + 1;
    if (fed < trackers.length
        && stats.get(fed).percentileNanos() <= stats.get(slow).percentileNanos()) {
      trackers[fed].judgeWritesAfresh();
    }
  }

  /**
   * Each DataNode's recent write statistics as the JVM judges them
   * ({@link NodeTracker#judgedWrites}), in pipeline order, into {@code out}; of a newcomer that
   * joined while avoided, only those since it joined ({@link #judgedSince}).
   */
  private void statsOf(long[] scratch, List<LatencyStats> out) {
    out.clear();
    for (int i = 0; i < trackers.length; i++) {
      long window = ctx.config.writeWindowPackets();
      if (judgedSince[i] >= 0) {
        window = Math.min(window, trackers[i].writes().totalRecorded() - judgedSince[i]);
      }
      out.add(trackers[i].judgedWrites((int) window, ctx.config.slownessPercentile(), scratch));
    }
    for (int i = 0; i < out.size(); i++) {
      if (fedOnlyByUnshown(i, out, scratch)) {
        out.set(i, LatencyStats.EMPTY);
      }
    }
  }

  /**
   * Whether DataNode {@code i} is slow early on {@code stats} only on samples all taken behind
   * one DataNode not shown fast ({@link Slowness#slowEarlyOnlyBehind}): they tell nothing of it
   * yet. On separate processes with one NIC shaped, healthy DataNodes first in their pipelines
   * were found slow early so, on 5 to 7 samples taken behind the shaped one elsewhere, while it
   * had shown nothing. Behind the client, a DataNode shown fast, or more than one, its samples
   * count as ever; and a DataNode not slow early keeps them as the others' yardstick.
   */
  private boolean fedOnlyByUnshown(int i, List<LatencyStats> stats, long[] scratch) {
    Slowness rule = ctx.earlySlowness;
    LatencyStats s = stats.get(i);
    if (rule.judged(s) || rule.yardstickNanos(s) == Long.MAX_VALUE) {
      return false; // judged on its window, or too few samples to be found early anyway
    }
    NodeTracker feeder = trackers[i].soleFeeder(s.samples());
    if (feeder == null) {
      return false;
    }
    int at = -1;
    for (int j = 0; j < trackers.length; j++) {
      if (trackers[j] == feeder && j != i) {
        at = j;
      }
    }
    LatencyStats fed = at >= 0 ? stats.get(at)
        : feeder.writes().stats(ctx.config.writeWindowPackets(), ctx.config.slownessPercentile(),
            scratch);
    return rule.slowEarlyOnlyBehind(stats, i, at, fed);
  }
}
