package io.curtail.client.write;

import io.curtail.client.metrics.ClientMetrics;
import io.curtail.client.trace.BlockObserver;
import io.curtail.client.trace.Tracing;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.wire.Abortable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.BlockConstructionStage;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.DataChecksum;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves one file's packets from its {@link CurtailOutputStream} to DataNodes, block after block,
 * on a thread of its own: allocates blocks ({@link BlockAllocator}), sets up pipelines (each with
 * an {@link AckReader} thread), and mends a pipeline that stopped ({@link PipelineRepair}). A
 * failed DataNode, or one fail-fast judged slow (paper §4.2), takes one path: stop the pipeline,
 * requeue what is unacknowledged, get a new DataNode, rebuild the partial block on it, bump the
 * generation stamp, resume. States: {@link WriterState}, kept by the {@link WriteQueue}, the one
 * lock. Threads: the fields under the marker are the streamer thread's; the writer calls the
 * methods marked as its own; the client's periodic check calls {@link #check}.
 */
final class Streamer {
  private static final Logger LOG = LoggerFactory.getLogger(Streamer.class);
  private static final AtomicInteger THREADS = new AtomicInteger();
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
  final String src;
  final PacketLayout layout;
  final PipelineRepair repair;
  private final WriteQueue queue;
  private final BlockAllocator allocator;
  private final String[] favoredNodes;
  private final boolean lazyPersist;
  private final Progressable progress;
  private final Packet heartbeat;
  private final Thread thread;
  /** The current pipeline's ack reader, for {@link #check}; null between pipelines. */
  private volatile AckReader acks;
  /** Whether the writer has hflushed or hsynced: stock's replacement policy asks. */
  private volatile boolean hflushed;

  // ---- The streamer thread's.
  private ExtendedBlock block;
  private Token<BlockTokenIdentifier> token;
  /** The file's replication, as the NameNode set it. */
  final int replication;
  /** Written by the streamer thread alone; volatile for {@link #replicas}. */
  private volatile Pipeline.Targets targets;
  private Pipeline pipeline;
  private Thread ackThread;
  private long bytesSent;
  private ExtendedBlock previous;
  /** The trace context of the thread that created the stream: blocks' spans are its children. */
  private final Object traceParent = Tracing.currentContext();
  /** Who watches the current block (its statistics record, its span); nobody between blocks. */
  private BlockObserver observer = BlockObserver.NONE;
  /** Bytes the current block held before this writer's: an appended block's, else 0. */
  private long observedFrom;
  /** Set while the pipeline of an appended block has yet to be set up. */
  private BlockConstructionStage appendStage;
  /** Whether this writer continues a block an append reopened (set before the thread starts). */
  private boolean appended;
  /** Where the writer's first byte goes in its block: past the data of a continued block. */
  private long initialOffset;

  private Streamer(WriteContext ctx, String src, HdfsFileStatus stat, EnumSet<CreateFlag> flags,
      Progressable progress, DataChecksum checksum, String[] favoredNodes) {
    this.ctx = ctx;
    this.client = ctx.client;
    this.src = src;
    this.layout = new PacketLayout(stat.getBlockSize(), checksum,
        client.getConf().getWritePacketSize(), ctx.maxPacketsInFlight);
    this.replication = stat.getReplication();
    this.repair = new PipelineRepair(ctx, src, stat.getFileId(), stat.getReplication());
    this.queue = new WriteQueue(src, ctx.clock);
    this.allocator = new BlockAllocator(ctx, src, stat.getFileId(), stat.getReplication(),
        favoredNodes, flags);
    this.favoredNodes = favoredNodes;
    this.lazyPersist = flags.contains(CreateFlag.LAZY_PERSIST);
    this.progress = progress;
    this.heartbeat = Packet.heartbeat(checksum);
    this.thread = new Thread(this::run, "curtail-streamer-" + THREADS.incrementAndGet() + " " + src);
    thread.setDaemon(true);
  }

