package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.read.CurtailInputStream;
import io.curtail.client.write.CurtailOutputStream;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a stock stream promises besides the bytes, held by Curtail's: the answers of its read
 * calls, the statistics it keeps, what a long-lived stream costs the NameNode, the caching
 * settings it takes. Each is checked against the stock client on the same cluster where the
 * stock client can answer, and every read is compared byte for byte with the seeded data.
 */
class ReadContractsTest {
  private static final int BLOCK = 256 * 1024;
  /** Three blocks and a bit: reads that cross blocks, a last block that is not full. */
  private static final long LENGTH = 3L * BLOCK + 1234;
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER = new FaultyClusterExtension(b -> b.dataNodes(3)
      .blockSize(BLOCK)
      .set("dfs.block.access.token.enable", "true")
      .set("dfs.namenode.audit.loggers", "default," + OpenCalls.class.getName()));
  private static int fileNo;

  private static Path file(long seed) throws IOException {
    Path p = new Path("/contracts/f" + (fileNo++));
    SeededData.create(CLUSTER.stock(), p, seed, LENGTH);
    CLUSTER.cluster().awaitReplicas(CLUSTER.stock(), p, 3);
    return p;
  }

  private static CurtailDistributedFileSystem curtail() throws IOException {
    return CLUSTER.cluster().curtailFileSystem(Collections.emptyMap());
  }

  @Test
  void anEmptyBufferReadsMinusOneAtTheEndOfTheFileAsStocksDoes() throws IOException {
    Path p = file(21);
    DistributedFileSystem stock = CLUSTER.stock();
    try (CurtailDistributedFileSystem fs = curtail();
        FSDataInputStream in = fs.open(p);
        FSDataInputStream stockIn = stock.open(p)) {
      assertTrue(in.getWrappedStream() instanceof CurtailInputStream);
      assertEquals(stockIn.read(ByteBuffer.allocate(0)), in.read(ByteBuffer.allocate(0)),
          "an empty buffer at offset 0");
      SeededData.verify(in, 21, LENGTH, p.toString());
      SeededData.verify(stockIn, 21, LENGTH, p.toString());
      assertEquals(-1, stockIn.read(ByteBuffer.allocate(0)), "stock, at the end");
      assertEquals(-1, in.read(ByteBuffer.allocate(0)), "an empty heap buffer at the end");
      assertEquals(-1, in.read(ByteBuffer.allocateDirect(0)), "an empty direct buffer");
      assertEquals(-1, in.read(ByteBuffer.allocate(10)), "a buffer with room");
    }
  }

  @Test
  void bytesReadAreCountedByNetworkDistanceAsStocksAre() throws IOException {
    Path p = file(22);
    FileSystem.Statistics curtailStats = statistics(CurtailDistributedFileSystem.class);
    FileSystem.Statistics stockStats = statistics(DistributedFileSystem.class);
    long[] stockBefore = byDistance(stockStats);
    long[] curtailBefore = byDistance(curtailStats);
    SeededData.verify(CLUSTER.stock(), p, 22, LENGTH);
    try (CurtailDistributedFileSystem fs = curtail();
        FSDataInputStream in = fs.open(p)) {
      assertTrue(in.getWrappedStream() instanceof CurtailInputStream);
      SeededData.verify(in, 22, LENGTH, p.toString()); // sequentially
      byte[] got = new byte[BLOCK + 100];
      in.readFully(BLOCK - 50, got); // by position, across a block boundary
      byte[] want = new byte[got.length];
      SeededData.fill(22, BLOCK - 50, want, 0, want.length);
      assertArrayEquals(want, got);
    }
    long[] stockRead = minus(byDistance(stockStats), stockBefore);
    long[] curtailRead = minus(byDistance(curtailStats), curtailBefore);
    long positional = BLOCK + 100;
    assertEquals(LENGTH, sum(stockRead), "stock counts every byte at some distance");
    assertEquals(LENGTH + positional, sum(curtailRead), "every byte at some distance");
    assertEquals(1, java.util.Arrays.stream(stockRead).filter(n -> n > 0).count(),
        "the DataNodes are all at one distance from the client: " + java.util.Arrays.toString(
        stockRead));
    for (int d = 0; d < stockRead.length; d++) {
      // Curtail read the file once more by position: it counts those bytes at the same distance.
      long expected = stockRead[d] == 0 ? 0 : stockRead[d] + positional;
      assertEquals(expected, curtailRead[d], "bytes counted at distance bucket " + d);
    }
  }

