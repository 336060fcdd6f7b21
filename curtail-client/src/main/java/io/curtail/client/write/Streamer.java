package io.curtail.client.write;

import io.curtail.client.policy.FailFastDecision;
import io.curtail.client.policy.WriteAttribution;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.track.LatencyWindow;
import io.curtail.client.track.NodeId;
import io.curtail.client.track.NodeTracker;
import io.curtail.wire.AckReport;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.BlockConstructionStage;
import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.server.namenode.NotReplicatedYetException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.DataChecksum;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves one file's packets from its {@link CurtailOutputStream} to DataNodes, block after block,
 * on its own thread, with one more thread per pipeline reading acks. It allocates blocks, sets up
 * pipelines, recovers them when a DataNode fails, and replaces a slow DataNode when the
 * {@code FailFast} policy says replacing pays (paper §4.2).
 *
 * <p>Recovery and fail-fast take one path: stop the pipeline, put unacknowledged packets back at
 * the head of the queue, get a new DataNode from the NameNode, rebuild the partial block on it
 * from a replica (the fastest, for fail-fast), bump the generation stamp, and resume.
 *
 * <p>Locking: the packet queues, acknowledgement state and failures are guarded by this object's
 * monitor, shared by the writing thread, the streamer thread and the ack reader. Everything else is
 * the streamer thread's alone.
 */
final class Streamer {
  private static final Logger LOG = LoggerFactory.getLogger(Streamer.class);
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final WriteContext ctx;
  private final DFSClient client;
  private final String src;
  private final long fileId;
  private final int replication;
  final long blockSize;
  final DataChecksum checksum;
  /** Full chunks in a packet of the configured size (dfs.client-write-packet-size). */
  final int chunksPerPacket;
  private final String[] favoredNodes;
  private final EnumSet<AddBlockFlag> addBlockFlags;
  private final boolean lazyPersist;
  private final Progressable progress;
  private final Thread thread;

  // Shared; guarded by this.
  private final ArrayDeque<Packet> queued = new ArrayDeque<>();
  private final ArrayDeque<Packet> inFlight = new ArrayDeque<>();
  private long lastAckedSeqno = -1;
  private long bytesAcked;
  private IOException failure;
  private PipelineFailure ackFailure;
  private boolean finishing;
  private boolean finished;

  // The streamer thread's.
  private ExtendedBlock block;
  private Token<BlockTokenIdentifier> token;
  private Pipeline.Targets targets;
  private volatile Pipeline pipeline;
  /**
   * Whether the current pipeline's last attributed ack told every DataNode's share apart (set by
   * its ack reader): see {@link Replacement#attributedExactly}.
   */
  private volatile boolean attributedExactly;
  private Thread ackReader;
  private long bytesSent;
  private ExtendedBlock previous;
  private BlockConstructionStage appendStage;
  private final Set<DatanodeInfo> failed = new LinkedHashSet<>();
  private volatile int abortedAttempts;
  private volatile boolean noSpare;
  private int recoveriesWithoutProgress;
  private long ackedAtLastRecovery = -1;
  /** The streamer thread's buffer for latency statistics (the ack reader has its own). */
  private final long[] scratch = new long[LatencyWindow.CAPACITY];
  /** Bytes of data in a full packet, the unit of the fail-fast cost model. */
  private final int packetBytes;

  /**
   * A pipeline failed, or was stopped on purpose to replace a slow DataNode. {@code badIndex} is
   * the DataNode to blame (-1 if none can be); a fail-fast stop carries the policy's decision and
   * the statistics it was made on.
   */
  private static final class PipelineFailure extends IOException {
    final int badIndex;
    final FailFastDecision failFast;
    final List<LatencyStats> stats;

    PipelineFailure(String message, int badIndex, Throwable cause) {
      this(message, badIndex, cause, null, null);
    }

    PipelineFailure(String message, int badIndex, Throwable cause, FailFastDecision failFast,
        List<LatencyStats> stats) {
      super(message, cause);
      this.badIndex = badIndex;
      this.failFast = failFast;
      this.stats = stats;
    }
  }

  private Streamer(WriteContext ctx, String src, HdfsFileStatus stat, EnumSet<CreateFlag> flags,
      Progressable progress, DataChecksum checksum, String[] favoredNodes) {
    this.ctx = ctx;
    this.client = ctx.client;
    this.src = src;
    this.fileId = stat.getFileId();
    this.replication = stat.getReplication();
    this.blockSize = stat.getBlockSize();
    this.checksum = checksum;
    int chunk = checksum.getBytesPerChecksum() + checksum.getChecksumSize();
    int body = client.getConf().getWritePacketSize()
        - org.apache.hadoop.hdfs.protocol.datatransfer.PacketHeader.PKT_MAX_HEADER_LEN;
    this.chunksPerPacket = Math.max(1, body / chunk);
    this.packetBytes = chunksPerPacket * checksum.getBytesPerChecksum();
    this.favoredNodes = favoredNodes;
    this.addBlockFlags = EnumSet.noneOf(AddBlockFlag.class);
    if (flags.contains(CreateFlag.NO_LOCAL_WRITE)) {
      addBlockFlags.add(AddBlockFlag.NO_LOCAL_WRITE);
    }
    if (flags.contains(CreateFlag.IGNORE_CLIENT_LOCALITY)) {
      addBlockFlags.add(AddBlockFlag.IGNORE_CLIENT_LOCALITY);
    }
    if (flags.contains(CreateFlag.NO_LOCAL_RACK)) {
      addBlockFlags.add(AddBlockFlag.NO_LOCAL_RACK);
    }
    this.lazyPersist = flags.contains(CreateFlag.LAZY_PERSIST);
    this.progress = progress;
    this.thread = new Thread(this::run, "curtail-streamer-" + THREADS.incrementAndGet() + " " + src);
    thread.setDaemon(true);
  }

