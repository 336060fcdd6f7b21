package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.read.CurtailInputStream;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.FsDatasetTestUtils;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reads with checksum verification off ({@code setVerifyChecksum(false)}: HBase reads every HFile
 * so, checking its own checksums) go through Curtail's reader, which then asks the DataNodes for
 * no checksums, as stock's does, and keeps its tail protection (issue #33). Before, such streams
 * were stock's.
 */
class ChecksumOffReadTest {
  private static final int KIB = 1024;
  private static final int BLOCK = 256 * KIB;
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER =
      new FaultyClusterExtension(b -> b.dataNodes(4).blockSize(BLOCK));
  private static FaultyCluster cluster;
  private static DistributedFileSystem stock;
  private static int fileNo;

  @BeforeAll
  static void names() {
    cluster = CLUSTER.cluster();
    stock = CLUSTER.stock();
  }

  /** A Curtail file system with checksum verification off, knowing nothing of the DataNodes. */
  private static CurtailDistributedFileSystem unverified(String... settings) throws IOException {
    CurtailDistributedFileSystem fs =
        cluster.curtailFileSystem("checksum-off-" + (fileNo++), settings);
    fs.setVerifyChecksum(false);
    return fs;
  }

  /** A file of {@code length} seeded bytes on the given DataNodes, written by the stock client. */
  private static Path file(long seed, long length, int... on) throws IOException {
    Path p = new Path("/checksum-off/f" + (fileNo++));
    return SeededData.writeOn(cluster, stock, p, seed, length, (short) on.length, on);
  }

  @Test
  void openAndOpenFileGiveCurtailsStreamAndReadBackExact() throws Exception {
    long length = 3L * BLOCK + 777; // three blocks and a partial chunk
    Path p = file(1, length, 0, 1, 2);
    try (CurtailDistributedFileSystem fs = unverified()) {
      try (FSDataInputStream in = fs.open(p)) {
        assertTrue(in.getWrappedStream() instanceof CurtailInputStream,
            "open with verification off gave " + in.getWrappedStream().getClass().getName());
        SeededData.verify(in, 1, length, p.toString());
      }
      try (FSDataInputStream in = fs.openFile(p).build().get()) {
        assertTrue(in.getWrappedStream() instanceof CurtailInputStream,
            "openFile with verification off gave " + in.getWrappedStream().getClass().getName());
        // A seek back across a block, a positional read across the next block boundary, and a
        // read into a direct buffer from there.
        in.seek(BLOCK + 5);
        byte[] got = new byte[1000];
        in.readFully(got);
        assertArrayEquals(slice(1, BLOCK + 5, 1000), got);
        in.readFully(2L * BLOCK - 300, got);
        assertArrayEquals(slice(1, 2L * BLOCK - 300, 1000), got);
        in.seek(100);
        ByteBuffer direct = ByteBuffer.allocateDirect(5000);
        while (direct.hasRemaining()) {
          assertTrue(in.read(direct) > 0);
        }
        direct.flip();
        byte[] copy = new byte[5000];
        direct.get(copy);
        assertArrayEquals(slice(1, 100, 5000), copy);
      }
    }
  }

  /**
   * dn0's disk takes 200 ms a packet; the file is on dn0 and dn3, and the stream starts on dn0.
   * A static threshold of 50 ms hedges its first packet to dn3, which wins, and the file reads
   * back exact long before dn0 would have served it.
   */
  @Test
  void aSlowDiskIsHedgedAroundWithChecksumOff() throws Exception {
    long length = 2L * BLOCK;
    Path p = file(2, length, 0, 3);
    try (CurtailDistributedFileSystem fs = unverified("curtail.read.hedging", "static",
        "curtail.read.hedging.static.threshold.ms", "50");
        Fault slow = cluster.slowDisk(0,
            DiskFault.serviceTime(Duration.ofMillis(200)).withReads());
        FSDataInputStream in = SlowFirstReplica.open(fs, p, cluster, 0)) {
      assertTrue(in.getWrappedStream() instanceof CurtailInputStream,
          in.getWrappedStream().getClass().getName());
      long start = System.nanoTime();
      SeededData.verify(in, 2, length, p.toString());
      long ms = (System.nanoTime() - start) / 1_000_000;
      assertTrue(fs.hedgesWon() > 0, "no hedge won; tried " + fs.hedgesTried());
      // dn0 alone would take 200 ms for each of the file's 8 packets of 64 KiB.
      assertTrue(ms < 1600, "the file took " + ms + " ms: dn0 was waited out");
    }
  }

  /**
   * A replica damaged on disk: with verification off, stock's client reads its bytes as they are
   * and reports nothing (it has nothing to check them against), and so does Curtail's, byte for
   * byte the same.
   */
  @Test
  void aCorruptReplicaReadsAsStocksDoesAndNothingIsReported() throws Exception {
    Path p = file(3, BLOCK, 1);
    ExtendedBlock block = stock.getClient().getLocatedBlocks(p.toString(), 0).get(0).getBlock();
    cluster.corruptReplica(1, block);
    byte[] stockRead = new byte[BLOCK];
    byte[] curtailRead = new byte[BLOCK];
    try (DistributedFileSystem plain = cluster.stockFileSystem()) {
      plain.setVerifyChecksum(false);
      try (InputStream in = plain.open(p)) {
        IOUtils.readFully(in, stockRead, 0, BLOCK);
        assertEquals(-1, in.read());
      }
    }
    try (CurtailDistributedFileSystem fs = unverified();
        FSDataInputStream in = fs.open(p)) {
      assertTrue(in.getWrappedStream() instanceof CurtailInputStream,
          in.getWrappedStream().getClass().getName());
      IOUtils.readFully(in, curtailRead, 0, BLOCK);
      assertEquals(-1, in.read());
    }
    assertFalse(java.util.Arrays.equals(SeededData.bytes(3, BLOCK), stockRead),
        "the replica was not damaged");
    assertArrayEquals(stockRead, curtailRead, "Curtail read other bytes than stock");
    assertEquals(0, cluster.corruptReplicas(block), "a replica was reported corrupt");
  }

  /**
   * A replica whose checksum file lost its contents: a DataNode asked for checksums cannot send
   * them and fails the read, one asked for none reads the block file alone. With verification off
   * stock's client asks for none and reads the file exact, and so does Curtail's: it asked the
   * DataNode as stock does.
   */
  @Test
  void aReplicaWithoutItsChecksumsReadsWhenNoneAreAskedFor() throws Exception {
    Path p = file(4, BLOCK + 99, 2);
    for (LocatedBlock b : stock.getClient().getLocatedBlocks(p.toString(), 0)
        .getLocatedBlocks()) {
      FsDatasetTestUtils.Factory.getFactory(cluster.conf()).newInstance(cluster.dataNode(2))
          .getMaterializedReplica(b.getBlock()).truncateMeta(0);
    }
    try (DistributedFileSystem plain = cluster.stockFileSystem()) {
      plain.setVerifyChecksum(false);
      SeededData.verify(plain, p, 4, BLOCK + 99);
    }
    try (CurtailDistributedFileSystem fs = unverified();
        FSDataInputStream in = fs.open(p)) {
      assertTrue(in.getWrappedStream() instanceof CurtailInputStream,
          in.getWrappedStream().getClass().getName());
      SeededData.verify(in, 4, BLOCK + 99, p.toString());
    }
  }

  private static byte[] slice(long seed, long position, int length) {
    byte[] b = new byte[length];
    SeededData.fill(seed, position, b, 0, length);
    return b;
  }
}
