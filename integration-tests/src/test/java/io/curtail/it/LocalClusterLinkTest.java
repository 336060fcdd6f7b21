package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.curtail.testcluster.SeededData;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * {@code docker/local-cluster shape-link}: on DataNode processes in network namespaces of their
 * own, a link shaped from dn1 to dn2 slows a pipeline dn1 -> dn2 and not dn2 -> dn1 nor
 * dn1 -> dn3, through the stock client (which replaces no one); so does the plugin's link fault,
 * set from the command line in the dn1 process; every byte read back. Skipped
 * where the machine gives no namespaces (not root), where no link can be shaped.
 */
class LocalClusterLinkTest {
  private static final int NN_PORT = 19_940; // beside LocalClusterTest's 19920
  private static final int MIB = 1024 * 1024;
  /** 4 Mbit/s: a 4 MiB block's forwarding takes 8 s, a healthy one well under a second. */
  private static final String RATE = "4mbit";
  private static final long SHAPED_NANOS = 4L * MIB * 8 * 1_000_000_000L / 4_000_000;

  private final LocalClusterLauncher cluster =
      new LocalClusterLauncher("local-cluster-link", NN_PORT);

  @Test
  void aShapedLinkSlowsOneDirectionBetweenTwoDataNodeProcesses() throws Exception {
    LocalClusterLauncher.assumeCurl();
    String started = cluster.run("start", "-n", "3");
    try {
      assumeTrue(started.contains("(netns;"), "no network namespaces here: " + started);
      InetSocketAddress[] dn = new InetSocketAddress[4];
      Matcher m = Pattern.compile("dn(\\d)\\s+([0-9.]+):(\\d+)").matcher(started);
      while (m.find()) {
        dn[Integer.parseInt(m.group(1))] =
            new InetSocketAddress(m.group(2), Integer.parseInt(m.group(3)));
      }
      assertTrue(cluster.run("shape-link", "1", "2", RATE).contains("dn1 -> dn2 shaped"));
      Configuration conf = new Configuration();
      conf.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
      try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.newInstance(
          URI.create("hdfs://127.0.0.1:" + NN_PORT), conf)) {
        long oneToTwo = write(fs, new Path("/link/1-2"), 1, 4L * MIB, dn[1], dn[2], dn[3]);
        long twoToOne = write(fs, new Path("/link/2-1"), 2, 4L * MIB, dn[2], dn[1], dn[3]);
        long oneToThree = write(fs, new Path("/link/1-3"), 3, 4L * MIB, dn[1], dn[3], dn[2]);
        String times = "dn1->dn2 " + oneToTwo / 1_000_000 + " ms, dn2->dn1 "
            + twoToOne / 1_000_000 + " ms, dn1->dn3 " + oneToThree / 1_000_000 + " ms";
        System.out.println("Shaped link: " + times);
        assertTrue(oneToTwo >= SHAPED_NANOS * 8 / 10, times);
        assertTrue(twoToOne < SHAPED_NANOS / 2 && oneToThree < SHAPED_NANOS / 2, times);
        SeededData.verify(fs, new Path("/link/1-2"), 1, 4L * MIB);
        SeededData.verify(fs, new Path("/link/2-1"), 2, 4L * MIB);
        SeededData.verify(fs, new Path("/link/1-3"), 3, 4L * MIB);
      }
      assertTrue(cluster.run("unshape-link", "1", "2").contains("unshaped"));

      // The plugin's link fault in a DataNode process names its peer as the DataNode does its
      // mirror, the address it reaches dn2 at: 1 MiB through dn1 -> dn2 held 20 ms a packet.
      String peer = dn[2].getAddress().getHostAddress() + ":" + dn[2].getPort();
      assertTrue(cluster.run("fault", "1", "delayLink", peer, "20000").contains("link to " + peer));
      try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.newInstance(
          URI.create("hdfs://127.0.0.1:" + NN_PORT), conf)) {
        long oneToTwo = write(fs, new Path("/link/plugin-1-2"), 4, MIB, dn[1], dn[2], dn[3]);
        long twoToOne = write(fs, new Path("/link/plugin-2-1"), 5, MIB, dn[2], dn[1], dn[3]);
        String times = "plugin link: dn1->dn2 " + oneToTwo / 1_000_000 + " ms, dn2->dn1 "
            + twoToOne / 1_000_000 + " ms";
        System.out.println("Shaped link: " + times);
        assertTrue(oneToTwo >= 16 * 20_000_000L, times);
        assertTrue(cluster.run("fault", "1", "show").contains("link to " + peer));
        SeededData.verify(fs, new Path("/link/plugin-1-2"), 4, MIB);
        SeededData.verify(fs, new Path("/link/plugin-2-1"), 5, MIB);
      }
      assertTrue(cluster.run("fault", "1", "heal").contains("dn1: none"));
    } finally {
      cluster.run("stop");
    }
  }

  /** Writes {@code length} bytes through {@code pipeline} in that order; returns its nanoseconds. */
  private static long write(DistributedFileSystem fs, Path p, long seed, long length,
      InetSocketAddress... pipeline) throws Exception {
    long start = System.nanoTime();
    try (FSDataOutputStream out = fs.createFile(p).recursive().replication((short) 3)
        .blockSize(8L * MIB).favoredNodes(pipeline).ignoreClientLocality().build()) {
      SeededData.write(out, seed, length);
    }
    return System.nanoTime() - start;
  }
}