  static Streamer forCreate(WriteContext ctx, String src, HdfsFileStatus stat,
      EnumSet<CreateFlag> flags, Progressable progress, DataChecksum checksum,
      String[] favoredNodes) {
    Streamer s = new Streamer(ctx, src, stat, flags, progress, checksum, favoredNodes);
    s.thread.start();
    return s;
  }

  /**
   * @param lastBlock the file's last block when the append continues it (the NameNode returns it
   *     only if it has room and no new block was asked for), else null
   */
  static Streamer forAppend(WriteContext ctx, String src, HdfsFileStatus stat,
      EnumSet<CreateFlag> flags, Progressable progress, DataChecksum checksum,
      String[] favoredNodes, LocatedBlock lastBlock) {
    Streamer s = new Streamer(ctx, src, stat, flags, progress, checksum, favoredNodes);
    if (lastBlock != null && !flags.contains(CreateFlag.NEW_BLOCK)) {
      s.block = lastBlock.getBlock();
      s.token = lastBlock.getBlockToken();
      s.targets = targetsOf(lastBlock);
      s.bytesAcked = s.bytesSent = s.block.getNumBytes();
      s.appendStage = BlockConstructionStage.PIPELINE_SETUP_APPEND;
    } else if (lastBlock != null) {
      s.previous = lastBlock.getBlock();
    }
    s.thread.start();
    return s;
  }

  // ---- The writing thread's side.

  /** Where the first byte written goes in its block: past the data of a continued block. */
  synchronized long offsetInBlock() {
    return appendStage != null ? bytesAcked : 0;
  }

  /** Queues a sealed packet, waiting while too many are unacknowledged. */
  synchronized void enqueue(Packet packet) throws IOException {
    while (failure == null && queued.size() + inFlight.size() >= ctx.maxPacketsInFlight) {
      waitHere();
    }
    checkFailure();
    queued.addLast(packet);
    notifyAll();
  }

  /** Waits until the packet numbered {@code seqno} and all before it are acknowledged. */
  synchronized void awaitAcked(long seqno) throws IOException {
    while (failure == null && lastAckedSeqno < seqno) {
      waitHere();
    }
    checkFailure();
  }

  /**
   * Waits for every queued packet to be acknowledged and the streamer to stop; returns the file's
   * last block as the NameNode should complete it (null for a file without blocks).
   */
  ExtendedBlock finish() throws IOException {
    synchronized (this) {
      finishing = true;
      notifyAll();
      while (!finished) {
        waitHere();
      }
      checkFailure();
    }
    return block != null ? block : previous;
  }

  /** Stops at once, dropping whatever is unacknowledged (the writer died or gave up). */
  void abort(IOException why) {
    fail(why);
    Pipeline p = pipeline;
    if (p != null) {
      p.abort();
    }
  }

  private void waitHere() throws InterruptedIOException {
    try {
      wait();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while writing " + src);
    }
  }

  private void checkFailure() throws IOException {
    if (failure != null) {
      throw new IOException("writing " + src + " failed: " + failure.getMessage(), failure);
    }
  }

  private synchronized void fail(IOException e) {
    if (failure == null) {
      failure = e;
    }
    notifyAll();
  }

  // ---- The streamer thread.

  private void run() {
    try {
      while (true) {
        try {
          Packet next = nextPacket();
          if (next == null) {
            break;
          }
          step(next);
        } catch (PipelineFailure f) {
          recover(f);
        }
      }
    } catch (IOException | RuntimeException e) {
      if (failure == null) {
        LOG.warn("Writing {} failed", src, e);
      }
      fail(e instanceof IOException ? (IOException) e : new IOException(e));
      abandonEmptyBlock();
    } finally {
      stopPipeline();
      synchronized (this) {
        finished = true;
        notifyAll();
      }
    }
  }