  /**
   * Starts the streamer of a file being created ({@code lastBlock} null) or appended to.
   *
   * @param lastBlock the file's last block when an append continues it (the NameNode returns it
   *     only if it has room and no new block was asked for), else null
   */
  static Streamer start(WriteContext ctx, String src, HdfsFileStatus stat,
      EnumSet<CreateFlag> flags, Progressable progress, DataChecksum checksum,
      String[] favoredNodes, LocatedBlock lastBlock) {
    Streamer s = new Streamer(ctx, src, stat, flags, progress, checksum, favoredNodes);
    if (lastBlock != null && !flags.contains(CreateFlag.NEW_BLOCK)) {
      s.block = lastBlock.getBlock();
      s.token = lastBlock.getBlockToken();
      s.targets = Pipeline.Targets.of(lastBlock);
      s.bytesSent = s.initialOffset = s.block.getNumBytes();
      s.queue.blockStarts(s.initialOffset);
      s.appendStage = BlockConstructionStage.PIPELINE_SETUP_APPEND;
      s.appended = true;
    } else if (lastBlock != null) {
      s.previous = lastBlock.getBlock();
    }
    s.thread.start();
    return s;
  }

  // ---- The writer's.

  /** Where the first byte written goes in its block: past the data of a continued block. */
  /** The DataNodes of the current block's pipeline; {@code orElse} before the first block. */
  int replicas(int orElse) {
    Pipeline.Targets t = targets;
    return t == null ? orElse : t.size();
  }

  long offsetInBlock() {
    return initialOffset;
  }

  /** Queues a sealed packet, waiting while too many are unacknowledged. */
  void enqueue(Packet packet) throws IOException {
    queue.enqueue(packet, ctx.maxPacketsInFlight);
  }

  /** Waits until the packet numbered {@code seqno} and all before it are acknowledged. */
  void awaitAcked(long seqno) throws IOException {
    hflushed = true;
    queue.awaitAcked(seqno);
  }

  /**
   * Waits for every queued packet to be acknowledged and the streamer to stop; returns the file's
   * last block as the NameNode should complete it (null for a file without blocks).
   */
  ExtendedBlock finish() throws IOException {
    queue.finishing();
    try {
      thread.join();
    } catch (InterruptedException e) { // cleared, as awaitAcked clears it
      throw new InterruptedIOException("interrupted while finishing " + src);
    }
    queue.checkFailure();
    return block != null ? block : previous; // the stopped thread's: join made them visible
  }

  /** Stops at once, dropping whatever is unacknowledged (the writer died or gave up). */
  void abort(IOException why) {
    Abortable p = queue.fail(why);
    if (p != null) {
      p.abort();
    }
  }

  /** For the client's periodic check: judges the pipeline even if it stopped acking. */
  void check(long[] scratch, List<LatencyStats> stats) {
    AckReader r = acks;
    if (r != null) {
      r.check(scratch, stats);
    }
  }

  // ---- The streamer thread.

  private void run() {
    long idleNanos = TimeUnit.MILLISECONDS.toNanos(client.getConf().getSocketTimeout() / 2);
    boolean finished = false; // false if anything, an Error too, ends the loop early
    try {
      for (Packet next; (next = nextPacket(idleNanos)) != null; ) {
        try {
          step(next);
        } catch (PipelineFailure stop) {
          mend(stop);
        }
      }
      finished = true;
    } catch (IOException | RuntimeException e) {
      if (queue.state() != WriterState.BROKEN) {
        LOG.warn("Writing failed file={}", src, e);
      }
      queue.fail(e instanceof IOException ? (IOException) e : new IOException(e));
      observer.failed(e.getMessage());
      observer.done(queue.bytesAcked() - observedFrom, ctx.clock.nanoTime());
      observer = BlockObserver.NONE;
      abandonEmptyBlock();
    } finally {
      stopPipeline();
      queue.streamerStopped(finished);
    }
  }

  /** The next packet to send, mending the pipeline first if it stopped meanwhile. */
  private Packet nextPacket(long idleNanos) throws IOException {
    while (true) {
      try {
        return queue.nextToSend(idleNanos, heartbeat);
      } catch (PipelineFailure stop) {
        mend(stop);
      }
    }
  }

