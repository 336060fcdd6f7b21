package io.curtail.client.write;

import io.curtail.client.metrics.ClientMetrics;
import io.curtail.client.policy.FailFastDecision;
import io.curtail.client.policy.Slowness;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.track.LatencyWindow;
import io.curtail.client.track.NodeTracker;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mends one file's pipelines: adds a DataNode in place of one that failed or was judged slow,
 * rebuilding the block's acknowledged bytes on it from a surviving replica
 * ({@code transferBlock}), and keeps the file's replication. Remembers, per file, the DataNodes
 * that failed in its pipelines, and per block, the spares whose rebuild failed or overran, until
 * when the NameNode has no spare DataNode and how many rebuilds were aborted.
 *
 * <p>A spare whose rebuild failed is only kept out of the rest of the same repair, as a stock
 * writer keeps it out of one {@code addDatanode2ExistingPipeline}: a rebuild that overran on a
 * busy machine says nothing of the DataNode, and on a small cluster it may be the only spare a
 * later recovery can have.
 *
 * <p>The NameNode has no spare when every other DataNode is excluded or, with
 * {@code considerLoad}, looks too busy: a view that changes with each DataNode heartbeat. So a
 * refusal holds for {@link #REFUSAL_HOLD_NANOS}, twice as long after each further refusal, and
 * the block keeps its pipeline after {@code curtail.write.failfast.max.attempts} of them.
 *
 * <p>Threads: the streamer's, except {@link #noSpare(long)} and {@link #abortedAttempts()}, which
 * the fail-fast check reads (volatile).
 */
final class PipelineRepair {
  private static final Logger LOG = LoggerFactory.getLogger(PipelineRepair.class);
  /**
   * How long the NameNode's first refusal of a spare holds: a DataNode heartbeat interval (stock
   * {@code dfs.heartbeat.interval}), after which its view of every DataNode's load is new.
   */
  static final long REFUSAL_HOLD_NANOS = TimeUnit.SECONDS.toNanos(3);

  private final WriteContext ctx;
  private final DFSClient client;
  private final String src;
  private final long fileId;
  private final int replication;
  /**
   * DataNodes that failed in this file's pipelines: not asked for again until stock's exclusion
   * expires.
   */
  final FailedNodes failed;
  /** Spares whose fail-fast rebuild failed or overran in the current block. */
  private final List<DatanodeInfo> rebuildsFailedInBlock = new ArrayList<>();
  /** Until when (clock nanos) the NameNode is not asked for a spare for the current block. */
  private volatile long noSpareUntil;
  private int refusals;
  private volatile int abortedAttempts;
  private int recoveriesWithoutProgress;
  private long ackedAtLastRecovery = -1;
  private final long[] scratch = new long[LatencyWindow.CAPACITY];

  PipelineRepair(WriteContext ctx, String src, long fileId, int replication) {
    this.ctx = ctx;
    this.client = ctx.client;
    this.src = src;
    this.fileId = fileId;
    this.replication = replication;
    this.noSpareUntil = ctx.clock.nanoTime();
    this.failed = new FailedNodes(ctx.clock,
        TimeUnit.MILLISECONDS.toNanos(client.getConf().getExcludedNodesCacheExpiry()));
  }

  /** Whether the NameNode's last refusal of a spare for the current block still holds. */
  boolean noSpare(long now) {
    return now - noSpareUntil < 0;
  }

  /** Rebuilds of the current block aborted for overrunning or failing. */
  int abortedAttempts() {
    return abortedAttempts;
  }

  /** A new block starts: spares and rebuild tries are counted afresh. */
  void blockStarted() {
    noSpareUntil = ctx.clock.nanoTime();
    refusals = 0;
    abortedAttempts = 0;
    rebuildsFailedInBlock.clear();
  }

  /** A block ended: recoveries are counted afresh. */
  void blockEnded() {
    recoveriesWithoutProgress = 0;
    ackedAtLastRecovery = -1;
  }

  /**
   * Counts a recovery of {@code block} with {@code acked} bytes acknowledged; gives up after
   * {@code dfs.client.pipeline.recovery.max-retries} recoveries in a row without progress, as
   * stock clients do.
   */
  void recovering(ExtendedBlock block, long acked, IOException why) throws IOException {
    if (acked != ackedAtLastRecovery) {
      recoveriesWithoutProgress = 0;
      ackedAtLastRecovery = acked;
      return;
    }
    if (++recoveriesWithoutProgress >= ctx.maxPipelineRecoveryRetries) {
      throw new IOException("giving up on " + block + " of " + src + " after "
          + recoveriesWithoutProgress + " recoveries without progress: " + why.getMessage(), why);
    }
  }

  /**
   * Adds DataNodes to {@code t} until it has the file's replication, each rebuilt from a
   * surviving replica (the best source, see {@link Slowness#bestSource}). Replication never drops
   * silently: when the NameNode has no DataNode to give, or rebuilds keep failing, this says so
   * and the block carries on with fewer replicas (the NameNode re-replicates it once complete),
   * as stock clients do.
   *
   * @param acked the block as every DataNode of {@code t} has acknowledged it
   * @param required whether stock's policy requires a DataNode more: then the NameNode is asked
   *     even while an earlier refusal of a spare holds, as a stock writer asks on every recovery
   */
  private Pipeline.Targets restoreReplication(Pipeline.Targets t, ExtendedBlock acked,
      boolean required) throws IOException {
    List<DatanodeInfo> rebuildsFailed = new ArrayList<>(); // this repair's own, as stock's
    int tries = 0;
    while (t.size() < replication && (required || !noSpare(ctx.clock.nanoTime()))
        && tries < ctx.config.writeFailFastMaxAttempts()) {
      tries++;
      int source = bestSource(t);
      int refusedBefore = refusals;
      Pipeline.Targets grown = replaceOne(t, null, rebuildsFailed, source,
          Pipeline.readTimeout(client, 2), acked);
      if (grown != null) {
        t = grown;
      } else if (refusals > refusedBefore) {
        break; // the NameNode has none: asking again at once would not change that
      } else if (failed.contains(t.nodes[source]) && t.size() > 1) {
        t = t.without(source); // the source itself is gone
      }
    }
    if (t.size() < replication) {
      LOG.warn("Short pipeline file={} block={} replicas={} of {} pipeline={}; the NameNode"
          + " re-replicates it once complete", src, acked, t.size(), replication, t);
    }
    return t;
  }

  /**
   * {@link #restoreReplication} for {@code survivors} of a pipeline that was {@code before}, then
   * the promise a stock writer keeps ({@link ReplaceOnFailure}): when its policy requires a
   * DataNode more for {@code survivors} and none could be added, the write fails, unless the
   * settings let it go on short.
   *
   * @param append whether the writer continues a block an append reopened
   * @param hflushed whether the writer has hflushed or hsynced
   * @throws IOException a stock writer's failure, if a required replacement could not be had
   */
  Pipeline.Targets restore(Pipeline.Targets survivors, Pipeline.Targets before,
      ExtendedBlock acked, boolean append, boolean hflushed) throws IOException {
    boolean required = replacementRequired(survivors, append, hflushed);
    Pipeline.Targets t = restoreReplication(survivors, acked, required);
    if (required && newcomer(survivors, t) < 0 && !ctx.replaceOnFailure.goesOnWith(t.size())) {
      throw ctx.replaceOnFailure.noReplacement(src, t, before);
    }
    return t;
  }

  /** Whether stock's policy requires a DataNode more for {@code t} (see {@link #restore}). */
  boolean replacementRequired(Pipeline.Targets t, boolean append, boolean hflushed) {
    return ctx.replaceOnFailure.required((short) replication, t.nodes, append, hflushed);
  }

  /**
   * Replaces the DataNode fail-fast judged slow in {@code before}: a new DataNode rebuilt from
   * the policy's source within the policy's timeout, retried with the next source and a
   * longer expected time when it overruns, at most {@code curtail.write.failfast.max.attempts}
   * times per block. Returns the new pipeline, or null to keep {@code before}.
   */
  Pipeline.Targets replaceSlow(PipelineFailure stop, Pipeline.Targets before, ExtendedBlock acked,
      int packetBytes, long packetsRemaining) throws IOException {
    FailFastDecision decision = stop.failFast;
    DatanodeInfo slow = before.nodes[decision.replaceIndex()];
    Pipeline.Targets survivors = before.without(decision.replaceIndex());
    while (decision.replace() && !noSpare(ctx.clock.nanoTime())) {
      int source = survivors.indexOf(before.nodes[decision.sourceIndex()].getXferAddr());
      if (ctx.tracker(survivors.nodes[source]).busy(ctx.clock.nanoTime())) {
        source = bestSource(survivors); // the policy's choice is busy: the next best
      }
      int refusedBefore = refusals;
      Pipeline.Targets next = replaceOne(survivors, slow, rebuildsFailedInBlock, source,
          TimeUnit.NANOSECONDS.toMillis(decision.rebuildTimeoutNanos()), acked);
      if (next != null) {
        return next;
      }
      if (refusals == refusedBefore) { // a spare was given, and its rebuild failed or overran
        abortedAttempts++;
        ctx.rebuildsAborted.increment();
        ClientMetrics.JVM.rebuildsAborted.increment();
        decision = ctx.failFast.decide(stop.stats, acked.getNumBytes(), packetBytes,
            packetsRemaining, abortedAttempts);
      }
    }
    LOG.info("Keeping pipeline file={} block={} pipeline={} reason={}", src, acked, before,
        decision.replace() ? "no spare DataNode, " + refusals + " refusals" : decision.reason());
    return null;
  }

  /**
   * Asks the NameNode for one more DataNode for the block (besides {@code existing}, never
   * {@code alsoExcluded} nor one of {@code rebuildsFailed}) and rebuilds {@code acked} on it from
   * {@code existing.nodes[source]}. Returns the grown pipeline, or null if the rebuild failed or
   * overran {@code timeoutMs} (the spare then added to {@code rebuildsFailed}); notes
   * {@link #refused() a refusal} when the NameNode has none.
   */
  private Pipeline.Targets replaceOne(Pipeline.Targets existing, DatanodeInfo alsoExcluded,
      List<DatanodeInfo> rebuildsFailed, int source, long timeoutMs, ExtendedBlock acked)
      throws IOException {
    List<DatanodeInfo> mustExclude = failed.current();
    mustExclude.addAll(rebuildsFailed);
    if (alsoExcluded != null) {
      mustExclude.add(alsoExcluded);
    }
    List<DatanodeInfo> members = Arrays.asList(existing.nodes);
    addOthers(mustExclude, ctx.runtime.busyNodes().avoided(), members);
    List<DatanodeInfo> excluded = new ArrayList<>(mustExclude);
    addOthers(excluded, ctx.runtime.slowNodes().avoided(), members);
    LocatedBlock grown = spare(existing, excluded, acked);
    if (grown == null && excluded.size() > mustExclude.size()) {
      // A DataNode judged slow a while ago is better than keeping the one slow now (in a small
      // cluster every spare may have been judged slow once); one that failed this file, or
      // says it is busy, never is.
      LOG.info("No spare avoiding {} file={} block={}; asking again excluding only {}",
          excluded, src, acked, mustExclude);
      grown = spare(existing, mustExclude, acked);
    }
    if (grown == null) {
      refused();
      return null;
    }
    Pipeline.Targets all = Pipeline.Targets.of(grown);
    int added = newcomer(existing, all);
    Pipeline.Targets target = new Pipeline.Targets(new DatanodeInfo[] {all.nodes[added]},
        new StorageType[] {all.storageTypes[added]}, new String[] {all.storageIds[added]});
    try {
      LOG.info("Rebuilding file={} block={} on={} from={} timeoutMs={}", src, acked,
          target.nodes[0], existing.nodes[source], timeoutMs);
      ctx.reached(RepairHook.Step.REBUILD_STARTING, src, existing.nodes[source].getXferAddr(),
          target.nodes[0].getXferAddr());
      Pipeline.transfer(ctx.sockets, client, existing.nodes[source], acked,
          grown.getBlockToken(), target, (int) Math.min(Integer.MAX_VALUE, timeoutMs));
      return all;
    } catch (Pipeline.SourceUnreachableException e) {
      LOG.warn("Rebuild source unreachable file={} block={} source={} reason={}", src, acked,
          existing.nodes[source], e.getMessage());
      failed.add(existing.nodes[source]);
      return null;
    } catch (IOException e) {
      LOG.warn("Rebuild failed or overran file={} block={} target={} source={} timeoutMs={}"
          + " reason={}", src, acked, target, existing.nodes[source], timeoutMs, e.toString());
      rebuildsFailed.add(all.nodes[added]);
      return null;
    }
  }

  /** The NameNode's answer with a DataNode {@code existing} lacks, or null if it has none. */
  private LocatedBlock spare(Pipeline.Targets existing, List<DatanodeInfo> excluded,
      ExtendedBlock acked) throws IOException {
    LocatedBlock grown;
    try {
      grown = ctx.namenode.getAdditionalDatanode(src, fileId, acked, existing.nodes,
          existing.storageIds, excluded.toArray(new DatanodeInfo[0]), 1, client.getClientName());
    } catch (IOException e) {
      LOG.info("No spare DataNode file={} block={} pipeline={} excluded={} reason={}", src, acked,
          existing, excluded, e.getMessage());
      return null;
    }
    if (newcomer(existing, Pipeline.Targets.of(grown)) < 0) {
      LOG.info("No new DataNode added file={} block={} pipeline={} excluded={}", src, acked,
          existing, excluded);
      return null;
    }
    return grown;
  }

  /**
   * The NameNode had no spare: not asked again for this block for a heartbeat interval, doubled
   * per refusal, or at all after the most tries a replacement has.
   */
  private void refused() {
    refusals++;
    long hold = refusals >= ctx.config.writeFailFastMaxAttempts()
        ? TimeUnit.DAYS.toNanos(1) : REFUSAL_HOLD_NANOS << (refusals - 1);
    noSpareUntil = ctx.clock.nanoTime() + hold;
  }

  /** Adds to {@code to} each of {@code more} that is neither in it nor one of {@code members}. */
  private static void addOthers(List<DatanodeInfo> to, List<DatanodeInfo> more,
      List<DatanodeInfo> members) {
    for (DatanodeInfo n : more) {
      if (!members.contains(n) && !to.contains(n)) {
        to.add(n);
      }
    }
  }

  /** Position in {@code t} of the best rebuild source (see {@link Slowness#bestSource}). */
  private int bestSource(Pipeline.Targets t) {
    List<LatencyStats> stats = new ArrayList<>(t.size());
    boolean[] busy = new boolean[t.size()];
    long now = ctx.clock.nanoTime();
    for (int i = 0; i < t.size(); i++) {
      NodeTracker tracker = ctx.tracker(t.nodes[i]);
      stats.add(tracker.judgedWrites(ctx.config.writeWindowPackets(),
          ctx.config.slownessPercentile(), scratch));
      busy[i] = tracker.busy(now);
    }
    return ctx.slowness.bestSource(stats, busy);
  }

  /** Where in {@code after} the first DataNode {@code before} lacks stands, or -1. */
  static int newcomer(Pipeline.Targets before, Pipeline.Targets after) {
    List<DatanodeInfo> old = Arrays.asList(before.nodes);
    for (int i = 0; i < after.size(); i++) {
      if (!old.contains(after.nodes[i])) {
        return i;
      }
    }
    return -1;
  }
}
