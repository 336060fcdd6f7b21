package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.write.CurtailOutputStream;
import io.curtail.testcluster.Replication;
import io.curtail.testcluster.SeededData;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * {@code docker/local-cluster}, the launcher users run (and the containers run), end to end: a
 * NameNode and four DataNodes as processes of their own (in network namespaces of their own where
 * the machine allows), a Curtail write across blocks during which a DataNode process is killed
 * with {@code kill -9} and then revived, every byte read back by the stock client at full
 * replication, a fault of the plugin changed in a running DataNode from the command line, and
 * {@code stop} leaving no process behind.
 */
class LocalClusterTest {
  private static final int NN_PORT = 19_920; // beside, not on, a user's cluster at 19820
  private static final int MIB = 1024 * 1024;

  private final LocalClusterLauncher cluster = new LocalClusterLauncher("local-cluster", NN_PORT);

  @Test
  void curtailWritesThroughAKilledDataNodeProcessOnTheLauncherCluster() throws Exception {
    LocalClusterLauncher.assumeCurl();
    String started = cluster.run("start", "-n", "4");
    try {
      assertTrue(started.contains("live DataNodes: 4"), started);
      // The plugin's faults, changed in a running DataNode process from the command line.
      assertTrue(cluster.run("fault", "1", "slowOpens", "1000").contains("serviceUs=1000"));
      assertTrue(cluster.run("fault", "1", "heal").contains("dn1: none"));
      URI uri = URI.create("hdfs://127.0.0.1:" + NN_PORT);
      Configuration conf = new Configuration();
      conf.set("fs.hdfs.impl", CurtailDistributedFileSystem.class.getName());
      conf.set("dfs.client.socket-timeout", "10000");
      Path p = new Path("/launcher/written");
      int victim = 0;
      long length = 3L * MIB + 4321;
      try (CurtailDistributedFileSystem fs =
              (CurtailDistributedFileSystem) FileSystem.newInstance(uri, conf);
          DistributedFileSystem stock = (DistributedFileSystem) FileSystem.newInstance(uri,
              stockConf(conf))) {
        try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 3, MIB)) {
          assertTrue(out.getWrappedStream() instanceof CurtailOutputStream);
          byte[] chunk = new byte[64 * 1024];
          for (long at = 0; at < length; at += chunk.length) {
            int len = (int) Math.min(chunk.length, length - at);
            SeededData.fill(5, at, chunk, 0, len);
            out.write(chunk, 0, len);
            if (at == MIB + 512 * 1024) {
              out.hflush(); // mid-block, the pipeline set up: kill one of its DataNodes
              victim = aDataNodeOfThePipeline(stock, p);
              cluster.run("kill", Integer.toString(victim));
            }
          }
        }
        assertTrue(fs.pipelineRecoveries() >= 1, "dn" + victim + " was killed unnoticed");
        SeededData.verify(stock, p, 5, length);
        cluster.run("revive", Integer.toString(victim));
        // The NameNode restores the third replica, but may first send it to the killed
        // DataNode, not yet known dead; that copy is asked again after the launcher's pending
        // timeout (10 s), and a DataNode process can take half a minute to come back where
        // name look-ups time out (a network namespace without DNS).
        Replication.await(stock, p, 3, Duration.ofSeconds(120));
      }
    } finally {
      String stopped = cluster.run("stop");
      assertTrue(stopped.contains("stopped"), stopped);
    }
    for (String name : new String[] {"nn", "dn1", "dn2", "dn3", "dn4"}) {
      assertFalse(new File(cluster.dir(), name + "/pid").exists(), name + " left a pid file");
    }
  }

  /**
   * The launcher's number of a DataNode of the pipeline writing {@code p}'s last block, the
   * second the NameNode lists; it sorts them for readers, so that is any place in the pipeline.
   * A DataNode's transfer port is the NameNode's plus 180 plus ten times its number.
   */
  private static int aDataNodeOfThePipeline(DistributedFileSystem stock, Path p)
      throws IOException {
    int port = stock.getClient().getLocatedBlocks(p.toString(), 0).getLastLocatedBlock()
        .getLocations()[1].getXferPort();
    return (port - NN_PORT - 180) / 10;
  }

  private static Configuration stockConf(Configuration conf) {
    Configuration c = new Configuration(conf);
    c.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
    return c;
  }
}
