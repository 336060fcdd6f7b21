package io.curtail.client;

import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.conf.HedgingMode;
import io.curtail.client.read.CurtailInputStream;
import io.curtail.client.read.ReadContext;
import io.curtail.client.track.LatencyRegistry;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileSystemLinkResolver;
import org.apache.hadoop.fs.GlobalStorageStatistics;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageStatistics;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DFSOpsCountStatistics;
import org.apache.hadoop.hdfs.DFSStripedInputStream;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.net.NetUtils;
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
 * and the {@code openFile} builder return Curtail's {@link CurtailInputStream}, except for
 * erasure-coded files, files in encryption zones and streams with checksum verification turned
 * off, which keep the stock stream. The stream is a plain {@link FSDataInputStream}, not an
 * {@code HdfsDataInputStream}.
 */
public class CurtailDistributedFileSystem extends DistributedFileSystem {
  private static final Logger LOG = LoggerFactory.getLogger(CurtailDistributedFileSystem.class);

  private CurtailConfig curtail;
  private ReadContext reads;
  private boolean verifyChecksum = true;
  private DFSOpsCountStatistics opCounts;

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    CurtailConfig parsed = CurtailConfig.from(conf);
    super.initialize(uri, conf);
    this.curtail = parsed;
    if (parsed.readHedging() != HedgingMode.OFF) {
      reads = new ReadContext(parsed, LatencyRegistry.shared(),
          NetUtils.getSocketFactory(conf, ClientProtocol.class));
    }
    StorageStatistics ops = GlobalStorageStatistics.INSTANCE.get(DFSOpsCountStatistics.NAME);
    opCounts = ops instanceof DFSOpsCountStatistics ? (DFSOpsCountStatistics) ops : null;
    LOG.debug("Curtail initialised uri={} config={}", uri, parsed);
  }

  /** The validated Curtail settings this file system runs with. */
  public CurtailConfig curtailConfig() {
    return curtail;
  }

  /** What this JVM knows of DataNode latencies, shared by every Curtail stream. */
  public LatencyRegistry latencyRegistry() {
    return LatencyRegistry.shared();
  }

  /** Hedges this client started; 0 with hedging off. */
  public long hedgesTried() {
    return reads == null ? 0 : reads.hedgesTried();
  }

  /** Hedges that delivered before the read they overtook; 0 with hedging off. */
  public long hedgesWon() {
    return reads == null ? 0 : reads.hedgesWon();
  }

  /** Hedges that lost (a DataNode backs off after each); 0 with hedging off. */
  public long hedgesLost() {
    return reads == null ? 0 : reads.hedgesLost();
  }

  @Override
  public void setVerifyChecksum(boolean verify) {
    this.verifyChecksum = verify;
    super.setVerifyChecksum(verify);
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    if (reads == null) {
      return super.open(f, bufferSize);
    }
    // As the stock open does: count the operation, resolve symlinks, then open.
    statistics.incrementReadOps(1);
    if (opCounts != null) {
      opCounts.incrementOpCounter(DFSOpsCountStatistics.OpType.OPEN);
    }
    return new FileSystemLinkResolver<FSDataInputStream>() {
      @Override
      public FSDataInputStream doCall(Path p) throws IOException {
        String src = pathName(p);
        DFSInputStream metadata = getClient().open(src, bufferSize, verifyChecksum);
        try {
          if (metadata instanceof DFSStripedInputStream || !verifyChecksum
              || metadata.getFileEncryptionInfo() != null) {
            return getClient().createWrappedInputStream(metadata);
          }
          return new FSDataInputStream(
              new CurtailInputStream(reads, getClient(), src, metadata, statistics));
        } catch (IOException | RuntimeException e) {
          metadata.close();
          throw e;
        }
      }

      @Override
      public FSDataInputStream next(FileSystem fs, Path p) throws IOException {
        return fs.open(p, bufferSize);
      }
    }.resolve(this, fixRelativePart(f));
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
      super.close();
    } finally {
      if (reads != null) {
        reads.close();
      }
    }
  }
}