  private void mend(PipelineFailure stop) throws IOException {
    if (stop.isFailFast()) {
      replaceSlow(stop);
    } else {
      recover(stop);
    }
  }

  private void step(Packet p) throws IOException {
    if (p == heartbeat) {
      sendOnPipeline(p);
      return;
    }
    if (pipeline == null) {
      if (block == null) {
        startBlock();
      } else {
        boolean appending = appendStage != null;
        long began = ctx.clock.nanoTime();
        Pipeline.Targets t = targets;
        if (appending && repair.replacementRequired(t, true, false)) {
          // The block lost replicas before this append: stock's policy wants one more first.
          t = repair.restore(t, t, acknowledged(), true, false);
        }
        reopen(t, appending ? appendStage
            : BlockConstructionStage.PIPELINE_SETUP_STREAMING_RECOVERY);
        appendStage = null;
        if (appending) { // the continued block is watched from here, for the bytes appended
          observe(initialOffset, began);
        }
      }
    }
    // Read before sending: once acknowledged, p may be recycled into the writer's next packet.
    long end = p.end();
    boolean last = p.lastInBlock;
    queue.markSent(p);
    sendOnPipeline(p);
    bytesSent = Math.max(bytesSent, end);
    if (last) {
      queue.awaitAllAcked();
      endBlock();
    }
  }