  /**
   * The packet to send next, left at the head of the queue until sent; a heartbeat when the
   * pipeline has been idle for half the socket timeout; null once the writer finished and every
   * packet is acknowledged.
   */
  private Packet nextPacket() throws IOException {
    long idleLimit = TimeUnit.MILLISECONDS.toNanos(client.getConf().getSocketTimeout() / 2);
    long idleSince = System.nanoTime();
    synchronized (this) {
      while (true) {
        if (failure != null) {
          throw failure;
        }
        if (ackFailure != null) {
          throw ackFailure;
        }
        if (!queued.isEmpty() && (!queued.peekFirst().lastInBlock || inFlight.isEmpty())) {
          // A block's end goes only once all its data is acknowledged.
          return queued.peekFirst();
        }
        if (finishing && inFlight.isEmpty()) {
          return null;
        }
        long left = idleLimit - (System.nanoTime() - idleSince);
        if (left <= 0 && pipeline != null) {
          return Packet.heartbeat(checksum);
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(this, Math.max(1, left > 0 ? left : idleLimit));
        } catch (InterruptedException e) {
          throw new InterruptedIOException("streamer of " + src + " interrupted");
        }
      }
    }
  }

  private void step(Packet p) throws IOException {
    if (p.isHeartbeat()) {
      sendOnPipeline(p);
      return;
    }
    if (pipeline == null) {
      if (block == null) {
        startBlock();
      } else {
        reopen(targets, appendStage != null ? appendStage
            : BlockConstructionStage.PIPELINE_SETUP_STREAMING_RECOVERY);
        appendStage = null;
      }
    }
    send(p);
    if (p.lastInBlock) {
      awaitAllAcked();
      endBlock();
    }
  }

  private void send(Packet p) throws IOException {
    synchronized (this) {
      Packet head = queued.pollFirst();
      if (head != p) {
        throw new IllegalStateException("queue head changed under the streamer of " + src);
      }
      inFlight.addLast(p);
      p.sentNanos = System.nanoTime();
    }
    sendOnPipeline(p);
    bytesSent = Math.max(bytesSent, p.end());
  }

  private void sendOnPipeline(Packet p) throws PipelineFailure {
    try {
      pipeline.send(p);
    } catch (IOException e) {
      throw failureOf(e);
    }
  }

  /** The ack reader's diagnosis when it has one (it sees DataNodes' error replies), else none. */
  private synchronized PipelineFailure failureOf(IOException e) {
    return ackFailure != null ? ackFailure
        : new PipelineFailure("sending to " + targets + " failed: " + e, -1, e);
  }

  private void awaitAllAcked() throws IOException {
    synchronized (this) {
      while (failure == null && ackFailure == null && !inFlight.isEmpty()) {
        waitHere();
      }
      if (failure != null) {
        throw failure;
      }
      if (ackFailure != null) {
        throw ackFailure;
      }
    }
  }

  // ---- Blocks.

  /** Allocates the next block and sets up its pipeline, avoiding DataNodes that failed. */
  private void startBlock() throws IOException {
    int retries = client.getConf().getNumBlockWriteRetry();
    for (int attempt = 0; ; attempt++) {
      LocatedBlock located = allocateBlock();
      block = located.getBlock();
      token = located.getBlockToken();
      targets = targetsOf(located);
      synchronized (this) {
        bytesAcked = 0;
      }
      bytesSent = 0;
      abortedAttempts = 0;
      noSpare = false;
      try {
        startPipeline(Pipeline.open(ctx.sockets, client, targets, block, token,
            BlockConstructionStage.PIPELINE_SETUP_CREATE, 0, 0, block.getGenerationStamp(),
            checksum, lazyPersist, pinnings(targets)));
        ctx.blocks.increment();
        return;
      } catch (Pipeline.SetupException e) {
        DatanodeInfo bad = targets.nodes[e.badIndex];
        LOG.info("Abandoning {} of {}: {}; excluding {}", block, src, e.getMessage(), bad);
        failed.add(bad);
        abandonEmptyBlock();
        if (attempt + 1 >= retries) {
          throw new IOException("Unable to create a new block for " + src + " after "
              + retries + " tries; last: " + e.getMessage(), e);
        }
      }
    }
  }

  /**
   * addBlock, with the DataNodes that failed this file and those the JVM recently judged slow
   * excluded; retried while the NameNode waits for the previous block's replicas, as stock
   * clients do. If the NameNode cannot give a full pipeline without them, the block is asked for
   * again without exclusions: replication comes before avoiding a node.
   */
  private LocatedBlock allocateBlock() throws IOException {
    List<DatanodeInfo> excluded = new ArrayList<>(failed);
    for (DatanodeInfo avoid : ctx.avoided()) {
      if (!excluded.contains(avoid)) {
        excluded.add(avoid);
      }
    }
    LocatedBlock located;
    try {
      located = addBlockRetrying(excluded.toArray(new DatanodeInfo[0]));
    } catch (RemoteException e) {
      if (excluded.isEmpty() || !e.getClassName().equals(IOException.class.getName())) {
        throw e;
      }
      // A plain IOException is how the NameNode says it found no DataNode at all (in a small
      // cluster every one may have been judged slow once): ask again without exclusions.
      LOG.info("Excluding {} the NameNode placed no replica of a new block of {} ({}); asking"
          + " again without exclusions", excluded, src, e.getMessage());
      return addBlockRetrying(new DatanodeInfo[0]);
    }
    if (excluded.isEmpty() || located.getLocations().length >= replication) {
      return located;
    }
    LOG.info("Excluding {} the NameNode placed {} of {} on only {} DataNodes; asking again"
        + " without exclusions", excluded, located.getBlock(), src, located.getLocations().length);
    client.getNamenode().abandonBlock(located.getBlock(), fileId, src, client.getClientName());
    return addBlockRetrying(new DatanodeInfo[0]);
  }

