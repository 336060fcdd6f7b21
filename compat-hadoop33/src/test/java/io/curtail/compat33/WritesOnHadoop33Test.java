package io.curtail.compat33;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.compat.HadoopApi;
import io.curtail.client.write.CurtailOutputStream;
import io.curtail.client.write.striped.StripedWatch;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.Replication;
import io.curtail.testcluster.SeededData;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Curtail's writer on a Hadoop 3.3.6 class path, against a 3.3.6 cluster (FaultyCluster, whose
 * DataNodes run as stock here: Curtail's plugin finds 3.3.6 lacking and stays out of the data
 * path): the writes that meet what 3.3 lacks. A DataNode stopped in
 * the middle of a write sends the streamer through a pipeline recovery, a slow one through a
 * fail-fast replacement, and an append sets a pipeline up on an existing block; each of those
 * asks how many recoveries it may try, which on 3.3 killed the streamer with a
 * {@code NoSuchMethodError} (#32). Every file is read back byte for byte with the stock client.
 */
@Timeout(90)
class WritesOnHadoop33Test {
  private static final int MIB = 1024 * 1024;

  private static FSDataOutputStream create(CurtailDistributedFileSystem fs, Path p,
      short replication, InetSocketAddress... favoured) throws IOException {
    return create(fs, p, replication, 4 * MIB, favoured);
  }

  private static FSDataOutputStream create(CurtailDistributedFileSystem fs, Path p,
      short replication, long blockSize, InetSocketAddress... favoured) throws IOException {
    FSDataOutputStream out = fs.create(p, null,
        EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE), 4096, replication, blockSize, null,
        null, favoured.length == 0 ? null : favoured);
    assertTrue(out.getWrappedStream() instanceof CurtailOutputStream, "Curtail's own stream");
    return out;
  }

  private static void verify(FaultyCluster c, DistributedFileSystem stock, Path p, long seed,
      long length, int replication) throws IOException {
    assertEquals(length, stock.getFileStatus(p).getLen(), "length of " + p);
    SeededData.verify(stock, p, seed, length);
    c.awaitReplicas(stock, p, replication);
  }

  @Test
  void theClassPathIsHadoop33() {
    assertEquals("3.3.6", VersionInfo.getVersion(), "this module must run on Hadoop 3.3.6");
    assertEquals("renewLease=(String) maxPipelineRecoveryRetries="
        + "dfs.client.pipeline.recovery.max-retries read by Curtail", HadoopApi.probed());
  }

  @Test
  void aDataNodeStoppedMidWriteIsRecoveredAroundAndTheFileIsWhole() throws Exception {
    try (FaultyCluster c = FaultyCluster.builder().dataNodes(4).blockSize(4 * MIB).build();
        DistributedFileSystem stock = c.stockFileSystem();
        CurtailDistributedFileSystem fs = c.curtailFileSystem(Map.of())) {
      Path p = new Path("/stopped");
      long length = 6 * MIB;
      FSDataOutputStream out = create(fs, p, (short) 3);
      SeededData.write(out, 1, MIB);
      out.hflush();
      int victim = c.replicas(stock, p).get(0).get(1); // the middle of the pipeline
      try (Fault stopped = c.stop(victim)) {
        try (FSDataOutputStream rest = out) {
          SeededData.write(rest, 1, MIB, length);
        }
        assertTrue(fs.pipelineRecoveries() >= 1, "recovered " + fs.pipelineRecoveries());
        verify(c, stock, p, 1, length, 3);
      }
    }
  }

  /**
   * Curtail's DataNode plugin stays inactive on 3.3.6 (it lacks the read throttler the plugin
   * hooks), so the plugin's slow disk is not available here, nor is 3.4's write throttle
   * reconfigured at run time: the slow DataNode is one started with HDFS's own write bandwidth
   * limit, in a plain MiniDFSCluster, and the writer sees it through stock acks.
   */
  @Test
  void aDataNodeThrottledFromTheStartIsReplacedAndTheFileIsWhole(@TempDir File dir)
      throws Exception {
    Configuration conf = new Configuration();
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_KEY, false);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, dir).numDataNodes(3).build();
    try {
      Configuration throttled = new Configuration(conf);
      throttled.setLong(DFSConfigKeys.DFS_DATANODE_DATA_WRITE_BANDWIDTHPERSEC_KEY, MIB);
      cluster.startDataNodes(throttled, 1, true, null, null);
      cluster.waitActive();
      awaitStorageReports(cluster, 4);
      // By IP, as the NameNode knows them: favoured nodes are matched by name.
      InetSocketAddress slow = new InetSocketAddress("127.0.0.1",
          cluster.getDataNodes().get(3).getXferPort());
      InetSocketAddress healthy = new InetSocketAddress("127.0.0.1",
          cluster.getDataNodes().get(0).getXferPort());
      Configuration curtail = new Configuration(cluster.getConfiguration(0));
      curtail.set("fs.hdfs.impl", CurtailDistributedFileSystem.class.getName());
      Configuration stockConf = new Configuration(cluster.getConfiguration(0));
      stockConf.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
      try (CurtailDistributedFileSystem fs = (CurtailDistributedFileSystem)
              FileSystem.newInstance(cluster.getURI(), curtail);
          DistributedFileSystem stock = (DistributedFileSystem)
              FileSystem.newInstance(cluster.getURI(), stockConf)) {
        Path p = new Path("/throttled");
        try (FSDataOutputStream out = create(fs, p, (short) 2, 8 * MIB, slow, healthy)) {
          SeededData.write(out, 2, 8 * MIB);
        }
        assertTrue(fs.replacements() >= 1, "the throttled DataNode replaced: "
            + fs.replacements());
        assertEquals(8 * MIB, stock.getFileStatus(p).getLen(), "length of " + p);
        SeededData.verify(stock, p, 2, 8 * MIB);
        Replication.await(stock, p, 2);
        for (BlockLocation b : stock.getFileBlockLocations(p, 0, 8 * MIB)) {
          assertFalse(Arrays.asList(b.getNames()).contains(slow.getHostString() + ":"
              + slow.getPort()), "the throttled DataNode left the pipeline: "
              + Arrays.toString(b.getNames()));
        }
      }
    } finally {
      cluster.shutdown();
    }
  }

  /**
   * Curtail's watch of stock's striped streamers reaches 3.3's members too: it reads every
   * streamer of an RS-3-2 group on five DataNodes and, all of them healthy, lets none go. (No
   * DataNode is slowed here: the plugin's slow disk is not available on 3.3.6, and a DataNode's
   * write bandwidth limit, which slows a replicated pipeline here, let a striped write's packets
   * through in bursts about as fast as the others'.)
   */
  @Test
  void aStripedWriteIsWatched(@TempDir File dir) throws Exception {
    Configuration conf = new Configuration();
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_KEY, false);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, dir).numDataNodes(5).build();
    try {
      cluster.waitActive();
      awaitStorageReports(cluster, 5);
      Configuration curtail = new Configuration(cluster.getConfiguration(0));
      curtail.set("fs.hdfs.impl", CurtailDistributedFileSystem.class.getName());
      Configuration stockConf = new Configuration(cluster.getConfiguration(0));
      stockConf.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
      try (CurtailDistributedFileSystem fs = (CurtailDistributedFileSystem)
              FileSystem.newInstance(cluster.getURI(), curtail);
          DistributedFileSystem stock = (DistributedFileSystem)
              FileSystem.newInstance(cluster.getURI(), stockConf)) {
        stock.enableErasureCodingPolicy("RS-3-2-1024k");
        stock.mkdirs(new Path("/ec"));
        stock.setErasureCodingPolicy(new Path("/ec"), "RS-3-2-1024k");
        Path p = new Path("/ec/watched");
        long length = 12 * MIB; // two groups of 2 MiB internal blocks
        try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, 2 * MIB)) {
          SeededData.write(out, 3, length);
        }
        StripedWatch watch = fs.stripedWrites();
        assertTrue(watch != null, "the striped watch is off on " + VersionInfo.getVersion());
        assertEquals(2, watch.groups(), "block groups watched");
        assertEquals(0, watch.drops(), "let go on a healthy cluster: " + watch.recentDrops());
        SeededData.verify(stock, p, 3, length);
      }
    } finally {
      cluster.shutdown();
    }
  }

  /** Until the NameNode has every DataNode's storage: one without is chosen for no pipeline. */
  private static void awaitStorageReports(MiniDFSCluster cluster, int dataNodes)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    DatanodeInfo[] live;
    do {
      Thread.sleep(100);
      live = cluster.getNameNodeRpc().getDatanodeReport(HdfsConstants.DatanodeReportType.LIVE);
    } while ((live.length < dataNodes || !Arrays.stream(live).allMatch(d -> d.getRemaining() > 0))
        && System.nanoTime() < deadline);
    assertEquals(dataNodes, live.length, "DataNodes with storage: " + Arrays.toString(live));
  }

  @Test
  void anAppendedFileIsWhole() throws Exception {
    try (FaultyCluster c = FaultyCluster.builder().dataNodes(3).blockSize(4 * MIB).build();
        DistributedFileSystem stock = c.stockFileSystem();
        CurtailDistributedFileSystem fs = c.curtailFileSystem(Map.of())) {
      Path p = new Path("/appended");
      long first = 3 * MIB + 1000; // the append starts inside a block and a checksum chunk
      long length = 6 * MIB;
      try (FSDataOutputStream out = create(fs, p, (short) 3)) {
        SeededData.write(out, 3, first);
      }
      try (FSDataOutputStream out = fs.append(p)) {
        assertTrue(out.getWrappedStream() instanceof CurtailOutputStream, "Curtail's own stream");
        byte[] bytes = new byte[(int) (length - first)];
        SeededData.fill(3, first, bytes, 0, bytes.length);
        out.write(bytes);
      }
      verify(c, stock, p, 3, length, 3);
    }
  }
}
