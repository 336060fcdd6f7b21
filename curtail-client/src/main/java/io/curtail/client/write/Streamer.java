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
import org.apache.hadoop.util.DataChecksum;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves one file's packets from its {@link CurtailOutputStream} to DataNodes, block after block,
 * on a thread of its own: allocates blocks ({@link BlockAllocator}), has their pipelines set up
 * (each with an {@link AckReader} thread) by its {@link BlockPipeline}, and decides how to mend
 * a pipeline that stopped ({@link PipelineRepair}). A
 * failed DataNode, or one fail-fast judged slow (paper §4.2), takes one path: stop the pipeline,
 * requeue what is unacknowledged, get a new DataNode, rebuild the partial block on it, bump the
 * generation stamp, resume. States: {@link WriterState}, kept by the {@link WriteQueue}, the one
 * lock. Threads: the fields under the marker are the streamer thread's; the writer calls the
 * methods marked as its own; the client's periodic check calls {@link #check}.
 */
final class Streamer {
  private static final Logger LOG = LoggerFactory.getLogger(Streamer.class);
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final WriteContext ctx;
  private final DFSClient client;
  final String src;
  final PacketLayout layout;
  final PipelineRepair repair;
  private final WriteQueue queue;
  private final BlockAllocator allocator;
  private final Packet heartbeat;
  private final Thread thread;
  /** The block being written and its pipeline. */
  private final BlockPipeline pipe;
  /** Whether the writer has hflushed or hsynced: stock's replacement policy asks. */
  private volatile boolean hflushed;

  /** The file's replication, as the NameNode set it. */
  final int replication;

  // ---- The streamer thread's.
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
    this.pipe = new BlockPipeline(ctx, this, queue, flags.contains(CreateFlag.LAZY_PERSIST),
        favoredNodes, progress);
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
      s.pipe.takeUp(lastBlock, lastBlock.getBlock().getNumBytes());
      s.initialOffset = s.pipe.bytesSent;
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

  /** The DataNodes of the current block's pipeline; {@code orElse} before the first block. */
  int replicas(int orElse) {
    Pipeline.Targets t = pipe.targets;
    return t == null ? orElse : t.size();
  }