  private LocatedBlock addBlockRetrying(DatanodeInfo[] excluded) throws IOException {
    int retries = client.getConf().getNumBlockWriteLocateFollowingRetry();
    long sleepMs = client.getConf().getBlockWriteLocateFollowingInitialDelayMs();
    long maxSleepMs = client.getConf().getBlockWriteLocateFollowingMaxDelayMs();
    for (int attempt = 0; ; attempt++) {
      try {
        return client.getNamenode().addBlock(src, client.getClientName(), previous, excluded,
            fileId, favoredNodes, addBlockFlags);
      } catch (RemoteException e) {
        IOException unwrapped = e.unwrapRemoteException(NotReplicatedYetException.class);
        if (!(unwrapped instanceof NotReplicatedYetException) || attempt >= retries) {
          throw WriteContext.unwrap(e);
        }
        LOG.debug("NameNode waits for replicas of {} before a new block of {}", previous, src);
        WriteContext.sleep(sleepMs);
        sleepMs = Math.min(sleepMs * 2, maxSleepMs);
      }
    }
  }

  /** The block's end-of-block packet is acknowledged: the replicas are final. */
  private void endBlock() {
    stopPipeline();
    synchronized (this) {
      previous = new ExtendedBlock(block.getBlockPoolId(), block.getBlockId(), bytesAcked,
          block.getGenerationStamp());
    }
    block = null;
    targets = null;
    recoveriesWithoutProgress = 0;
    ackedAtLastRecovery = -1;
  }

  private void abandonEmptyBlock() {
    if (block == null || bytesAckedNow() > 0 || appendStage != null) {
      return;
    }
    try {
      client.getNamenode().abandonBlock(block, fileId, src, client.getClientName());
    } catch (IOException e) {
      LOG.warn("Could not abandon {} of {}", block, src, e);
    }
    block = null;
  }

  private synchronized long bytesAckedNow() {
    return bytesAcked;
  }

  // ---- Pipelines.

  private void startPipeline(Pipeline p) {
    pipeline = p;
    attributedExactly = false;
    synchronized (this) {
      ackFailure = null;
    }
    NodeTracker[] trackers = trackersOf(p.targets);
    ackReader = new Thread(() -> readAcks(p, trackers), "curtail-acks " + block);
    ackReader.setDaemon(true);
    ackReader.start();
  }

  /** Cuts the pipeline and waits for its ack reader to stop. */
  private void stopPipeline() {
    Pipeline p = pipeline;
    if (p == null) {
      return;
    }
    pipeline = null;
    p.abort();
    try {
      ackReader.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      ackFailure = null;
    }
  }

