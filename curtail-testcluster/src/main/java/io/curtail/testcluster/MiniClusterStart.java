package io.curtail.testcluster;

import io.curtail.datanode.DataNodeSetup;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * Starts the {@link MiniDFSCluster} a {@link FaultyCluster} runs on: its configuration (Curtail's
 * plugin with fault injection, small checksums, quick heartbeats), a host name per DataNode, the
 * stock DataNodes of a mixed cluster, and a wait until every DataNode's storage is known.
 */
final class MiniClusterStart {
  private static final AtomicInteger CLUSTERS = new AtomicInteger();

  private MiniClusterStart() {}

  /**
   * Starts {@code dataNodes} DataNodes, the last {@code stockDataNodes} of them without Curtail's
   * plugin, with {@code conf} (completed here) under {@code baseDir}.
   *
   * @param considerLoadSet whether the caller set the NameNode's placement by load itself
   */
  static MiniDFSCluster start(Configuration conf, File baseDir, int dataNodes,
      int stockDataNodes, long blockSize, boolean considerLoadSet) throws IOException {
    if (stockDataNodes < 0 || stockDataNodes > dataNodes) {
      throw new IllegalArgumentException(stockDataNodes + " stock DataNodes of " + dataNodes);
    }
    // What this JVM learnt of another cluster's DataNodes (latencies, slow and busy judgements)
    // says nothing of this one's: its Curtail clients share a knowledge scope of their own.
    conf.set("curtail.knowledge.scope", "faulty-cluster-" + CLUSTERS.incrementAndGet());
    DataNodeSetup.withFaultInjection(conf);
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, blockSize);
    conf.setInt(DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_KEY, 512);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 512);
    // Quick heartbeats so a stopped DataNode is noticed and a restarted one rejoins in seconds.
    conf.setLong(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY, 3000);
    // Two cores run the whole cluster: unless set, spare it the NameNode's placement of
    // replicas by load, which otherwise shuns a DataNode slowed on purpose.
    if (!considerLoadSet) {
      conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_KEY, false);
    }
    String[] hosts = new String[dataNodes];
    for (int i = 0; i < dataNodes; i++) {
      hosts[i] = "dn" + i + ".curtail.test";
    }
    int equipped = dataNodes - stockDataNodes;
    MiniDFSCluster c = new MiniDFSCluster.Builder(conf, baseDir)
        .numDataNodes(equipped)
        .hosts(Arrays.copyOf(hosts, equipped))
        .build();
    if (stockDataNodes > 0) {
      Configuration stock = new Configuration(conf);
      stock.unset(DFSConfigKeys.DFS_DATANODE_PLUGINS_KEY);
      c.startDataNodes(stock, stockDataNodes, true, null, null,
          Arrays.copyOfRange(hosts, equipped, dataNodes), null);
    }
    c.waitActive();
    awaitStorageReports(c);
    return c;
  }

  /**
   * Waits (at most 30 s) until the NameNode knows every DataNode's storage: one registered but not
   * yet heard from with its capacity is never chosen for a pipeline, so a write right after start
   * could get fewer replicas than asked, and a test would see a short pipeline nothing caused.
   */
  private static void awaitStorageReports(MiniDFSCluster c) throws IOException {
    Await.until(Duration.ofSeconds(30), 50, () -> {
      // Asked of the NameNode directly: c.getFileSystem() would put a stock file system in
      // FileSystem's cache, where tests that set fs.hdfs.impl would then find it.
      DatanodeInfo[] live =
          c.getNameNodeRpc().getDatanodeReport(HdfsConstants.DatanodeReportType.LIVE);
      return live.length == c.getDataNodes().size()
          && Arrays.stream(live).allMatch(d -> d.getRemaining() > 0)
          ? null : "DataNodes without a storage report: " + Arrays.toString(live);
    });
  }
}