  /** Where the first byte written goes in its block: past the data of a continued block. */
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
    return pipe.block != null ? pipe.block : previous; // the stopped thread's: join made them visible
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
    pipe.check(scratch, stats);
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
      pipe.stop();
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
      pipe.send(p);
      return;
    }
    if (!pipe.open()) {
      if (pipe.block == null) {
        startBlock();
      } else {
        boolean appending = appendStage != null;
        long began = ctx.clock.nanoTime();
        Pipeline.Targets t = pipe.targets;
        if (appending && repair.replacementRequired(t, true, false)) {
          // The block lost replicas before this append: stock's policy wants one more first.
          t = repair.restore(t, t, pipe.acknowledged(), true, false);
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
    pipe.send(p);
    pipe.bytesSent = Math.max(pipe.bytesSent, end);
    if (last) {
      queue.awaitAllAcked();
      endBlock();
    }
  }

  // ---- Blocks.

  /** Allocates the next block and sets up its pipeline, avoiding DataNodes that failed. */
  private void startBlock() throws IOException {
    int retries = client.getConf().getNumBlockWriteRetry();
    long began = ctx.clock.nanoTime(); // the block's time includes its allocation and set-up
    for (int attempt = 0; ; attempt++) {
      pipe.takeUp(allocator.allocate(previous, repair.failed.current()), 0);
      queue.blockStarts(0);
      repair.blockStarted();
      try {
        pipe.create();
        ctx.blocks.increment();
        observe(0, began);
        return;
      } catch (Pipeline.SetupException e) {
        DatanodeInfo bad = pipe.targets.nodes[e.badIndex];
        LOG.info("Abandoning block={} file={} datanode={} reason={}", pipe.block, src, bad,
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
   * Starts watching the current block, which held {@code bytesBefore} already, from
   * {@code beganNanos}: when its allocation (or, appended to, its pipeline's set-up) began.
   */
  private void observe(long bytesBefore, long beganNanos) {
    observer = ctx.observe(src, pipe.block.getBlockId(), traceParent, beganNanos);
    observer.dataNodes(Arrays.asList(pipe.targets.addresses()));
    observedFrom = bytesBefore;
  }

  /** The block's end-of-block packet is acknowledged: the replicas are final. */
  private void endBlock() throws IOException {
    pipe.stop();
    previous = pipe.acknowledged();
    Pipeline.Targets targets = pipe.targets;
    observer.dataNodes(Arrays.asList(targets.addresses())); // the pipeline that finished it
    if (observer != BlockObserver.NONE) {
      BlockSamples.tell(observer, targets, BlockSamples.windows(ctx, targets),
          queue.bytesAcked() - observedFrom, ctx.clock.nanoTime());
    }
    observer.done(queue.bytesAcked() - observedFrom, ctx.clock.nanoTime());
    observer = BlockObserver.NONE;
    pipe.clear();
    repair.blockEnded();
    queue.moveTo(WriterState.IDLE);
  }

  private void abandonEmptyBlock() {
    if (pipe.block == null || queue.bytesAcked() > 0 || appendStage != null) {
      return;
    }
    try {
      allocator.abandon(pipe.block);
    } catch (IOException e) {
      LOG.warn("Could not abandon block={} file={}", pipe.block, src, e);
    }
    pipe.dropBlock();
  }

  /** {@link BlockPipeline#reopen}, with what stock's replacement policy asks of this writer. */
  private void reopen(Pipeline.Targets t, BlockConstructionStage stage) throws IOException {
    pipe.reopen(t, stage, appended, hflushed);
  }

  /**
   * Recovers from a failed pipeline: unacknowledged packets go back to the queue, the DataNode
   * to blame (the first if none can be) is dropped and replaced, and the pipeline set up again.
   * A lone DataNode that said it is restarting is waited for ({@link BlockPipeline#awaitRestart}).
   */
  private void recover(PipelineFailure f) throws IOException {
    pipe.stop();
    queue.moveTo(WriterState.RECOVERING);
    boolean closing = queue.requeueInFlight();
    ctx.recoveries.increment();
    ClientMetrics.JVM.pipelineRecoveries.increment();
    long acked = queue.bytesAcked();
    repair.recovering(pipe.block, acked, f);
    Pipeline.Targets targets = pipe.targets;
    if (f.restarting && targets.size() == 1) {
      pipe.awaitRestart(f, closing ? BlockConstructionStage.PIPELINE_CLOSE_RECOVERY
          : BlockConstructionStage.PIPELINE_SETUP_STREAMING_RECOVERY);
      if (closing) {
        endRecovered();
      }
      return;
    }
    int bad = Math.max(0, f.badIndex);
    LOG.warn("Recovering file={} block={} without datanode={} reason={}", src, pipe.block,
        targets.nodes[bad], f.getMessage());
    repair.failed.add(targets.nodes[bad]);
    observer.replaced(bad, targets.nodes[bad].getXferAddr(), "", "failed",
        String.valueOf(f.getMessage()));
    if (acked == 0 && appendStage == null && !closing) {
      // Nothing on disk to keep: a fresh block is simpler than a recovered one.
      abandonEmptyBlock();
      if (pipe.block == null) {
        pipe.clear();
        queue.moveTo(WriterState.IDLE);
        return;
      }
    }
    if (targets.size() == 1) {
      throw new IOException("all DataNodes of the pipeline for " + pipe.block + " of " + src
          + " failed; last: " + f.getMessage(), f);
    }
    Pipeline.Targets survivors = targets.without(bad);
    if (closing) {
      closeRecovered(survivors); // the block is complete on the survivors
      return;
    }
    pipe.freeze(survivors); // one of them is about to be copied to a newcomer
    reopen(repair.restore(survivors, targets, pipe.acknowledged(), appended, hflushed),
        BlockConstructionStage.PIPELINE_SETUP_STREAMING_RECOVERY);
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
    pipe.stop();
    queue.blockEndDone();
    endBlock();
  }

  /** Replaces the DataNode fail-fast judged slow, or keeps the pipeline if that fails. */
  private void replaceSlow(PipelineFailure stop) throws IOException {
    if (queue.blockEndAcked()) {
      // Judged while the block's end was on its way back: every replica is final, and a
      // recovery would find none to recover. Nothing is left to replace.
      if (pipe.block != null) {
        LOG.info("Not replacing file={} block={} datanode={}: the block ended first", src,
            pipe.block, pipe.targets.nodes[stop.failFast.replaceIndex()]);
        endBlock();
      }
      return;
    }
    pipe.stop();
    queue.moveTo(WriterState.REPLACING);
    Pipeline.Targets before = pipe.targets;
    if (queue.requeueInFlight()) {
      closeRecovered(before); // the block's data was all acknowledged meanwhile
      return;
    }
    ctx.reached(RepairHook.Step.REPLACEMENT_DECIDED, src, before.addresses());
    long rebuildStart = ctx.clock.nanoTime();
    pipe.freeze(before.without(stop.failFast.replaceIndex()));
    int abortedBefore = repair.abortedAttempts();
    Pipeline.Targets next = repair.replaceSlow(stop, before, pipe.acknowledged(), layout.packetBytes,
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
      LOG.info("Replaced file={} block={} datanode={} with={} evidence={}", src, pipe.block,
          r.replaced(), newcomer, evidence);
    }
    reopen(next != null ? next : before, BlockConstructionStage.PIPELINE_SETUP_STREAMING_RECOVERY);
  }
}