  /**
   * Reads acks in order, matching each to the oldest packet in flight, records each DataNode's
   * share of the packet's latency, and reports the first DataNode that says it failed.
   *
   * <p>A stock ack tells the first DataNode's share from the rest's; with
   * {@code curtail.write.datanode.reports} on, the downstream times DataNodes running Curtail's
   * plugin report tell the rest apart too (see {@link WriteAttribution}). Each DataNode's share
   * goes to this JVM's window for it.
   */
  private void readAcks(Pipeline p, NodeTracker[] trackers) {
    WriteAttribution attribution = new WriteAttribution(trackers.length);
    int n = trackers.length;
    long[] samples = new long[n];
    long[] downstream = new long[n];
    boolean useReports = ctx.config.useDataNodeReports();
    long[] scratch = new long[LatencyWindow.CAPACITY];
    List<LatencyStats> stats = new ArrayList<>(n);
    int bad = -1;
    try {
      while (true) {
        PipelineAck ack = p.readAck();
        long now = System.nanoTime();
        // A DataNode that lost its downstream answers with its own status and its mirror's
        // ERROR, so the statuses come first: the first failure names the DataNode to blame.
        int replies = Math.min(ack.getNumOfReplies(), n);
        for (int i = 0; i < replies; i++) {
          Status status = PipelineAck.getStatusFromHeader(ack.getHeaderFlag(i));
          if (status != Status.SUCCESS) {
            bad = i;
            throw new IOException(p.targets.nodes[i] + " answered " + status + " for seqno "
                + ack.getSeqno());
          }
        }
        if (ack.getNumOfReplies() != n) {
          throw new IOException("ack for seqno " + ack.getSeqno() + " has "
              + ack.getNumOfReplies() + " replies from a pipeline of " + n);
        }
        for (int i = 0; i < n; i++) {
          boolean busy = AckReport.busy(ack.getHeaderFlag(i));
          if (busy != trackers[i].busy(now)) {
            if (busy) {
              ctx.busyNodes.avoid(p.targets.nodes[i]);
            } else {
              ctx.busyNodes.forget(p.targets.nodes[i]);
            }
          }
          trackers[i].heardBusy(busy, now);
        }
        if (ack.getSeqno() == Packet.HEARTBEAT_SEQNO) {
          continue;
        }
        Packet acked;
        synchronized (this) {
          acked = inFlight.peekFirst();
          if (acked == null || acked.seqno() != ack.getSeqno()) {
            throw new IOException("ack for seqno " + ack.getSeqno() + " when "
                + (acked == null ? "nothing" : "seqno " + acked.seqno()) + " is in flight");
          }
          inFlight.removeFirst();
          lastAckedSeqno = acked.seqno();
          bytesAcked = Math.max(bytesAcked, acked.end());
          notifyAll();
        }
        downstreamTimes(ack, useReports && !acked.lastInBlock && !acked.syncRequested(),
            downstream);
        attributedExactly = attribution.attribute(acked.sentNanos, now, downstream, samples);
        for (int i = 0; i < n; i++) {
          if (samples[i] != WriteAttribution.NO_EVIDENCE) {
            trackers[i].writes().record(samples[i]);
          }
        }
        if (progress != null) {
          progress.progress();
        }
        if (acked.lastInBlock) {
          return;
        }
        statsOf(trackers, scratch, stats);
        tellAttributionWhoIsFast(attribution, stats);
        if (failFastStops(p, stats)) {
          return;
        }
      }
    } catch (IOException | RuntimeException e) {
      synchronized (this) {
        if (pipeline == p && ackFailure == null) {
          ackFailure = new PipelineFailure("pipeline " + p.targets + " for " + block + " of "
              + src + " failed: " + e.getMessage(), bad, e);
          notifyAll();
        }
      }
    }
  }

  /**
   * The downstream times on {@code ack}, by pipeline position, into {@code out}: the first
   * DataNode's from the stock ack, the others' from their reports if {@code reports} (else
   * unknown). A DataNode's report is not used for a packet it had to sync or finalise before
   * acking: that wait, its own, would count as its downstream's.
   */
  private static void downstreamTimes(PipelineAck ack, boolean reports, long[] out) {
    if (reports) {
      AckReport.downstreamTimes(ack, out);
    } else {
      Arrays.fill(out, WriteAttribution.UNKNOWN);
    }
    out[0] = ack.getDownstreamAckTimeNanos();
  }

  /**
   * Sets up a pipeline to {@code t} for the current block after something changed: a new
   * generation stamp from the NameNode, the DataNodes told to resume at the acknowledged length,
   * then the NameNode told the new pipeline. A DataNode that fails the setup is dropped (and
   * replaced when possible) and the setup tried again.
   */
  private void reopen(Pipeline.Targets t, BlockConstructionStage stage) throws IOException {
    int maxTries = Math.max(1, client.getConf().getMaxPipelineRecoveryRetries());
    for (int attempt = 1; ; attempt++) {
      LocatedBlock bumped = client.getNamenode().updateBlockForPipeline(block,
          client.getClientName());
      long newStamp = bumped.getBlock().getGenerationStamp();
      token = bumped.getBlockToken();
      long acked = bytesAckedNow();
      try {
        Pipeline p = Pipeline.open(ctx.sockets, client, t, block, token, stage, acked, bytesSent,
            newStamp, checksum, lazyPersist, pinnings(t));
        ExtendedBlock updated = new ExtendedBlock(block.getBlockPoolId(), block.getBlockId(),
            acked, newStamp);
        client.getNamenode().updatePipeline(client.getClientName(), block, updated, t.nodes,
            t.storageIds);
        block = updated;
        targets = t;
        startPipeline(p);
        return;
      } catch (Pipeline.SetupException e) {
        if (attempt >= maxTries || t.size() == 1) {
          throw new IOException("could not set up a pipeline for " + block + " of " + src
              + " after " + attempt + " tries: " + e.getMessage(), e);
        }
        LOG.warn("Setting up {} for {} failed ({}); dropping {}", t, block, e.getMessage(),
            t.nodes[e.badIndex]);
        failed.add(t.nodes[e.badIndex]);
        t = restoreReplication(t.without(e.badIndex));
        if (stage == BlockConstructionStage.PIPELINE_SETUP_APPEND) {
          stage = BlockConstructionStage.PIPELINE_SETUP_APPEND_RECOVERY;
        }
      }
    }
  }

