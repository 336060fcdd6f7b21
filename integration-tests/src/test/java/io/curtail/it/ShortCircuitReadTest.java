package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.read.CurtailInputStream;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.ReadStatistics;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Short-circuit local reads, with Hadoop's legacy local reader standing in for the domain-socket
 * one (which needs {@code libhadoop}, in no registry these machines reach): both come from the
 * same {@code BlockReaderFactory}. Every DataNode of a MiniDFSCluster is on this host, so every
 * replica is local, the ones hedges go to included.
 *
 * <p>The clients get a {@code ClientContext} of their own ({@code dfs.client.context}): Hadoop
 * keeps contexts by name for the JVM and takes a context's settings (legacy reads among them) from
 * the first client that names it.
 */
class ShortCircuitReadTest {
  private static final int BLOCK = 1024 * 1024;
  private static final long LENGTH = 3L * BLOCK + 12_345;
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER = new FaultyClusterExtension(b -> b.dataNodes(3)
      .blockSize(BLOCK)
      .set("dfs.block.local-path-access.user", currentUser())
      .set("dfs.client.read.shortcircuit", "true")
      .set("dfs.client.use.legacy.blockreader.local", "true")
      .set("dfs.client.context", "short-circuit-read-test"));

  private static String currentUser() {
    try {
      return UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException e) {
      throw new IllegalStateException("no current user", e);
    }
  }

  @Test
  void aLocalReplicaIsReadFromItsBlockFileAndItsDataNodeServesNoBytes() throws Exception {
    FaultyCluster c = CLUSTER.cluster();
    Path p = new Path("/short-circuit/whole");
    SeededData.create(CLUSTER.stock(), p, 41, LENGTH);
    c.awaitReplicas(CLUSTER.stock(), p, 3);

    // The control: stock, on the same cluster and settings, reads every byte short-circuit.
    long servedBefore = c.bytesServed();
    ReadStatistics stock = readWholeAndPieces(CLUSTER.stock(), p);
    assertEquals(2 * LENGTH, stock.getTotalShortCircuitBytesRead(),
        "stock did not read short-circuit: the experiment's settings are wrong");
    assertEquals(0, c.bytesServed() - servedBefore, "DataNodes served stock's local reads");

    try (CurtailDistributedFileSystem fs = c.curtailFileSystem(new HashMap<>())) {
      servedBefore = c.bytesServed();
      ReadStatistics curtail = readWholeAndPieces(fs, p);
      assertEquals(2 * LENGTH, curtail.getTotalShortCircuitBytesRead());
      assertEquals(2 * LENGTH, curtail.getTotalLocalBytesRead());
      assertEquals(2 * LENGTH, curtail.getTotalBytesRead());
      assertEquals(0, c.bytesServed() - servedBefore,
          "DataNodes served bytes Curtail should have read from the block files");
    }
  }

  /**
   * Short-circuit reads on through the DataNode's domain socket, which needs {@code libhadoop}
   * (absent here): stock finds the socket unusable and reads over TCP, and so does Curtail.
   */
  @Test
  void withoutAUsableDomainSocketReadsGoOverTcpAsStocks() throws Exception {
    FaultyCluster c = CLUSTER.cluster();
    Path p = new Path("/short-circuit/no-socket");
    SeededData.create(CLUSTER.stock(), p, 47, LENGTH);
    c.awaitReplicas(CLUSTER.stock(), p, 3);
    Map<String, String> settings = new HashMap<>();
    settings.put("dfs.client.use.legacy.blockreader.local", "false");
    settings.put("dfs.domain.socket.path", "/nonexistent/curtail-dn-socket");
    settings.put("dfs.client.context", "short-circuit-read-test-domain-socket");
    for (FileSystem fs : new FileSystem[] {c.curtailFileSystem(settings), stockWith(c, settings)}) {
      try (FileSystem closing = fs; FSDataInputStream in = fs.open(p)) {
        SeededData.verify(in, 47, LENGTH, "a read with an unusable domain socket");
        ReadStatistics stats = ((HdfsDataInputStream) in).getReadStatistics();
        assertEquals(0, stats.getTotalShortCircuitBytesRead(), fs.getClass().getSimpleName());
        assertEquals(LENGTH, stats.getTotalBytesRead(), fs.getClass().getSimpleName());
      }
    }
  }

