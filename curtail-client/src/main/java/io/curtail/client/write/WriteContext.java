package io.curtail.client.write;

import io.curtail.client.compat.HadoopApi;
import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.metrics.ClientMetrics;
import io.curtail.client.policy.FailFast;
import io.curtail.client.policy.Slowness;
import io.curtail.client.runtime.CurtailRuntime;
import io.curtail.client.runtime.NanoClock;
import io.curtail.client.runtime.Periodic;
import io.curtail.client.runtime.Scheduler;
import io.curtail.client.stats.StatsLog;
import io.curtail.client.trace.BlockObserver;
import io.curtail.client.trace.Tracing;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.track.LatencyWindow;
import io.curtail.client.track.NodeId;
import io.curtail.client.track.NodeTracker;
import io.curtail.client.write.striped.StripedStreams;
import io.curtail.client.write.striped.StripedWatch;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import javax.net.SocketFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Options.ChecksumOpt;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.permission.FsCreateModes;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSOutputStream;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DSQuotaExceededException;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.NSQuotaExceededException;
import org.apache.hadoop.hdfs.protocol.QuotaByStorageTypeExceededException;
import org.apache.hadoop.hdfs.protocol.SnapshotAccessControlException;
import org.apache.hadoop.hdfs.protocol.UnresolvedPathException;
import org.apache.hadoop.hdfs.server.namenode.RetryStartFileException;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.RetriableException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the write streams of one Curtail file system share: the fail-fast policy and the slowness
 * rule, the JVM's knowledge of DataNodes (a {@link CurtailRuntime}), the sockets, the lease
 * renewal for files open for writing, the periodic fail-fast check of open pipelines, and the
 * counters the benchmark reads. Creating and appending start here: the NameNode calls, then a
 * {@link CurtailOutputStream}.
 */
