package io.curtail.client.write;

import io.curtail.client.track.LatencyStats;
import io.curtail.client.track.NodeTracker;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.BlockConstructionStage;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The block a {@link Streamer} is writing and the pipeline writing it: the block as the NameNode
 * last stamped it, its token, its DataNodes, the connection and its {@link AckReader} thread. Sets
 * pipelines up (a new block's; one again after a change, under a new generation stamp; a cut
 * pipeline's survivors frozen) and cuts them; the streamer decides when. The streamer thread's
 * alone, but for {@link #targets} and the ack reader, which the writer and the client's periodic
 * check read.
 */
final class BlockPipeline {
  private static final Logger LOG = LoggerFactory.getLogger(BlockPipeline.class);
  /**
   * How long a failed send waits for the ack reader to say why: a DataNode going down for a
   * restart says so in an ack just before it closes the connection, and a send can fail first.
   */
  private static final long SEND_FAILURE_GRACE_MS = 1000;
  /**
   * How often a restarting DataNode is tried again (stock: every 4 s); each try costs the
   * NameNode a generation stamp.
   */
  private static final long RESTART_POLL_MS = 1000;

  private final WriteContext ctx;
  private final DFSClient client;
  private final Streamer streamer;
  private final WriteQueue queue;
  private final PipelineRepair repair;
  private final String src;
  private final boolean lazyPersist;
  private final String[] favoredNodes;
  private final Progressable progress;

  /** The block being written, as last stamped; null between blocks. */
  ExtendedBlock block;
  private Token<BlockTokenIdentifier> token;
  /** Written by the streamer thread alone; volatile for {@link Streamer#replicas}. */
  volatile Pipeline.Targets targets;
  private Pipeline pipeline;
  private Thread ackThread;
  /** The current pipeline's ack reader, for {@link #check}; null between pipelines. */
  private volatile AckReader acks;
  /** The end of the last packet sent in the block. */
  long bytesSent;
  /**
   * Of each DataNode that joined the block while the JVM avoided it (judged slow), by transfer
   * address: how many write samples its window had then. The NameNode or a repair gave it only
   * because there was no other DataNode to give, and its window still holds what condemned it,
   * which stops moving once it is avoided: judged on that, it would be replaced at once, and
   * again in every block it is given, on a small cluster for the whole memory (and a neighbour
   * misjudged once with it). So it is judged on what it does after it joined. The streamer
   * thread's.
   */
  private final Map<String, Long> joinedAvoided = new HashMap<>();

  BlockPipeline(WriteContext ctx, Streamer streamer, WriteQueue queue, boolean lazyPersist,
      String[] favoredNodes, Progressable progress) {
    this.ctx = ctx;
    this.client = ctx.client;
    this.streamer = streamer;
    this.queue = queue;
    this.repair = streamer.repair;
    this.src = streamer.src;
    this.lazyPersist = lazyPersist;
    this.favoredNodes = favoredNodes;
    this.progress = progress;
  }

  /** Takes up {@code located}, a new block or one an append continues, sent up to {@code sent}. */
  void takeUp(LocatedBlock located, long sent) {
    block = located.getBlock();
    token = located.getBlockToken();
    targets = Pipeline.Targets.of(located);
    bytesSent = sent;
    joinedAvoided.clear();
    noteJoined(targets, null);
  }

  /** Notes the DataNodes of {@code t} not in {@code before} (all if null) that the JVM avoids. */
  private void noteJoined(Pipeline.Targets t, Pipeline.Targets before) {
    List<DatanodeInfo> avoided = ctx.runtime.slowNodes().avoided();
    NodeTracker[] trackers = ctx.trackersOf(t);
    for (int i = 0; i < t.size(); i++) {
      String addr = t.nodes[i].getXferAddr();
      if ((before == null || before.indexOf(addr) < 0)
          && avoided.stream().anyMatch(d -> d.getXferAddr().equals(addr))) {
        joinedAvoided.put(addr, trackers[i].writes().totalRecorded());
      }
    }
  }

  /** Per DataNode of {@code t}: its samples as it joined avoided (see {@link #joinedAvoided}). */
  private long[] judgedSince(Pipeline.Targets t) {
    long[] since = new long[t.size()];
    for (int i = 0; i < t.size(); i++) {
      since[i] = joinedAvoided.getOrDefault(t.nodes[i].getXferAddr(), -1L);
    }
    return since;
  }

  /** Forgets the block (it was given back), keeping its DataNodes. */
  void dropBlock() {
    block = null;
  }

  /** Forgets the block and its DataNodes: between blocks. */
  void clear() {
    block = null;
    targets = null;
    bytesSent = 0;
  }

  boolean open() {
    return pipeline != null;
  }

  /** The current block as every DataNode of its pipeline has acknowledged it. */
  ExtendedBlock acknowledged() {
    return new ExtendedBlock(block.getBlockPoolId(), block.getBlockId(), queue.bytesAcked(),
        block.getGenerationStamp());
  }

  /** For the client's periodic check: judges the pipeline even if it stopped acking. */
  void check(long[] scratch, List<LatencyStats> stats) {
    AckReader r = acks;
    if (r != null) {
      r.check(scratch, stats);
    }
  }

  void send(Packet p) throws PipelineFailure {
    try {
      pipeline.send(p);
    } catch (IOException e) {
      try {
        ackThread.join(SEND_FAILURE_GRACE_MS); // it may yet read why (a restart, see there)
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
      throw queue.sendFailed(e, targets);
    }
  }

  /**
   * Sets up the new block's pipeline. A DataNode that fails the setup (one dead but still listed
   * by the NameNode, say) is dropped, and the block set up again on the others under a new
   * generation stamp while they are at least {@code min-replication} (see
   * {@link ReplaceOnFailure}), as Hadoop 3.4 clients do: the DataNodes drop what the failed try
   * left. Otherwise the {@link Pipeline.SetupException} names, in {@link #targets}, the DataNode
   * to blame, and the caller gives the block back for another.
   */
  void create() throws IOException {
    ExtendedBlock allocated = block;
    while (true) {
      try {
        Pipeline p = Pipeline.open(ctx.sockets, client, targets, block, token,
            BlockConstructionStage.PIPELINE_SETUP_CREATE, 0, 0, block.getGenerationStamp(),
            streamer.layout.checksum, lazyPersist, targets.pinned(favoredNodes));
        if (block != allocated) {
          try {
            ctx.namenode.updatePipeline(client.getClientName(), allocated, block, targets.nodes,
                targets.storageIds);
          } catch (IOException e) {
            p.abort();
            throw e;
          }
        }
        start(p);
        return;
      } catch (Pipeline.SetupException e) {
        if (!ctx.replaceOnFailure.createsWith(targets.size() - 1)) {
          throw e;
        }
        LOG.info("Setting block={} file={} up again without datanode={} reason={}", block, src,
            targets.nodes[e.badIndex], e.getMessage());
        repair.failed.add(targets.nodes[e.badIndex]);
        targets = targets.without(e.badIndex);
        LocatedBlock bumped = ctx.namenode.updateBlockForPipeline(block, client.getClientName());
        block = new ExtendedBlock(block.getBlockPoolId(), block.getBlockId(), 0,
            bumped.getBlock().getGenerationStamp());
        token = bumped.getBlockToken();
      }
    }
  }

  /** Streams the block through {@code p}. */
  private void start(Pipeline p) throws IOException {
    try {
      queue.pipelineStarted(p);
    } catch (IOException broken) {
      p.abort();
      throw broken;
    }
    pipeline = p;
    AckReader reader = new AckReader(ctx, streamer, queue, p, judgedSince(p.targets), block,
        progress);
    ackThread = new Thread(reader, "curtail-acks " + block);
    ackThread.setDaemon(true);
    ackThread.start();
    acks = reader;
  }

  /** Cuts the pipeline and waits for its ack reader to stop. */
  void stop() {
    Pipeline p = pipeline;
    if (p == null) {
      return;
    }
    pipeline = null;
    acks = null;
    queue.detachPipeline();
    p.abort();
    try {
      ackThread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    queue.clearStop();
  }

  /**
   * Sets up a pipeline to {@code t} for the current block after something changed (see
   * {@link #openAgain}). A DataNode that fails the setup is dropped (and replaced when possible,
   * {@code appended} and {@code hflushed} as stock's replacement policy asks) and the setup tried
   * again.
   */
  void reopen(Pipeline.Targets t, BlockConstructionStage stage, boolean appended,
      boolean hflushed) throws IOException {
    int maxTries = ctx.maxPipelineRecoveryRetries;
    for (int attempt = 1; ; attempt++) {
      try {
        openAgain(t, stage);
        return;
      } catch (Pipeline.SetupException e) {
        if (attempt >= maxTries || t.size() == 1) {
          throw new IOException("could not set up a pipeline for " + block + " of " + src
              + " after " + attempt + " tries: " + e.getMessage(), e);
        }
        LOG.warn("Pipeline setup failed file={} block={} pipeline={} dropping={} reason={}", src,
            block, t, t.nodes[e.badIndex], e.getMessage());
        repair.failed.add(t.nodes[e.badIndex]);
        t = repair.restore(t.without(e.badIndex), t, acknowledged(), appended, hflushed);
        if (stage == BlockConstructionStage.PIPELINE_SETUP_APPEND) {
          stage = BlockConstructionStage.PIPELINE_SETUP_APPEND_RECOVERY;
        }
      }
    }
  }

  /**
   * One try at setting up a pipeline to {@code t} for the current block: a new generation stamp
   * from the NameNode, the DataNodes told to resume at the acknowledged length, then the
   * NameNode told the new pipeline.
   *
   * @throws Pipeline.SetupException naming the DataNode that failed the setup
   */
  private void openAgain(Pipeline.Targets t, BlockConstructionStage stage) throws IOException {
    LocatedBlock bumped = ctx.namenode.updateBlockForPipeline(block, client.getClientName());
    long newStamp = bumped.getBlock().getGenerationStamp();
    token = bumped.getBlockToken();
    long acked = queue.bytesAcked();
    Pipeline p = Pipeline.open(ctx.sockets, client, t, block, token, stage, acked, bytesSent,
        newStamp, streamer.layout.checksum, lazyPersist, t.pinned(favoredNodes));
    ExtendedBlock updated = new ExtendedBlock(block.getBlockPoolId(), block.getBlockId(),
        acked, newStamp);
    try {
      ctx.reached(RepairHook.Step.PIPELINE_OPENED, src, t.addresses());
      ctx.namenode.updatePipeline(client.getClientName(), block, updated, t.nodes,
          t.storageIds);
    } catch (IOException e) {
      p.abort();
      throw e;
    }
    block = updated;
    Pipeline.Targets before = targets;
    targets = t;
    joinedAvoided.keySet().retainAll(Arrays.asList(t.addresses()));
    noteJoined(t, before);
    start(p);
    ctx.reached(RepairHook.Step.STREAMING_RESUMED, src, t.addresses());
  }

  /**
   * Makes {@code survivors} of a cut pipeline stop acknowledging before one of them is copied to
   * a newcomer, by setting them up as a pipeline of their own for recovery and closing it unused:
   * each DataNode then stops the writer still finishing the old pipeline's packets (stock
   * DataNodes do on {@code recoverRbw}). Otherwise a survivor could acknowledge packets that were
   * on their way at the cut after the copy was taken, show readers more than the newcomer holds,
   * and a tailing reader would see the visible length go back once the NameNode lists the
   * newcomer. It costs a generation stamp and a pipeline set up; one that fails is left to the
   * setup that follows, which drops whoever failed.
   */
  void freeze(Pipeline.Targets survivors) throws IOException {
    LocatedBlock bumped = ctx.namenode.updateBlockForPipeline(block, client.getClientName());
    try {
      Pipeline.open(ctx.sockets, client, survivors, block, bumped.getBlockToken(),
          BlockConstructionStage.PIPELINE_SETUP_STREAMING_RECOVERY, queue.bytesAcked(),
          bytesSent, bumped.getBlock().getGenerationStamp(), streamer.layout.checksum,
          lazyPersist, survivors.pinned(favoredNodes)).close();
    } catch (Pipeline.SetupException e) {
      LOG.info("Could not stop the survivors file={} block={} pipeline={} reason={}", src, block,
          survivors, e.getMessage());
    }
  }

  /**
   * Waits for the one DataNode of the pipeline, which said it is restarting (a rolling upgrade),
   * to come back on its ports with its replica, for at most
   * {@code dfs.client.datanode-restart.timeout}, and sets the pipeline up on it again at
   * {@code stage}: no other DataNode holds the block to rebuild it from. Stock clients wait
   * likewise; they also wait for a restarting DataNode on the client's own host, which Curtail
   * replaces like one that failed (a rebuild takes milliseconds, a restart seconds).
   */
  void awaitRestart(PipelineFailure f, BlockConstructionStage stage) throws IOException {
    long timeoutMs = client.getConf().getDatanodeRestartTimeout();
    long deadline = ctx.clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    LOG.info("Waiting for restarting datanode={} file={} block={} timeoutMs={}", targets.nodes[0],
        src, block, timeoutMs);
    while (true) {
      WriteContext.sleep(RESTART_POLL_MS);
      try {
        openAgain(targets, stage);
        break;
      } catch (Pipeline.SetupException e) {
        if (ctx.clock.nanoTime() - deadline >= 0) {
          throw new IOException(targets.nodes[0] + " did not come back within " + timeoutMs
              + " ms of saying it was restarting, and holds the only replica of " + block
              + " of " + src + ": " + e.getMessage(), f);
        }
      }
    }
    LOG.info("Restarted datanode={} resumes file={} block={}", targets.nodes[0], src, block);
  }
}