  /**
   * Recovers from a failed pipeline: unacknowledged packets go back to the queue, the DataNode
   * to blame (the first if none can be) is dropped and replaced, and the pipeline set up again.
   */
  private void recover(PipelineFailure f) throws IOException {
    if (f.failFast != null) {
      replaceSlow(f.failFast, f.stats);
      return;
    }
    stopPipeline();
    boolean closing = requeueInFlight();
    ctx.recoveries.increment();
    long acked = bytesAckedNow();
    if (acked == ackedAtLastRecovery) {
      if (++recoveriesWithoutProgress >= Math.max(1, client.getConf().getMaxPipelineRecoveryRetries())) {
        throw new IOException("giving up on " + block + " of " + src + " after "
            + recoveriesWithoutProgress + " recoveries without progress: " + f.getMessage(), f);
      }
    } else {
      recoveriesWithoutProgress = 0;
      ackedAtLastRecovery = acked;
    }
    int bad = f.badIndex >= 0 ? f.badIndex : 0;
    DatanodeInfo badNode = targets.nodes[bad];
    LOG.warn("Recovering {} of {} without {}: {}", block, src, badNode, f.getMessage());
    failed.add(badNode);
    if (acked == 0 && appendStage == null && !closing) {
      // Nothing on disk to keep: a fresh block is simpler than a recovered one.
      Pipeline.Targets before = targets;
      abandonEmptyBlock();
      if (block == null) {
        bytesSent = 0;
        targets = null;
        return;
      }
      targets = before;
    }
    if (targets.size() == 1) {
      throw new IOException("all DataNodes of the pipeline for " + block + " of " + src
          + " failed; last: " + f.getMessage(), f);
    }
    Pipeline.Targets t = targets.without(bad);
    if (closing) {
      // The block is complete on the survivors; the NameNode re-replicates a finalized block.
      closeRecovered(t);
      return;
    }
    reopen(restoreReplication(t), BlockConstructionStage.PIPELINE_SETUP_STREAMING_RECOVERY);
  }

  /**
   * Finishes a block whose end-of-block packet was in flight when its pipeline stopped: the
   * DataNodes in {@code t} finalise their replicas during the recovery setup itself.
   */
  private void closeRecovered(Pipeline.Targets t) throws IOException {
    reopen(t, BlockConstructionStage.PIPELINE_CLOSE_RECOVERY);
    stopPipeline();
    synchronized (this) {
      Packet end = queued.pollFirst();
      lastAckedSeqno = end.seqno();
      bytesAcked = end.end();
      notifyAll();
    }
    endBlock();
  }

  /** Moves packets in flight back to the head of the queue; whether the block's end was one. */
  private synchronized boolean requeueInFlight() {
    boolean closing = false;
    while (!inFlight.isEmpty()) {
      Packet p = inFlight.pollLast();
      closing |= p.lastInBlock;
      queued.addFirst(p);
    }
    return closing;
  }

  /**
   * Adds DataNodes to {@code t} until it has the file's replication, each rebuilt from a
   * surviving replica (the fastest this JVM knows that is not busy). Replication never
   * drops silently: when the NameNode has no DataNode to give, or rebuilds keep failing, this
   * says so and the block carries on with fewer replicas (the NameNode re-replicates it once it
   * is complete), as stock clients do.
   */
  private Pipeline.Targets restoreReplication(Pipeline.Targets t) throws IOException {
    int tries = 0;
    while (t.size() < replication && !noSpare && tries < ctx.config.writeFailFastMaxAttempts()) {
      tries++;
      int source = fastest(t);
      long timeoutMs = Pipeline.readTimeout(client, 2);
      Pipeline.Targets grown = replaceOne(t, null, source, timeoutMs);
      if (grown != null) {
        t = grown;
      } else if (failed.contains(t.nodes[source]) && t.size() > 1) {
        t = t.without(source); // the source itself is gone
      }
    }
    if (t.size() < replication) {
      LOG.warn("{} of {} continues on {} of {} replicas ({}); the NameNode re-replicates it"
          + " once it is complete", block, src, t.size(), replication, t);
    }
    return t;
  }