public final class WriteContext implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WriteContext.class);
  /** Retries of a create that raced with an encryption-zone change, as stock clients allow. */
  private static final int CREATE_RETRIES = 10;
  /** How long an append keeps retrying while the NameNode says "try again" (stock: 5 s). */
  private static final long APPEND_RETRY_MS = 5000;
  /**
   * Tries of an idempotent NameNode call that met the NameNode going down or coming up, and the
   * first pause between two (doubling): about 15 s in all, what a NameNode restart takes.
   */
  private static final int NAMENODE_ATTEMPTS = 6;
  private static final long NAMENODE_FIRST_PAUSE_MS = 500;
  /** Replacements remembered for {@link #recentReplacements()}, the newest. */
  static final int RECENT_REPLACEMENTS = 256;

  final CurtailConfig config;
  final DFSClient client;
  /** The client's NameNode, its idempotent calls retried across a restart. */
  final ClientProtocol namenode;
  final CurtailRuntime runtime;
  final NanoClock clock;
  final SocketFactory sockets;
  final Slowness slowness;
  /** {@link #slowness} finding DataNodes slow early, as {@link #failFast} judges. */
  final Slowness earlySlowness;
  final FailFast failFast;
  /**
   * The rule judging links and DataNodes' own service in a pipeline, on medians
   * ({@link PipelineLinks}): from the samples a median needs, not a p95's.
   */
  final Slowness linkSlowness;
  /** The fail-fast policy weighing a slow link's time, judging from as few. */
  final FailFast failFastOnLink;
  /** The same policy weighing a link the JVM knew slow, on few samples ({@link PipelineLinks}). */
  final FailFast failFastOnKnownLink;
  /** Stock's rules for a pipeline that lost a DataNode, from the client's configuration. */
  final ReplaceOnFailure replaceOnFailure;
  final int maxPacketsInFlight;
  /** Recoveries of a pipeline in a row without progress before a write gives up, as stock's. */
  final int maxPipelineRecoveryRetries;
  /** Renews the lease, and looks at pipelines that stopped acking. */
  private final Scheduler scheduler;
  private final LeaseRenewal leaseRenewal;
  private final Periodic silenceCheck;
  /** Lets a lagging streamer of an erasure-coded write go; null where stock's waits for it. */
  private final StripedWatch stripedWatch;
  private final Set<CurtailOutputStream> open = ConcurrentHashMap.newKeySet();
  final LongAdder blocks = new LongAdder();
  private final LongAdder replacements = new LongAdder();
  final LongAdder rebuildsAborted = new LongAdder();
  final LongAdder recoveries = new LongAdder();
  /** Where each block's record goes; null for nowhere. */
  private volatile StatsLog stats;
  /** The latest replacements, newest last, at most {@link #RECENT_REPLACEMENTS}. */
  private final Deque<Replacement> recentReplacements = new ArrayDeque<>();
  /** Told of each step of mending a pipeline; for tests and chaos runs. */
  private volatile RepairHook repairHook = RepairHook.NONE;

  /**
   * @param conf the configuration {@code client} was made with: stock's write settings Curtail
   *     keeps are read from it
   * @param scheduler runs lease renewal and the periodic fail-fast check; closed with this
   */
  public WriteContext(CurtailConfig config, Configuration conf, DFSClient client,
      CurtailRuntime runtime, SocketFactory sockets, Scheduler scheduler) {
    this.config = config;
    this.replaceOnFailure = ReplaceOnFailure.from(conf);
    this.client = client;
    this.namenode = NameNodeRetries.around(client.getNamenode(), NAMENODE_ATTEMPTS,
        NAMENODE_FIRST_PAUSE_MS);
    this.runtime = runtime;
    this.clock = runtime.clock();
    this.sockets = sockets;
    this.slowness = new Slowness(config.slownessFactor(), config.minSlowdownNanos(),
        Slowness.minSamples(config.slownessPercentile(), config.writeWindowPackets()));
    this.earlySlowness = slowness.withEarlyJudgement();
    this.failFast = new FailFast(earlySlowness, config.writeFailFastMaxAttempts(),
        config.reconstructionMinTimeoutNanos());
    this.linkSlowness = slowness.withMinSamples(
        Slowness.minSamples(PipelineLinks.MEDIAN, config.writeWindowPackets()));
    this.failFastOnLink = new FailFast(linkSlowness, config.writeFailFastMaxAttempts(),
        config.reconstructionMinTimeoutNanos());
    this.failFastOnKnownLink = new FailFast(
        slowness.withMinSamples(PipelineLinks.KNOWN_LINK_SAMPLES),
        config.writeFailFastMaxAttempts(), config.reconstructionMinTimeoutNanos());
    this.maxPacketsInFlight = client.getConf().getWriteMaxPackets();
    this.maxPipelineRecoveryRetries = Math.max(1,
        HadoopApi.maxPipelineRecoveryRetries(client.getConf(), conf));
    this.scheduler = scheduler;
    // Both tick only while a stream is open: an idle client wakes no thread.
    this.leaseRenewal = new LeaseRenewal(namenode, client.getClientName(),
        client.getConf().getHdfsTimeout(), scheduler);
    long[] scratch = new long[LatencyWindow.CAPACITY];
    List<LatencyStats> stats = new ArrayList<>();
    this.silenceCheck = scheduler.every(config.failFastCheckNanos(), () -> {
      for (CurtailOutputStream out : open) {
        out.streamer.check(scratch, stats);
      }
    });
    this.stripedWatch = config.writeStripedDrop() && StripedStreams.watchable()
        ? new StripedWatch(config, clock, scheduler, runtime.slowNodes()) : null;
  }

  /**
   * Creates {@code src} at the NameNode, once, as stock's client does: retried while it races
   * with a change of encryption zones. The status says what stream the file needs: Curtail's
   * ({@link #stream}), wrapped in a crypto stream when it is encrypted ({@code Encryption}), or
   * stock's striped one when it is erasure-coded ({@link #striped}).
   */
  public HdfsFileStatus createFile(String src, FsPermission permission, EnumSet<CreateFlag> flags,
      boolean createParent, short replication, long blockSize) throws IOException {
    FsPermission masked = FsCreateModes.applyUMask(
        permission == null ? FsPermission.getFileDefault() : permission,
        client.getConf().getUMask());
    for (int attempt = 0; ; attempt++) {
      try {
        return namenode.create(src, masked, client.getClientName(),
            new EnumSetWritable<>(flags, CreateFlag.class), createParent, replication, blockSize,
            CryptoProtocolVersion.supported(), null, null);
      } catch (RemoteException e) {
        IOException unwrapped = unwrap(e);
        if (!(unwrapped instanceof RetryStartFileException) || attempt >= CREATE_RETRIES) {
          throw unwrapped;
        }
      }
    }
  }

  /** Curtail's stream for {@code src}, a replicated file {@link #createFile} just created. */
  public CurtailOutputStream stream(String src, HdfsFileStatus stat, EnumSet<CreateFlag> flags,
      Progressable progress, ChecksumOpt checksumOpt, InetSocketAddress[] favoredNodes)
      throws IOException {
    Streamer streamer = Streamer.start(this, src, stat, flags, progress,
        client.getConf().createChecksum(checksumOpt), favoredNodeNames(favoredNodes), null);
    return register(new CurtailOutputStream(this, src, stat.getFileId(), streamer, 0, 0,
        flags.contains(CreateFlag.SYNC_BLOCK)));
  }

  /**
   * Stock's striped stream for {@code src}, an erasure-coded file {@link #createFile} just
   * created, watched for a lagging streamer ({@link StripedWatch}) with
   * {@code curtail.write.striped.drop}; or, where this Hadoop does not let it be built
   * ({@link StripedStreams}), null once the empty file is completed, for the caller to create it
   * again with the stock stream.
   */
  public DFSOutputStream striped(String src, HdfsFileStatus stat, EnumSet<CreateFlag> flags,
      Progressable progress, ChecksumOpt checksumOpt, InetSocketAddress[] favoredNodes)
      throws IOException {
    if (!StripedStreams.available()) {
      namenode.complete(src, client.getClientName(), null, stat.getFileId());
      return null;
    }
    DFSOutputStream out = StripedStreams.start(client, src, stat, flags, progress,
        client.getConf().createChecksum(checksumOpt), favoredNodeNames(favoredNodes));
    if (stripedWatch != null) {
      stripedWatch.watch(out, src, stat.getErasureCodingPolicy());
    }
    return out;
  }

  /** What erasure-coded writes let go; null where stock's striped stream waits. */
  public StripedWatch stripedWrites() {
    return stripedWatch;
  }

  /**
   * Opens {@code src} for appending and returns Curtail's stream, or null when the file is
   * erasure-coded or encrypted (checked first, so the stock stream can take over cleanly).
   */
  public CurtailOutputStream append(String src, EnumSet<CreateFlag> flags, Progressable progress,
      InetSocketAddress[] favoredNodes) throws IOException {
    CreateFlag.validateForAppend(flags);
    HdfsFileStatus before = client.getFileInfo(src);
    if (before != null && needsStockStream(before)) {
      return null;
    }
    // A missing file is the NameNode's to refuse, so the exception and its text are stock's.
    LastBlockWithStatus last = callAppend(src, flags);
    HdfsFileStatus stat = last.getFileStatus() != null ? last.getFileStatus() : client.getFileInfo(src);
    if (before == null && needsStockStream(stat)) {
      // Created between the two calls, and in need of stock's stream: give the file back as it
      // was, for the caller's stock append.
      namenode.complete(src, client.getClientName(),
          last.getLastBlock() == null ? null : last.getLastBlock().getBlock(), stat.getFileId());
      return null;
    }
    Streamer streamer = Streamer.start(this, src, stat, flags, progress,
        client.getConf().createChecksum(null), favoredNodeNames(favoredNodes),
        last.getLastBlock());
    return register(new CurtailOutputStream(this, src, stat.getFileId(), streamer, stat.getLen(),
        streamer.offsetInBlock(), flags.contains(CreateFlag.SYNC_BLOCK)));
  }

  private LastBlockWithStatus callAppend(String src, EnumSet<CreateFlag> flags)
      throws IOException {
    long start = clock.nanoTime();
    while (true) {
      try {
        return namenode.append(src, client.getClientName(),
            new EnumSetWritable<>(flags, CreateFlag.class));
      } catch (RemoteException e) {
        if (!RetriableException.class.getName().equals(e.getClassName())
            || clock.nanoTime() - start > TimeUnit.MILLISECONDS.toNanos(APPEND_RETRY_MS)) {
          throw unwrap(e);
        }
        sleep(500);
      }
    }
  }

  private static boolean needsStockStream(HdfsFileStatus stat) {
    return stat.getErasureCodingPolicy() != null || stat.getFileEncryptionInfo() != null;
  }

  /** The NameNode's exceptions as the caller expects them, as stock clients unwrap them. */
  static IOException unwrap(RemoteException e) {
    return e.unwrapRemoteException(AccessControlException.class,
        DSQuotaExceededException.class, QuotaByStorageTypeExceededException.class,
        FileAlreadyExistsException.class, FileNotFoundException.class,
        ParentNotDirectoryException.class, NSQuotaExceededException.class,
        RetryStartFileException.class, SafeModeException.class, UnresolvedPathException.class,
        SnapshotAccessControlException.class);
  }

  private static String[] favoredNodeNames(InetSocketAddress[] favoredNodes) {
    if (favoredNodes == null) {
      return null;
    }
    String[] names = new String[favoredNodes.length];
    for (int i = 0; i < names.length; i++) {
      names[i] = favoredNodes[i].getHostName() + ":" + favoredNodes[i].getPort();
    }
    return names;
  }

  private CurtailOutputStream register(CurtailOutputStream out) {
    if (open.add(out)) {
      leaseRenewal.hold();
      silenceCheck.hold();
    }
    return out;
  }

  void closed(CurtailOutputStream out) {
    if (open.remove(out)) {
      leaseRenewal.release();
      silenceCheck.release();
    }
  }

  static void sleep(long ms) throws IOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while waiting to retry");
    }
  }

  /** DataNodes new blocks and replacements should not use now: judged slow or busy. */
  List<DatanodeInfo> avoided() {
    List<DatanodeInfo> out = runtime.busyNodes().avoided();
    for (DatanodeInfo n : runtime.slowNodes().avoided()) {
      if (!out.contains(n)) {
        out.add(n);
      }
    }
    return out;
  }

  /** The JVM's tracker of {@code node}. */
  NodeTracker tracker(DatanodeInfo node) {
    return runtime.registry().tracker(NodeId.of(node.getXferAddr()));
  }

  /** The JVM's trackers of {@code t}'s DataNodes, in pipeline order. */
  NodeTracker[] trackersOf(Pipeline.Targets t) {
    NodeTracker[] trackers = new NodeTracker[t.size()];
    for (int i = 0; i < trackers.length; i++) {
      trackers[i] = tracker(t.nodes[i]);
    }
    return trackers;
  }

  public long blocksWritten() {
    return blocks.sum();
  }

  public long replacements() {
    return replacements.sum();
  }

  void replaced(Replacement r) {
    synchronized (recentReplacements) {
      if (recentReplacements.size() == RECENT_REPLACEMENTS) {
        recentReplacements.removeFirst();
      }
      recentReplacements.addLast(r);
    }
    replacements.increment();
    ClientMetrics.JVM.replacements.increment();
  }

  /** The latest replacements, oldest first. */
  public List<Replacement> recentReplacements() {
    synchronized (recentReplacements) {
      return new ArrayList<>(recentReplacements);
    }
  }

  public long rebuildsAborted() {
    return rebuildsAborted.sum();
  }

  public long recoveries() {
    return recoveries.sum();
  }

  /**
   * Who watches the writing of {@code blockId}, begun at {@code beganNanos} (asking the NameNode
   * for it, then setting up its pipeline): its statistics record, its span (a child of
   * {@code traceParent}, the stream creator's context), both or nobody.
   */
  BlockObserver observe(String file, long blockId, Object traceParent, long beganNanos) {
    StatsLog log = stats;
    long now = clock.nanoTime();
    return BlockObserver.both(
        log == null ? BlockObserver.NONE : log.write(file, blockId, beganNanos, now),
        Tracing.start("curtail.block.write", traceParent, file, blockId, now - beganNanos));
  }

  /**
   * Tells {@code hook} of every step of mending this file system's pipelines from now on (see
   * {@link RepairHook}); {@link RepairHook#NONE} for none.
   */
  public void repairHook(RepairHook hook) {
    this.repairHook = Objects.requireNonNull(hook);
  }

  /** The writer of {@code file} reached {@code step} with {@code dataNodes}. */
  void reached(RepairHook.Step step, String file, String... dataNodes) throws IOException {
    RepairHook hook = repairHook;
    if (hook != RepairHook.NONE) {
      hook.reached(step, file, Arrays.asList(dataNodes));
    }
  }

  /** Sends a record of every block from now on to {@code log}. */
  public void logStatsTo(StatsLog log) {
    this.stats = log;
    if (stripedWatch != null) {
      stripedWatch.logStatsTo(log);
    }
  }

  /**
   * Closes every stream still open, then stops renewing. A stream that cannot be closed (another
   * client took its lease over, its DataNodes are gone) is logged and the others closed, as stock
   * clients do: the file system closes all the same, and the file is left to lease recovery.
   */
  @Override
  public void close() {
    for (CurtailOutputStream out : new ArrayList<>(open)) {
      try {
        out.close();
      } catch (IOException e) {
        LOG.error("Could not close file={} while closing client={}", out.src(),
            client.getClientName(), e);
      }
    }
    scheduler.close();
  }
}
