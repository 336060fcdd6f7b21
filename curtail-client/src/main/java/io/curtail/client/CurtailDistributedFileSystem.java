package io.curtail.client;

import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.conf.CurtailKey;
import io.curtail.client.conf.InvalidConfigException;
import io.curtail.client.read.CurtailInputStream;
import io.curtail.client.read.striped.StripedInputStream;
import io.curtail.client.read.striped.StripedReads;
import io.curtail.client.write.striped.StripedWatch;
import io.curtail.client.runtime.CurtailRuntime;
import io.curtail.client.stats.StatsLog;
import io.curtail.client.stream.CurtailDataInputStream;
import io.curtail.client.write.CurtailOutputStream;
import io.curtail.client.write.RepairHook;
import io.curtail.client.write.Replacement;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileSystemLinkResolver;
import org.apache.hadoop.fs.GlobalStorageStatistics;
import org.apache.hadoop.fs.Options.ChecksumOpt;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageStatistics;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DFSOpsCountStatistics;
import org.apache.hadoop.hdfs.DFSStripedInputStream;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Curtail's drop-in HDFS file system. Enable it with
 * {@code fs.hdfs.impl=io.curtail.client.CurtailDistributedFileSystem} (in Spark,
 * {@code spark.hadoop.fs.hdfs.impl=…}).
 *
 * <p>It reads and validates the {@code curtail.*} settings once, at initialisation, before it
 * connects to anything, so a bad value fails the job at start-up with the key, the rule and the
 * value. With every technique off it is the stock {@link DistributedFileSystem}.
 *
 * <p>With hedging on ({@code curtail.read.hedging} {@code static} or {@code smart}), {@code open}
 * and the {@code openFile} builder return Curtail's {@link CurtailInputStream}; erasure-coded
 * files Curtail's {@link StripedInputStream} with {@code curtail.read.striped} on, else stock's
 * (and always while being written or encrypted). A file in an encryption zone is read by
 * Curtail's stream inside Hadoop's crypto stream, as stock wraps its own. With checksum
 * verification off ({@link #setVerifyChecksum}{@code (false)}, as HBase reads its HFiles),
 * Curtail's stream asks the DataNodes for no checksums and checks none, as stock's does, and
 * still hedges.
 *
 * <p>With fail-fast on ({@code curtail.write.failfast.enabled}, the default), {@code create}
 * (the favoured-node overloads too), {@code createNonRecursive}, {@code append} and the
 * {@code appendFile} builder (it calls the favoured-node {@code append}) return Curtail's
 * {@link CurtailOutputStream}, encrypting in encryption zones. Each creates its file once; an
 * erasure-coded file gets stock's striped stream, built from what that create returned. These
 * keep the stock stream: appends to erasure-coded and encrypted files; {@code primitiveCreate};
 * and the {@code createFile} builder, whose class Hadoop makes final with a private constructor
 * and whose {@code build} calls a private {@code create}: no subclass can reach it.
 *
 * <p>Every stream is of the HDFS types, {@code HdfsDataInputStream} and
 * {@code HdfsDataOutputStream}, as stock's are ({@link Streams}).
 */
public class CurtailDistributedFileSystem extends DistributedFileSystem {
  private static final Logger LOG = LoggerFactory.getLogger(CurtailDistributedFileSystem.class);

  private CurtailConfig curtail;
  /** What Curtail's techniques run on; {@link Techniques#OFF} with all off, as before init. */
  private Techniques parts = Techniques.OFF;
  private StatsLog stats;
  private Streams streams;
  private boolean verifyChecksum = true;
  private DFSOpsCountStatistics opCounts;

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    CurtailConfig parsed = CurtailConfig.from(conf);
    super.initialize(uri, conf);
    this.curtail = parsed;
    StorageStatistics ops = GlobalStorageStatistics.INSTANCE.get(DFSOpsCountStatistics.NAME);
    opCounts = ops instanceof DFSOpsCountStatistics ? (DFSOpsCountStatistics) ops : null;
    LOG.debug("Curtail initialised uri={} config={}", uri, parsed);
    if (!parsed.statsDir().isEmpty()) {
      stats = openStats(parsed);
    }
    streams = new Streams(getClient(), conf, statistics, stats);
    if (parsed.allTechniquesOff()) {
      return; // the stock file system, exactly (its streams timed if statistics are on)
    }
    parts = Techniques.start(getUri().getAuthority(), parsed, conf, getClient(), stats);
  }

  private StatsLog openStats(CurtailConfig c) throws IOException {
    try {
      return StatsLog.open(Paths.get(c.statsDir()), c.cohort(), c.host(),
          getClient().getClientName(), c.statsQueueRecords(), c.statsFileBytes(), c.statsFiles());
    } catch (IOException | java.nio.file.InvalidPathException e) {
      close();
      throw new InvalidConfigException(CurtailKey.STATS_DIR.key(), c.statsDir(),
          "must be a local directory this process can create and write in (" + e + ")");
    }
  }

  /** Per-block statistics records dropped because their queue was full; 0 without statistics. */
  public long statsDropped() {
    return stats == null ? 0 : stats.dropped();
  }

  /** The validated Curtail settings this file system runs with. */
  public CurtailConfig curtailConfig() {
    return curtail;
  }

  /**
   * What this file system knows of DataNodes (latencies, slow and busy judgements), shared with
   * the other Curtail file systems of the JVM on the same cluster and knowledge scope; null with
   * every technique off.
   */
  public CurtailRuntime runtime() {
    return parts.runtime();
  }

  /** What this client's erasure-coded reads read around slow cells; null where stock's read. */
  public StripedReads stripedReads() {
    return parts.stripedReads;
  }

  /**
   * What this client's erasure-coded writes let go of slow streamers; null where stock's striped
   * stream waits for them (fail-fast or {@code curtail.write.striped.drop} off).
   */
  public StripedWatch stripedWrites() {
    return parts.writes == null ? null : parts.writes.stripedWrites();
  }

  /** Hedges this client started; 0 with hedging off. */
  public long hedgesTried() {
    return parts.reads == null ? 0 : parts.reads.hedgesTried();
  }

  /** Hedges that delivered before the read they overtook; 0 with hedging off. */
  public long hedgesWon() {
    return parts.reads == null ? 0 : parts.reads.hedgesWon();
  }

  /** Hedges that lost (a DataNode backs off after each); 0 with hedging off. */
  public long hedgesLost() {
    return parts.reads == null ? 0 : parts.reads.hedgesLost();
  }

  /** Overdue packets the hedge budget refused a hedge; 0 with hedging off. */
  public long hedgesDenied() {
    return parts.reads == null ? 0 : parts.reads.hedgesDenied();
  }

  /** Bytes this client's hedges received while racing; 0 with hedging off. */
  public long hedgedBytes() {
    return parts.reads == null ? 0 : parts.reads.hedgedBytes();
  }

  /** Blocks Curtail's writer allocated; 0 with fail-fast off. */
  public long blocksWritten() {
    return parts.writes == null ? 0 : parts.writes.blocksWritten();
  }

  /** Slow DataNodes fail-fast replaced in a pipeline; 0 with fail-fast off. */
  public long replacements() {
    return parts.writes == null ? 0 : parts.writes.replacements();
  }

  /**
   * The latest slow DataNodes fail-fast replaced (up to 256), oldest first: where each sat and on
   * what evidence; empty with fail-fast off.
   */
  public List<Replacement> recentReplacements() {
    return parts.writes == null ? Collections.emptyList() : parts.writes.recentReplacements();
  }

  /** Rebuilds on a replacement DataNode aborted for overrunning their timeout or failing. */
  public long rebuildsAborted() {
    return parts.writes == null ? 0 : parts.writes.rebuildsAborted();
  }

  /**
   * Tells {@code hook} of each step of mending this file system's write pipelines (fail-fast
   * replacements, recoveries): for tests and chaos runs that act at one exact step. Nothing with
   * fail-fast off.
   */
  public void repairHook(RepairHook hook) {
    if (parts.writes != null) {
      parts.writes.repairHook(hook);
    }
  }

  /** Pipelines recovered after a DataNode failed. */
  public long pipelineRecoveries() {
    return parts.writes == null ? 0 : parts.writes.recoveries();
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, EnumSet<CreateFlag> flags,
      int bufferSize, short replication, long blockSize, Progressable progress,
      ChecksumOpt checksumOpt) throws IOException {
    if (parts.writes == null) {
      long opened = System.nanoTime();
      return streams.stock(super.create(f, permission, flags, bufferSize, replication, blockSize,
          progress, checksumOpt), src(f), blockSize, opened);
    }
    return create(f, permission, flags, bufferSize, replication, blockSize, progress,
        checksumOpt, null);
  }

  /**
   * Creates a file whose blocks the NameNode places on {@code favoredNodes} where it can, with
   * {@code flags} and {@code checksumOpt}: Curtail's stream.
   */
  public FSDataOutputStream create(Path f, FsPermission permission, EnumSet<CreateFlag> flags,
      int bufferSize, short replication, long blockSize, Progressable progress,
      ChecksumOpt checksumOpt, InetSocketAddress[] favoredNodes) throws IOException {
    long opened = System.nanoTime();
    countWrite(DFSOpsCountStatistics.OpType.CREATE);
    return resolve(f, p -> streams.createOnce(parts.writes, pathName(p), permission, flags, true,
        replication, blockSize, progress, checksumOpt, favoredNodes, opened,
        again -> super.create(p, permission, again, bufferSize, replication, blockSize, progress,
            checksumOpt)),
        (fs, p) -> fs.create(p, permission, flags, bufferSize, replication, blockSize, progress,
            checksumOpt));
  }

  /** Stock's favoured-node create, typed for HDFS: Curtail's stream, with fail-fast on. */
  @Override
  public HdfsDataOutputStream create(Path f, FsPermission permission, boolean overwrite,
      int bufferSize, short replication, long blockSize, Progressable progress,
      InetSocketAddress[] favoredNodes) throws IOException {
    if (parts.writes == null) {
      return super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress,
          favoredNodes);
    }
    long opened = System.nanoTime();
    countWrite(DFSOpsCountStatistics.OpType.CREATE);
    EnumSet<CreateFlag> flags = overwrite ? EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)
        : EnumSet.of(CreateFlag.CREATE);
    // Every stream createOnce returns is an HdfsDataOutputStream, its fallback here too.
    return resolve(f, p -> (HdfsDataOutputStream) streams.createOnce(parts.writes, pathName(p),
        permission, flags, true, replication, blockSize, progress, null, favoredNodes, opened,
        again -> super.create(p, permission, true, bufferSize, replication, blockSize, progress,
            favoredNodes)),
        (fs, p) -> {
          if (fs instanceof DistributedFileSystem) {
            return ((DistributedFileSystem) fs).create(p, permission, overwrite, bufferSize,
                replication, blockSize, progress, favoredNodes);
          }
          // Stock's text.
          throw new UnsupportedOperationException("Cannot create with favoredNodes through a"
              + " symlink to a non-DistributedFileSystem: " + f + " -> " + p);
        });
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission,
      EnumSet<CreateFlag> flags, int bufferSize, short replication, long blockSize,
      Progressable progress) throws IOException {
    long opened = System.nanoTime();
    if (parts.writes == null) {
      return streams.stock(super.createNonRecursive(f, permission, flags, bufferSize,
          replication, blockSize, progress), src(f), blockSize, opened);
    }
    countWrite(DFSOpsCountStatistics.OpType.CREATE_NON_RECURSIVE);
    if (flags.contains(CreateFlag.OVERWRITE)) {
      flags.add(CreateFlag.CREATE);
    }
    return resolve(f, p -> streams.createOnce(parts.writes, pathName(p), permission, flags, false,
        replication, blockSize, progress, null, null, opened,
        again -> super.createNonRecursive(p, permission, again, bufferSize, replication,
            blockSize, progress)),
        (fs, p) -> fs.createNonRecursive(p, permission, flags, bufferSize, replication,
            blockSize, progress));
  }

  /** Counts a write operation as the stock methods do. */
  private void countWrite(DFSOpsCountStatistics.OpType op) {
    statistics.incrementWriteOps(1);
    if (opCounts != null) {
      opCounts.incrementOpCounter(op);
    }
  }

  @Override
  public FSDataOutputStream append(Path f, EnumSet<CreateFlag> flags, int bufferSize,
      Progressable progress) throws IOException {
    return append(f, flags, bufferSize, progress, null);
  }

  @Override
  public FSDataOutputStream append(Path f, EnumSet<CreateFlag> flags, int bufferSize,
      Progressable progress, InetSocketAddress[] favoredNodes) throws IOException {
    long opened = System.nanoTime();
    if (parts.writes == null) {
      FSDataOutputStream out = super.append(f, flags, bufferSize, progress, favoredNodes);
      return stats == null ? out
          : streams.stock(out, src(f), getFileStatus(f).getBlockSize(), opened);
    }
    countWrite(DFSOpsCountStatistics.OpType.APPEND);
    return resolve(f, p -> {
      CurtailOutputStream out = parts.writes.append(pathName(p), flags, progress, favoredNodes);
      return out != null ? streams.curtail(out, null, pathName(p), out.initialLength(), opened)
          : super.append(p, flags, bufferSize, progress, favoredNodes);
    }, (fs, p) -> fs.append(p, bufferSize));
  }

  @Override
  public void setVerifyChecksum(boolean verify) {
    this.verifyChecksum = verify;
    super.setVerifyChecksum(verify);
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    long opened = System.nanoTime(); // a file's record starts here, its metadata included
    if (parts.reads == null) {
      return streams.stock(super.open(f, bufferSize), src(f), opened);
    }
    // As the stock open does: count the operation, resolve symlinks, then open.
    statistics.incrementReadOps(1);
    if (opCounts != null) {
      opCounts.incrementOpCounter(DFSOpsCountStatistics.OpType.OPEN);
    }
    return resolve(f, p -> {
      String src = pathName(p);
      DFSInputStream metadata = getClient().open(src, bufferSize, verifyChecksum);
      try {
        if (metadata instanceof DFSStripedInputStream) {
          StripedInputStream striped = parts.stripedReads == null ? null
              : parts.stripedReads.open(getClient(), src, metadata, verifyChecksum, statistics);
          return striped == null ? getClient().createWrappedInputStream(metadata)
              : new CurtailDataInputStream(metadata, striped);
        }
        CurtailInputStream in = new CurtailInputStream(parts.reads, getClient(), getConf(), src,
            metadata, verifyChecksum, statistics);
        return streams.curtail(metadata, in, src, opened); // decrypting in encryption zones
      } catch (IOException | RuntimeException e) {
        metadata.close(); // all Curtail's stream holds until it reads
        throw e;
      }
    }, (fs, p) -> fs.open(p, bufferSize));
  }

  /** An operation on a path of this file system, once symlinks are resolved. */
  @FunctionalInterface
  private interface Here<T> {
    T call(Path p) throws IOException;
  }

  /** The same operation on whichever file system a symlink leads to. */
  @FunctionalInterface
  private interface Elsewhere<T> {
    T call(FileSystem fs, Path p) throws IOException;
  }

  /**
   * Resolves symlinks in {@code f} as every stock operation does, then runs the operation; on a
   * closed file system fails first, as stock's client does, before anything reaches the NameNode.
   */
  private <T> T resolve(Path f, Here<T> here, Elsewhere<T> elsewhere) throws IOException {
    if (!getClient().isClientRunning()) {
      throw new IOException("Filesystem closed"); // stock's text, which users grep for
    }
    return new FileSystemLinkResolver<T>() {
      @Override
      public T doCall(Path p) throws IOException {
        return here.call(p);
      }

      @Override
      public T next(FileSystem fs, Path p) throws IOException {
        return elsewhere.call(fs, p);
      }
    }.resolve(this, fixRelativePart(f));
  }

  /** {@code f}'s path, as statistics records name it. */
  private String src(Path f) {
    return fixRelativePart(f).toUri().getPath();
  }

  /** The path component of {@code p}, checked to belong to this file system, as stock does. */
  private String pathName(Path p) {
    checkPath(p);
    String result = p.toUri().getPath();
    if (!DFSUtilClient.isValidName(result)) {
      throw new IllegalArgumentException("Pathname " + result + " from " + p
          + " is not a valid DFS filename.");
    }
    return result;
  }

  @Override
  public void close() throws IOException {
    try {
      parts.closeWrites();
    } finally {
      try {
        super.close();
      } finally {
        parts.closeReads();
        if (stats != null) {
          stats.close();
        }
        parts.release();
      }
    }
  }
}
