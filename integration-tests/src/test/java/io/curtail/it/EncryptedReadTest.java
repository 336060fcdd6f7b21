package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.read.CurtailInputStream;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.LocalKeyStore;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.SplittableRandom;
import org.apache.hadoop.crypto.CryptoInputStream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Files in an encryption zone read through Curtail's stream inside Hadoop's crypto stream, as
 * stock's client wraps its own (issue #33): sequential reads, seeks, positional reads and
 * {@code read(ByteBuffer)} decrypt exact wherever they start, and a slow DataNode is hedged
 * around. Before, these files kept stock's stream. The zone's key lives in a local key store.
 */
class EncryptedReadTest {
  private static final String KEY = "curtail-read-key";
  private static final int KIB = 1024;
  private static final int BLOCK = 256 * KIB;
  private static final Path ZONE = new Path("/encrypted-reads");
  private static final LocalKeyStore KEYS = LocalKeyStore.withKeys(KEY);
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER = new FaultyClusterExtension(b -> b.dataNodes(4)
      .blockSize(BLOCK)
      .set(LocalKeyStore.PROVIDER_PATH, KEYS.uri()));
  private static FaultyCluster cluster;
  private static DistributedFileSystem stock;
  private static int fileNo;

  @BeforeAll
  static void zone() throws IOException {
    cluster = CLUSTER.cluster();
    stock = CLUSTER.stock();
    stock.mkdirs(ZONE);
    stock.createEncryptionZone(ZONE, KEY);
  }

  @AfterAll
  static void deleteKeys() {
    KEYS.close();
  }

  private static CurtailDistributedFileSystem curtail(String... settings) throws IOException {
    return cluster.curtailFileSystem("encrypted-read-" + (fileNo++), settings);
  }

  /** A file in the zone of {@code length} seeded bytes on the given DataNodes, written by stock. */
  private static Path file(long seed, long length, int... on) throws IOException {
    Path p = new Path(ZONE, "f" + (fileNo++));
    return SeededData.writeOn(cluster, stock, p, seed, length, (short) on.length, on);
  }

  /** Checks {@code in} is Curtail's stream in Hadoop's crypto stream, in the HDFS type. */
  private static void assertCurtailsDecrypting(FSDataInputStream in) {
    assertTrue(in instanceof HdfsDataInputStream, in.getClass().getName());
    InputStream wrapped = in.getWrappedStream();
    assertTrue(wrapped instanceof CryptoInputStream, wrapped.getClass().getName());
    InputStream inner = ((CryptoInputStream) wrapped).getWrappedStream();
    assertTrue(inner instanceof CurtailInputStream, "the crypto stream wraps "
        + inner.getClass().getName());
  }

  @Test
  void anEncryptedFileReadsThroughCurtailAndDecryptsExact() throws Exception {
    long length = 3L * BLOCK + 777;
    Path p = file(1, length, 0, 1, 2);
    try (CurtailDistributedFileSystem fs = curtail()) {
      try (FSDataInputStream in = fs.open(p)) {
        assertCurtailsDecrypting(in);
        SeededData.verify(in, 1, length, p.toString());
        assertEquals(length, ((HdfsDataInputStream) in).getReadStatistics().getTotalBytesRead());
      }
      try (FSDataInputStream in = fs.openFile(p).build().get()) {
        assertCurtailsDecrypting(in);
        SeededData.verify(in, 1, length, p.toString());
      }
      // What the DataNodes hold is ciphertext, so the bytes above were decrypted.
      Path raw = new Path("/.reserved/raw" + p.toUri().getPath());
      assertTrue(SeededData.intactPrefix(stock, raw, 1) < 16, "the raw bytes are the plain text");
    }
  }

  /**
   * Seeks back and forth, positional reads and reads into heap and direct buffers, at seeded
   * random offsets (across block boundaries, at odd positions within the cipher's 16-byte
   * blocks), each compared with the bytes written; positional reads leave the stream's position
   * where it was.
   */
  @Test
  void seeksPositionalReadsAndByteBufferReadsDecryptExactAnywhere() throws Exception {
    long length = 4L * BLOCK + 13;
    Path p = file(2, length, 0, 1, 2);
    SplittableRandom random = new SplittableRandom(2);
    try (CurtailDistributedFileSystem fs = curtail();
        FSDataInputStream in = fs.open(p)) {
      assertCurtailsDecrypting(in);
      for (int i = 0; i < 60; i++) {
        int n = 1 + random.nextInt(3 * 64 * KIB);
        long at = random.nextLong(length - n + 1);
        byte[] got = new byte[n];
        switch (i % 4) {
          case 0: // seek, then read
            in.seek(at);
            in.readFully(got);
            assertEquals(at + n, in.getPos());
            break;
          case 1: { // positional read
            long before = in.getPos();
            in.readFully(at, got);
            assertEquals(before, in.getPos(), "a positional read moved the stream");
            break;
          }
          case 2: { // seek, then read(ByteBuffer) into a direct buffer
            in.seek(at);
            ByteBuffer direct = ByteBuffer.allocateDirect(n);
            while (direct.hasRemaining()) {
              assertTrue(in.read(direct) > 0, "end of file before " + (at + n));
            }
            direct.flip();
            direct.get(got);
            break;
          }
          default: { // seek, then read(ByteBuffer) into a heap buffer
            in.seek(at);
            ByteBuffer heap = ByteBuffer.wrap(got);
            while (heap.hasRemaining()) {
              assertTrue(in.read(heap) > 0, "end of file before " + (at + n));
            }
          }
        }
        byte[] want = new byte[n];
        SeededData.fill(2, at, want, 0, n);
        assertArrayEquals(want, got, "bytes [" + at + ", " + (at + n) + ") by way " + i % 4);
      }
      in.seek(length - 5);
      byte[] last = new byte[10];
      assertEquals(5, in.read(last, 0, 10));
      assertEquals(-1, in.read());
    }
  }

  /**
   * dn0's disk takes 200 ms a packet; the encrypted file is on dn0 and dn3, and the stream starts
   * on dn0. Under the crypto stream, a static threshold of 50 ms hedges the first packet to dn3,
   * which wins, and the file decrypts exact long before dn0 would have served it.
   */
  @Test
  void aSlowDiskIsHedgedAroundUnderTheCryptoStream() throws Exception {
    long length = 2L * BLOCK;
    Path p = file(3, length, 0, 3);
    try (CurtailDistributedFileSystem fs = curtail("curtail.read.hedging", "static",
        "curtail.read.hedging.static.threshold.ms", "50");
        Fault slow = cluster.slowDisk(0,
            DiskFault.serviceTime(Duration.ofMillis(200)).withReads());
        FSDataInputStream in = SlowFirstReplica.open(fs, p, cluster, 0)) {
      assertCurtailsDecrypting(in);
      long start = System.nanoTime();
      SeededData.verify(in, 3, length, p.toString());
      long ms = (System.nanoTime() - start) / 1_000_000;
      assertTrue(fs.hedgesWon() > 0, "no hedge won; tried " + fs.hedgesTried());
      assertTrue(ms < 1600, "the file took " + ms + " ms: dn0 was waited out");
    }
  }
}