  @Test
  void theStreamCountsLocalAndRemoteBytesAsStocksDoes() throws IOException {
    Path p = file(23);
    try (CurtailDistributedFileSystem fs = curtail();
        FSDataInputStream in = fs.open(p);
        FSDataInputStream stockIn = CLUSTER.stock().open(p)) {
      SeededData.verify(in, 23, LENGTH, p.toString());
      SeededData.verify(stockIn, 23, LENGTH, p.toString());
      org.apache.hadoop.hdfs.ReadStatistics mine =
          ((CurtailInputStream) in.getWrappedStream()).getReadStatistics();
      org.apache.hadoop.hdfs.ReadStatistics stocks =
          ((org.apache.hadoop.hdfs.client.HdfsDataInputStream) stockIn).getReadStatistics();
      assertEquals(LENGTH, mine.getTotalBytesRead());
      assertEquals(stocks.getTotalLocalBytesRead(), mine.getTotalLocalBytesRead());
      assertEquals(stocks.getRemoteBytesRead(), mine.getRemoteBytesRead());
      assertEquals(0, mine.getTotalShortCircuitBytesRead());
    }
  }

  /**
   * A stream kept open past its block tokens' lifetime: its first read after they expired asks
   * the NameNode once for new ones (for every block within stock's prefetch), and the reads after
   * use them, asking nothing more.
   */
  @Test
  void aStreamWhoseTokensExpiredFetchesNewOnesOnceAndKeepsThem() throws Exception {
    FaultyCluster c = CLUSTER.cluster();
    c.blockTokenLifetime(2000);
    try {
      Path p = file(24);
      try (CurtailDistributedFileSystem fs = curtail();
          FSDataInputStream in = fs.open(p)) {
        assertTrue(in.getWrappedStream() instanceof CurtailInputStream);
        Thread.sleep(3000); // the tokens the open brought expire
        long before = OpenCalls.of(p.toString());
        byte[] got = new byte[4096];
        for (int i = 0; i < 6; i++) {
          long at = (i % 4) * (long) BLOCK + 17 * i;
          int n = (int) Math.min(got.length, LENGTH - at);
          in.readFully(at, got, 0, n);
          byte[] want = new byte[n];
          SeededData.fill(24, at, want, 0, n);
          assertArrayEquals(want, java.util.Arrays.copyOf(got, n), "at " + at);
        }
        SeededData.verify(in, 24, LENGTH, p.toString());
        assertEquals(1, OpenCalls.of(p.toString()) - before,
            "NameNode calls for locations after the tokens expired");
      }
    } finally {
      c.blockTokenLifetime(10L * 60 * 60 * 1000); // the NameNode's default: 10 hours
    }
  }

  @Test
  void dropBehindAndReadaheadAreTakenAsStocksAre() throws IOException {
    Path p = file(25);
    try (CurtailDistributedFileSystem fs = curtail();
        FSDataInputStream in = fs.open(p)) {
      assertTrue(in.hasCapability(StreamCapabilities.DROPBEHIND));
      assertTrue(in.hasCapability(StreamCapabilities.READAHEAD));
      in.setDropBehind(true);
      in.setReadahead(1L << 20);
      SeededData.verify(in, 25, LENGTH, p.toString());
      in.setDropBehind(null);
      in.setReadahead(0L);
      byte[] got = new byte[BLOCK];
      in.readFully(LENGTH - BLOCK, got);
      byte[] want = new byte[BLOCK];
      SeededData.fill(25, LENGTH - BLOCK, want, 0, BLOCK);
      assertArrayEquals(want, got);
    }
  }

