package io.curtail.client;

import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.track.LatencyRegistry;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Curtail's drop-in HDFS file system. Enable it with
 * {@code fs.hdfs.impl=io.curtail.client.CurtailDistributedFileSystem} (in Spark,
 * {@code spark.hadoop.fs.hdfs.impl=…}).
 *
 * <p>It reads and validates the {@code curtail.*} settings once, at initialisation, before it
 * connects to anything, so a bad value fails the job at start-up with the key, the rule and the
 * value. With every technique off it is the stock {@link DistributedFileSystem}; the write and read
 * techniques plug in their own streams here.
 */
public class CurtailDistributedFileSystem extends DistributedFileSystem {
  private static final Logger LOG = LoggerFactory.getLogger(CurtailDistributedFileSystem.class);

  private CurtailConfig curtail;

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    CurtailConfig parsed = CurtailConfig.from(conf);
    super.initialize(uri, conf);
    this.curtail = parsed;
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
}