  private void sendOnPipeline(Packet p) throws PipelineFailure {
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

  // ---- Blocks.

  /** Allocates the next block and sets up its pipeline, avoiding DataNodes that failed. */
  private void startBlock() throws IOException {
    int retries = client.getConf().getNumBlockWriteRetry();
    long began = ctx.clock.nanoTime(); // the block's time includes its allocation and set-up
    for (int attempt = 0; ; attempt++) {
      LocatedBlock located = allocator.allocate(previous, repair.failed.current());
      block = located.getBlock();
      token = located.getBlockToken();
      targets = Pipeline.Targets.of(located);
      queue.blockStarts(0);
      bytesSent = 0;
      repair.blockStarted();
      try {
        startPipeline(createPipeline());
        ctx.blocks.increment();
        observe(0, began);
        return;
      } catch (Pipeline.SetupException e) {
        DatanodeInfo bad = targets.nodes[e.badIndex];
        LOG.info("Abandoning block={} file={} datanode={} reason={}", block, src, bad,
            e.getMessage());
        repair.failed.add(bad);
        abandonEmptyBlock();
        if (attempt >= retries) { // retries after the first try, as stock counts them
          throw new IOException("Unable to create a new block for " + src + " after "
              + (attempt + 1) + " tries; last: " + e.getMessage(), e);
        }
      }
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
  private Pipeline createPipeline() throws IOException {
    ExtendedBlock allocated = block;
    while (true) {
      try {
        Pipeline p = Pipeline.open(ctx.sockets, client, targets, block, token,
            BlockConstructionStage.PIPELINE_SETUP_CREATE, 0, 0, block.getGenerationStamp(),
            layout.checksum, lazyPersist, targets.pinned(favoredNodes));
        if (block != allocated) {
          try {
            ctx.namenode.updatePipeline(client.getClientName(), allocated, block, targets.nodes,
                targets.storageIds);
          } catch (IOException e) {
            p.abort();
            throw e;
          }
        }
        return p;
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

  /**
   * Starts watching the current block, which held {@code bytesBefore} already, from
   * {@code beganNanos}: when its allocation (or, appended to, its pipeline's set-up) began.
   */
  private void observe(long bytesBefore, long beganNanos) {
    observer = ctx.observe(src, block.getBlockId(), traceParent, beganNanos);
    observer.dataNodes(Arrays.asList(targets.addresses()));
    observedFrom = bytesBefore;
  }

  /** The block's end-of-block packet is acknowledged: the replicas are final. */
  private void endBlock() throws IOException {
    stopPipeline();
    previous = acknowledged();
    observer.dataNodes(Arrays.asList(targets.addresses())); // the pipeline that finished it
    if (observer != BlockObserver.NONE) {
      BlockSamples.tell(observer, targets, BlockSamples.windows(ctx, targets),
          queue.bytesAcked() - observedFrom, ctx.clock.nanoTime());
    }
    observer.done(queue.bytesAcked() - observedFrom, ctx.clock.nanoTime());
    observer = BlockObserver.NONE;
    block = null;
    targets = null;
    repair.blockEnded();
    queue.moveTo(WriterState.IDLE);
  }

  private void abandonEmptyBlock() {
    if (block == null || queue.bytesAcked() > 0 || appendStage != null) {
      return;
    }
    try {
      allocator.abandon(block);
    } catch (IOException e) {
      LOG.warn("Could not abandon block={} file={}", block, src, e);
    }
    block = null;
  }

  /** The current block as every DataNode of its pipeline has acknowledged it. */
  private ExtendedBlock acknowledged() {
    return new ExtendedBlock(block.getBlockPoolId(), block.getBlockId(), queue.bytesAcked(),
        block.getGenerationStamp());
  }

  // ---- Pipelines.

  private void startPipeline(Pipeline p) throws IOException {
    try {
      queue.pipelineStarted(p);
    } catch (IOException broken) {
      p.abort();
      throw broken;
    }
    pipeline = p;
    AckReader reader = new AckReader(ctx, this, queue, p, block, progress);
    ackThread = new Thread(reader, "curtail-acks " + block);
    ackThread.setDaemon(true);
    ackThread.start();
    acks = reader;
  }

  /** Cuts the pipeline and waits for its ack reader to stop. */
  private void stopPipeline() {
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
   * {@link #openAgain}). A DataNode that fails the setup is dropped (and replaced when possible)
   * and the setup tried again.
   */
  private void reopen(Pipeline.Targets t, BlockConstructionStage stage) throws IOException {
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
        newStamp, layout.checksum, lazyPersist, t.pinned(favoredNodes));
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
    targets = t;
    startPipeline(p);
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
  private void freeze(Pipeline.Targets survivors) throws IOException {
    LocatedBlock bumped = ctx.namenode.updateBlockForPipeline(block, client.getClientName());
    try {
      Pipeline.open(ctx.sockets, client, survivors, block, bumped.getBlockToken(),
          BlockConstructionStage.PIPELINE_SETUP_STREAMING_RECOVERY, queue.bytesAcked(),
          bytesSent, bumped.getBlock().getGenerationStamp(), layout.checksum, lazyPersist,
          survivors.pinned(favoredNodes)).close();
    } catch (Pipeline.SetupException e) {
      LOG.info("Could not stop the survivors file={} block={} pipeline={} reason={}", src, block,
          survivors, e.getMessage());
    }
  }

  /**
   * Recovers from a failed pipeline: unacknowledged packets go back to the queue, the DataNode
   * to blame (the first if none can be) is dropped and replaced, and the pipeline set up again.
   */
  private void recover(PipelineFailure f) throws IOException {
    stopPipeline();
    queue.moveTo(WriterState.RECOVERING);
    boolean closing = queue.requeueInFlight();
    ctx.recoveries.increment();
    ClientMetrics.JVM.pipelineRecoveries.increment();
    long acked = queue.bytesAcked();
    repair.recovering(block, acked, f);
    if (f.restarting && targets.size() == 1) {
      awaitRestart(f, closing);
      return;
    }
    int bad = Math.max(0, f.badIndex);
    LOG.warn("Recovering file={} block={} without datanode={} reason={}", src, block,
        targets.nodes[bad], f.getMessage());
    repair.failed.add(targets.nodes[bad]);
    observer.replaced(bad, targets.nodes[bad].getXferAddr(), "", "failed",
        String.valueOf(f.getMessage()));
    if (acked == 0 && appendStage == null && !closing) {
      // Nothing on disk to keep: a fresh block is simpler than a recovered one.
      abandonEmptyBlock();
      if (block == null) {
        bytesSent = 0;
        targets = null;
        queue.moveTo(WriterState.IDLE);
        return;
      }
    }
    if (targets.size() == 1) {
      throw new IOException("all DataNodes of the pipeline for " + block + " of " + src
          + " failed; last: " + f.getMessage(), f);
    }
    Pipeline.Targets survivors = targets.without(bad);
    if (closing) {
      closeRecovered(survivors); // the block is complete on the survivors
      return;
    }
    freeze(survivors); // one of them is about to be copied to a newcomer
    reopen(repair.restore(survivors, targets, acknowledged(), appended, hflushed),
        BlockConstructionStage.PIPELINE_SETUP_STREAMING_RECOVERY);
  }

  /**
   * Waits for the one DataNode of the pipeline, which said it is restarting (a rolling upgrade),
   * to come back on its ports with its replica, for at most
   * {@code dfs.client.datanode-restart.timeout}, and sets the pipeline up on it again: no other
   * DataNode holds the block to rebuild it from. Stock clients wait likewise; they also wait for
   * a restarting DataNode on the client's own host, which Curtail replaces like one that failed
   * (a rebuild takes milliseconds, a restart seconds).
   */
  private void awaitRestart(PipelineFailure f, boolean closing) throws IOException {
    long timeoutMs = client.getConf().getDatanodeRestartTimeout();
    long deadline = ctx.clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    LOG.info("Waiting for restarting datanode={} file={} block={} timeoutMs={}", targets.nodes[0],
        src, block, timeoutMs);
    while (true) {
      WriteContext.sleep(RESTART_POLL_MS);
      try {
        openAgain(targets, closing ? BlockConstructionStage.PIPELINE_CLOSE_RECOVERY
            : BlockConstructionStage.PIPELINE_SETUP_STREAMING_RECOVERY);
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
    if (closing) {
      endRecovered();
    }
  }

  /**
   * Finishes a block whose end-of-block packet was in flight when its pipeline stopped: the
   * DataNodes in {@code t} finalise their replicas during the recovery setup itself, and the
   * NameNode re-replicates a finalised block that is short.
   */
  private void closeRecovered(Pipeline.Targets t) throws IOException {
    reopen(t, BlockConstructionStage.PIPELINE_CLOSE_RECOVERY);
    endRecovered();
  }

  /** Ends a block whose replicas a close-recovery setup just finalised. */
  private void endRecovered() throws IOException {
    stopPipeline();
    queue.blockEndDone();
    endBlock();
  }

  /** Replaces the DataNode fail-fast judged slow, or keeps the pipeline if that fails. */
  private void replaceSlow(PipelineFailure stop) throws IOException {
    stopPipeline();
    queue.moveTo(WriterState.REPLACING);
    Pipeline.Targets before = targets;
    if (queue.requeueInFlight()) {
      closeRecovered(before); // the block's data was all acknowledged meanwhile
      return;
    }
    ctx.reached(RepairHook.Step.REPLACEMENT_DECIDED, src, before.addresses());
    long rebuildStart = ctx.clock.nanoTime();
    freeze(before.without(stop.failFast.replaceIndex()));
    int abortedBefore = repair.abortedAttempts();
    Pipeline.Targets next = repair.replaceSlow(stop, before, acknowledged(), layout.packetBytes,
        layout.packetsLeftInBlock(queue.bytesAcked()));
    observer.rebuilt(ctx.clock.nanoTime() - rebuildStart,
        repair.abortedAttempts() - abortedBefore);
    if (next != null) {
      String newcomer = next.nodes[PipelineRepair.newcomer(before, next)].getXferAddr();
      Replacement r = new Replacement(before.addresses(), stop.failFast.replaceIndex(), newcomer,
          stop.attributedExactly);
      ctx.replaced(r);
      BlockSamples.tell(observer, before, stop.stats, queue.bytesAcked() - observedFrom,
          rebuildStart);
      String evidence = "p95 per DataNode " + stop.stats + ", " + stop.failFast + ", "
          + r.howFound();
      observer.replaced(r.position(), r.replaced(), newcomer, "slow", evidence);
      LOG.info("Replaced file={} block={} datanode={} with={} evidence={}", src, block,
          r.replaced(), newcomer, evidence);
    }
    reopen(next != null ? next : before, BlockConstructionStage.PIPELINE_SETUP_STREAMING_RECOVERY);
  }
}