  /**
   * A file of three blocks is truncated to 10 bytes while a stream has it open, a stream that
   * located only its first block on open ({@code dfs.client.read.prefetch.size} of one block). A
   * positional read in the removed second block must fail with stock's {@link EOFException} and
   * text: stock's stream asks the NameNode for that block then and learns the file ends before
   * it, rather than reading the removed block from a DataNode that has not deleted it yet.
   */
  @Test
  void aPositionalReadPastATruncatedLengthFailsAsStocksDoes() throws Exception {
    Map<String, String> oneBlockAhead =
        Map.of("dfs.client.read.prefetch.size", Integer.toString(BLOCK));
    String[] failures = new String[2];
    for (int curtail = 0; curtail < 2; curtail++) {
      long seed = 26 + curtail;
      Path p = file(seed);
      try (FileSystem fs = curtail == 1
              ? CLUSTER.cluster().curtailFileSystem(oneBlockAhead) : stock(oneBlockAhead);
          FSDataInputStream in = fs.open(p)) {
        assertEquals(curtail == 1, in.getWrappedStream() instanceof CurtailInputStream);
        truncate(p, 10);
        EOFException e = assertThrows(EOFException.class, () -> in.readFully(BLOCK, new byte[4]),
            curtail == 1 ? "Curtail" : "stock");
        failures[curtail] = e.getMessage();
      }
      SeededData.verify(CLUSTER.stock(), p, seed, 10);
    }
    assertEquals("Could not find target position " + BLOCK, failures[0], "stock's failure");
    assertEquals(failures[0], failures[1], "Curtail's failure");
  }

  /** A stock file system on the cluster with {@code settings}. */
  /**
   * A file still being written by Curtail, three full blocks and part of a fourth hflushed, read
   * by streams that located only its first block on open, stock's and Curtail's: the blocks past
   * it are located when first read, the one being written too. The NameNode lists that block
   * only if it knows a length for it (its assertions, on in tests, refuse a block of length 0),
   * which the writer's first hflush after a new block records, as stock's writer does (Hadoop's
   * {@code TestWriteRead}); Curtail's reader never asks for it again.
   */
  @ParameterizedTest
  @ValueSource(strings = {"stock", "curtail"})
  void aFileBeingWrittenIsReadToItsFlushedEndPastThePrefetch(String reader) throws Exception {
    Path p = new Path("/read-contracts/being-written-" + reader);
    Map<String, String> oneBlockAhead =
        Map.of("dfs.client.read.prefetch.size", Integer.toString(BLOCK));
    try (CurtailDistributedFileSystem writer = curtail();
        FSDataOutputStream out = writer.create(p, (short) 3)) {
      assertTrue(out.getWrappedStream() instanceof CurtailOutputStream);
      SeededData.write(out, 28, LENGTH);
      out.hflush();
      try (FileSystem fs = reader.equals("curtail")
              ? CLUSTER.cluster().curtailFileSystem(oneBlockAhead) : stock(oneBlockAhead);
          FSDataInputStream in = fs.open(p)) {
        assertEquals(reader.equals("curtail"), in.getWrappedStream() instanceof CurtailInputStream);
        SeededData.verify(in, 28, LENGTH, p.toString());
      }
    }
    SeededData.verify(CLUSTER.stock(), p, 28, LENGTH);
  }

  private static FileSystem stock(Map<String, String> settings) throws IOException {
    Configuration conf = CLUSTER.cluster().conf();
    conf.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
    settings.forEach(conf::set);
    return FileSystem.newInstance(CLUSTER.cluster().uri(), conf);
  }

  /** Truncates {@code p} to {@code length} and waits for its last block's recovery. */
  private static void truncate(Path p, long length) throws Exception {
    DistributedFileSystem fs = CLUSTER.stock();
    if (!fs.truncate(p, length)) {
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!fs.isFileClosed(p)) {
        assertTrue(System.nanoTime() < deadline, "truncated " + p + " still being recovered");
        Thread.sleep(50);
      }
    }
    assertEquals(length, fs.getFileStatus(p).getLen(), "the truncated length");
  }

  @SuppressWarnings("deprecation")
  private static FileSystem.Statistics statistics(Class<? extends FileSystem> c) {
    return FileSystem.getStatistics("hdfs", c);
  }

  /** Bytes read at each of the distances statistics tell apart: 0, 1–2, 3–4, 5 and more. */
  private static long[] byDistance(FileSystem.Statistics s) {
    return new long[] {s.getBytesReadByDistance(0), s.getBytesReadByDistance(1),
        s.getBytesReadByDistance(3), s.getBytesReadByDistance(5)};
  }

  private static long[] minus(long[] a, long[] b) {
    long[] d = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      d[i] = a[i] - b[i];
    }
    return d;
  }

  private static long sum(long[] a) {
    long s = 0;
    for (long x : a) {
      s += x;
    }
    return s;
  }
}