  /**
   * Asks the NameNode for one more DataNode for the block (besides {@code existing}, never one
   * in {@code alsoExcluded}) and rebuilds the acknowledged part of the block on it from
   * {@code existing.nodes[source]}. Returns the grown pipeline, or null if the rebuild failed or
   * overran {@code timeoutMs}; sets {@link #noSpare} when the NameNode has none.
   */
  private Pipeline.Targets replaceOne(Pipeline.Targets existing, DatanodeInfo alsoExcluded,
      int source, long timeoutMs) throws IOException {
    List<DatanodeInfo> excluded = new ArrayList<>(failed);
    if (alsoExcluded != null) {
      excluded.add(alsoExcluded);
    }
    for (DatanodeInfo avoid : ctx.avoided()) {
      if (!Arrays.asList(existing.nodes).contains(avoid) && !excluded.contains(avoid)) {
        excluded.add(avoid);
      }
    }
    LocatedBlock grown;
    try {
      grown = client.getNamenode().getAdditionalDatanode(src, fileId, block, existing.nodes,
          existing.storageIds, excluded.toArray(new DatanodeInfo[0]), 1,
          client.getClientName());
    } catch (IOException e) {
      LOG.warn("No DataNode to add to {} for {} of {}: {}", existing, block, src,
          e.getMessage());
      noSpare = true;
      return null;
    }
    Pipeline.Targets all = targetsOf(grown);
    int added = newcomer(existing, all);
    if (added < 0) {
      LOG.warn("The NameNode added no new DataNode to {} for {}", existing, block);
      noSpare = true;
      return null;
    }
    Pipeline.Targets newcomer = new Pipeline.Targets(
        new DatanodeInfo[] {all.nodes[added]}, new org.apache.hadoop.fs.StorageType[] {
            all.storageTypes[added]}, new String[] {all.storageIds[added]});
    try {
      ExtendedBlock current = new ExtendedBlock(block.getBlockPoolId(), block.getBlockId(),
          bytesAckedNow(), block.getGenerationStamp());
      Pipeline.transfer(ctx.sockets, client, existing.nodes[source], current,
          grown.getBlockToken(), newcomer, (int) Math.min(Integer.MAX_VALUE, timeoutMs));
      return all;
    } catch (Pipeline.SourceUnreachableException e) {
      LOG.warn("Cannot rebuild {} of {} from {}: {}", block, src, existing.nodes[source],
          e.getMessage());
      failed.add(existing.nodes[source]);
      return null;
    } catch (IOException e) {
      LOG.warn("Rebuilding {} of {} on {} from {} failed or overran {} ms: {}", block, src,
          newcomer, existing.nodes[source], timeoutMs, e.toString());
      failed.add(all.nodes[added]);
      return null;
    }
  }

  /**
   * Position in {@code t} of the DataNode with the lowest recent write latency this JVM knows,
   * preferring any DataNode that is not busy.
   */
  private int fastest(Pipeline.Targets t) {
    NodeTracker[] trackers = trackersOf(t);
    List<LatencyStats> stats = new ArrayList<>(trackers.length);
    statsOf(trackers, scratch, stats);
    int best = 0;
    long bestNanos = Long.MAX_VALUE;
    long now = System.nanoTime();
    for (int i = 0; i < trackers.length; i++) {
      long nanos = stats.get(i).samples() == 0 ? Long.MAX_VALUE - 2
          : stats.get(i).percentileNanos();
      if (trackers[i].busy(now)) {
        nanos = Long.MAX_VALUE - 1;
      }
      if (nanos < bestNanos) {
        best = i;
        bestNanos = nanos;
      }
    }
    return best;
  }

  // ---- Fail fast (paper §4.2).

  /**
   * The client's periodic fail-fast look at this stream's pipeline, for a pipeline whose slow
   * DataNode has stopped acking altogether (a throttled DataNode can go silent for seconds, and
   * without acks {@link #readAcks} never asks). Buffers are the caller's.
   */
  void failFastTick(long[] scratch, List<LatencyStats> stats) {
    Pipeline p = pipeline;
    if (p != null) {
      statsOf(trackersOf(p.targets), scratch, stats);
      failFastStops(p, stats);
    }
  }

  /** Each DataNode's recent write statistics, in pipeline order, into {@code out}. */
  private void statsOf(NodeTracker[] trackers, long[] scratch, List<LatencyStats> out) {
    out.clear();
    for (int i = 0; i < trackers.length; i++) {
      out.add(trackers[i].writes().stats(ctx.config.writeWindowPackets(), ctx.config.slownessPercentile(), scratch));
    }
  }

  private NodeTracker[] trackersOf(Pipeline.Targets t) {
    NodeTracker[] trackers = new NodeTracker[t.size()];
    for (int i = 0; i < trackers.length; i++) {
      trackers[i] = ctx.registry.tracker(NodeId.of(t.nodes[i].getXferAddr()));
    }
    return trackers;
  }

  /**
   * Asks the fail-fast policy about pipeline {@code p}, whose DataNodes' statistics are
   * {@code stats}, after each ack (on the ack reader's
   * thread: the streamer may be blocked sending to the very DataNode that is slow) and on the
   * client's periodic tick, and, when replacing its slowest DataNode pays, stops the pipeline with
   * the decision for {@link #replaceSlow}. Returns whether it stopped it.
   */
  private boolean failFastStops(Pipeline p, List<LatencyStats> stats) {
    Pipeline.Targets t = p.targets;
    if (!ctx.config.writeFailFastEnabled() || t.size() < 2 || noSpare) {
      return false;
    }
    long acked = bytesAckedNow();
    long remaining = (blockSize - acked + packetBytes - 1) / packetBytes;
    FailFastDecision decision = ctx.failFast.decide(stats, acked, packetBytes, remaining,
        abortedAttempts);
    if (!decision.replace()) {
      LOG.debug("Fail-fast keeps {}: {} {}", t, decision, stats);
      return false;
    }
    synchronized (this) {
      if (pipeline != p || ackFailure != null) {
        return true; // the ack reader and the periodic look may both judge: the first one stops it
      }
      ackFailure = new PipelineFailure("replacing slow " + t.nodes[decision.replaceIndex()],
          decision.replaceIndex(), null, decision, new ArrayList<>(stats));
      notifyAll();
    }
    LOG.info("Fail-fast for {} of {}: {} is slow ({}); {}", block, src,
        t.nodes[decision.replaceIndex()], stats.get(decision.replaceIndex()), decision);
    // New blocks avoid it from now, whether or not a replacement is found for this one.
    ctx.slowNodes.avoid(t.nodes[decision.replaceIndex()]);
    p.abort();
    return true;
  }