  private static FileSystem stockWith(FaultyCluster c, Map<String, String> settings)
      throws IOException {
    org.apache.hadoop.conf.Configuration conf = c.conf();
    conf.setClass("fs.hdfs.impl", org.apache.hadoop.hdfs.DistributedFileSystem.class,
        FileSystem.class);
    settings.forEach(conf::set);
    return FileSystem.newInstance(c.uri(), conf);
  }

  /**
   * A read waiting on a slow local disk is hedged to another replica, and when the hedge wins the
   * reader goes on at once: the piece still waiting on the disk is left to a helper thread, as a
   * disk read cannot be called back. Each of that disk's reads takes 4 s, so a read that waited
   * one out could not have finished sooner.
   */
  @Test
  void aSlowLocalDiskIsHedgedToAnotherReplicaWithoutWaitingItOut() throws Exception {
    FaultyCluster c = CLUSTER.cluster();
    Path p = new Path("/short-circuit/slow-disk");
    SeededData.create(CLUSTER.stock(), p, 43, LENGTH);
    c.awaitReplicas(CLUSTER.stock(), p, 3);
    long perReadMs = 4000;
    Map<String, String> settings = new HashMap<>();
    settings.put("curtail.read.hedging", "static");
    settings.put("curtail.read.hedging.static.threshold.ms", "50");
    try (CurtailDistributedFileSystem fs = c.curtailFileSystem(settings);
        Fault slow = c.slowLocalDisk(0, perReadMs)) {
      // DataNode 0 holds every block; which replica a read starts on is the NameNode's order,
      // so read until a hedge overtook one that started there (each read from a new stream, so
      // a new order).
      long tookMs = -1;
      for (int round = 0; round < 20 && fs.hedgesWon() == 0; round++) {
        long start = System.nanoTime();
        try (FSDataInputStream in = fs.open(p)) {
          assertTrue(in.getWrappedStream() instanceof CurtailInputStream);
          SeededData.verify(in, 43, LENGTH, "a read with dn0's local disk slow");
        }
        tookMs = (System.nanoTime() - start) / 1_000_000;
      }
      assertTrue(c.slowedLocalReads(0) > 0, "no read met the slow local disk in 20 rounds");
      assertTrue(fs.hedgesWon() > 0, "no hedge overtook a local read waiting " + perReadMs
          + " ms on its disk: tried " + fs.hedgesTried() + ", won " + fs.hedgesWon());
      assertTrue(tookMs < perReadMs, "the read a hedge won took " + tookMs + " ms, as long as"
          + " the slow disk's read it was to leave (" + perReadMs + " ms)");
    }
  }

  /**
   * Reads {@code p} whole, then again in 100 KiB positional pieces, each compared with the seed;
   * returns the stream's read statistics.
   */
  private static ReadStatistics readWholeAndPieces(FileSystem fs, Path p) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      SeededData.verify(in, 41, LENGTH, "a whole read of " + p);
      byte[] got = new byte[100 * 1024];
      for (long at = 0; at < LENGTH; at += got.length) {
        int n = (int) Math.min(got.length, LENGTH - at);
        in.readFully(at, got, 0, n);
        byte[] want = new byte[n];
        SeededData.fill(41, at, want, 0, n);
        assertArrayEquals(want, java.util.Arrays.copyOf(got, n), "bytes at " + at);
      }
      return ((HdfsDataInputStream) in).getReadStatistics();
    }
  }
}