  /**
   * Replaces the DataNode fail-fast judged slow: a new DataNode rebuilt from the fastest replica
   * within the policy's timeout, retried with the next-fastest source and a longer expected time
   * when it overruns, at most {@code curtail.write.failfast.max.attempts} times per block; then
   * the block carries on, on the new pipeline or on the old one.
   */
  private void replaceSlow(FailFastDecision decision, List<LatencyStats> stats)
      throws IOException {
    boolean exactly = attributedExactly;
    stopPipeline();
    Pipeline.Targets before = targets;
    if (requeueInFlight()) {
      closeRecovered(before); // the block's data was all acknowledged meanwhile
      return;
    }
    DatanodeInfo slow = before.nodes[decision.replaceIndex()];
    long remaining = (blockSize - bytesAckedNow() + packetBytes - 1) / packetBytes;
    Pipeline.Targets survivors = before.without(decision.replaceIndex());
    Pipeline.Targets next = null;
    while (next == null && decision.replace() && !noSpare) {
      int source = survivors.indexOf(before.nodes[decision.sourceIndex()].getXferAddr());
      if (ctx.registry.tracker(NodeId.of(survivors.nodes[source].getXferAddr()))
          .busy(System.nanoTime())) {
        source = fastest(survivors); // the policy's choice said it is busy: the next best
      }
      next = replaceOne(survivors, slow, source,
          TimeUnit.NANOSECONDS.toMillis(decision.rebuildTimeoutNanos()));
      if (next == null && !noSpare) {
        abortedAttempts++;
        ctx.rebuildsAborted.increment();
        decision = ctx.failFast.decide(stats, bytesAckedNow(), packetBytes, remaining,
            abortedAttempts);
      }
    }
    if (next != null) {
      ctx.replaced(new Replacement(addresses(before), decision.replaceIndex(),
          next.nodes[newcomer(before, next)].getXferAddr(), exactly));
      LOG.info("Replaced {} with {} in the pipeline of {}", slow, next, block);
      reopen(next, BlockConstructionStage.PIPELINE_SETUP_STREAMING_RECOVERY);
    } else {
      LOG.info("Keeping {} for {}: no replacement ({})", before, block,
          noSpare ? "no spare DataNode" : decision.reason());
      reopen(before, BlockConstructionStage.PIPELINE_SETUP_STREAMING_RECOVERY);
    }
  }

  /**
   * Lets the ack reader attribute a slow downstream to the one DataNode not known to be fast: a
   * DataNode with enough samples whose percentile is within the factor of the pipeline's fastest.
   * The attribution is the ack reader's own: no lock.
   */
  private void tellAttributionWhoIsFast(WriteAttribution attribution, List<LatencyStats> stats) {
    long fastest = Long.MAX_VALUE;
    for (LatencyStats s : stats) {
      if (s.samples() >= ctx.minSamples) {
        fastest = Math.min(fastest, s.percentileNanos());
      }
    }
    for (int i = 0; i < stats.size(); i++) {
      LatencyStats s = stats.get(i);
      attribution.knownFast(i, s.samples() >= ctx.minSamples
          && s.percentileNanos() <= ctx.config.slownessFactor() * fastest);
    }
  }

  // ---- Helpers.

  /** Where in {@code after} the first DataNode {@code before} lacks stands, or -1. */
  private static int newcomer(Pipeline.Targets before, Pipeline.Targets after) {
    List<DatanodeInfo> old = Arrays.asList(before.nodes);
    for (int i = 0; i < after.size(); i++) {
      if (!old.contains(after.nodes[i])) {
        return i;
      }
    }
    return -1;
  }

  private static String[] addresses(Pipeline.Targets t) {
    String[] out = new String[t.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = t.nodes[i].getXferAddr();
    }
    return out;
  }

  static Pipeline.Targets targetsOf(LocatedBlock located) {
    return new Pipeline.Targets(located.getLocations(), located.getStorageTypes(),
        located.getStorageIDs());
  }

  /** Which DataNodes pin their replica: those among the favoured nodes, as stock clients do. */
  private boolean[] pinnings(Pipeline.Targets t) {
    boolean[] pinned = new boolean[t.size()];
    if (favoredNodes != null) {
      List<String> favored = Arrays.asList(favoredNodes);
      for (int i = 0; i < pinned.length; i++) {
        pinned[i] = favored.contains(t.nodes[i].getXferAddrWithHostname());
      }
    }
    return pinned;
  }
}
