package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.read.CurtailInputStream;
import io.curtail.client.track.LatencyWindow;
import io.curtail.client.track.NodeId;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Curtail's own reader against real DataNodes: every kind of read compared byte for byte, hedging
 * under a read-throttled DataNode, a corrupt replica, a DataNode killed mid-read, and no threads
 * or sockets left behind.
 */
class CurtailReadTest {
  private static final long KIB = 1024;
  private static final long BLOCK = 256 * KIB;
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER =
      new FaultyClusterExtension(b -> b.dataNodes(4).blockSize(BLOCK));
  private static FaultyCluster cluster;
  private static DistributedFileSystem stock;
  private static int fileNo;

  /** Short names for what {@link #CLUSTER} started. */
  @BeforeAll
  static void names() throws IOException {
    cluster = CLUSTER.cluster();
    stock = CLUSTER.stock();
  }

  /** A Curtail file system that knows nothing of the DataNodes yet, whatever ran before. */
  private static CurtailDistributedFileSystem curtail(String... settings) throws IOException {
    return cluster.curtailFileSystem("read-test-" + (fileNo++), settings);
  }

  /** A file of {@code length} seeded bytes, written by the stock client. */
  private static Path file(long seed, long length, short replication, int... favoured)
      throws IOException {
    Path p = new Path("/reads/f" + (fileNo++));
    return SeededData.writeOn(cluster, stock, p, seed, length, replication, favoured);
  }

  @Test
  void sequentialReadsOfManySizesWithManyBufferSizes() throws IOException {
    long[] sizes = {0, 1, 511, 512, 513, 64 * KIB - 1, 64 * KIB, 64 * KIB + 1, BLOCK - 1, BLOCK,
        BLOCK + 1, 3 * BLOCK + 17};
    int[] buffers = {1, 100, 4096, 65536, 1 << 20};
    try (CurtailDistributedFileSystem fs = curtail()) {
      for (long size : sizes) {
        Path p = file(size, size, (short) 3);
        for (int buf : buffers) {
          try (FSDataInputStream in = fs.open(p)) {
            assertTrue(in.getWrappedStream() instanceof CurtailInputStream);
            byte[] got = new byte[(int) size];
            int done = 0;
            for (int n; done < size && (n = in.read(got, done, Math.min(buf, got.length - done)))
                > 0; ) {
              done += n;
            }
            assertEquals(size, done, "size " + size + " buffer " + buf);
            assertEquals(-1, in.read(), "EOF after " + size);
            assertArrayEquals(SeededData.bytes(size, (int) size), got, "size " + size);
          }
        }
        SeededData.verify(fs, p, size, size);
      }
    }
  }

  @Test
  void openFileBuilderAndReadStatisticsGoThroughCurtail() throws Exception {
    long size = BLOCK + 123;
    Path p = file(50, size, (short) 3);
    try (CurtailDistributedFileSystem fs = curtail()) {
      // Statistics are kept per file system class and scheme, as for every Hadoop file system.
      @SuppressWarnings("deprecation")
      org.apache.hadoop.fs.FileSystem.Statistics stats = org.apache.hadoop.fs.FileSystem
          .getStatistics("hdfs", CurtailDistributedFileSystem.class);
      long before = stats.getBytesRead();
      try (FSDataInputStream in = fs.openFile(p).build().get()) {
        assertTrue(in.getWrappedStream() instanceof CurtailInputStream,
            in.getWrappedStream().getClass().getName());
        SeededData.verify(in, 50, size, p.toString());
      }
      assertEquals(size, stats.getBytesRead() - before);
    }
  }

  @Test
  void byteBufferReadsHeapAndDirect() throws IOException {
    long size = 2 * BLOCK + 1000;
    Path p = file(7, size, (short) 2);
    try (CurtailDistributedFileSystem fs = curtail()) {
      for (boolean direct : new boolean[] {false, true}) {
        ByteBuffer all = ByteBuffer.allocate((int) size);
        try (FSDataInputStream in = fs.open(p)) {
          ByteBuffer chunk = direct ? ByteBuffer.allocateDirect(10_000) : ByteBuffer.allocate(10_000);
          for (int n; (n = in.read(chunk)) >= 0; ) {
            chunk.flip();
            all.put(chunk);
            chunk.clear();
            assertTrue(n >= 0);
          }
        }
        assertArrayEquals(SeededData.bytes(7, (int) size), all.array(), "direct=" + direct);
      }
    }
  }

  @Test
  void seeksBackAndForthAndPositionalReadsFromManyThreads() throws Exception {
    long size = 5 * BLOCK + 333;
    Path p = file(11, size, (short) 3);
    byte[] want = SeededData.bytes(11, (int) size);
    SplittableRandom r = new SplittableRandom(5);
    try (CurtailDistributedFileSystem fs = curtail(); FSDataInputStream in = fs.open(p)) {
      for (int i = 0; i < 200; i++) {
        long at = r.nextLong(size + 1);
        in.seek(at);
        assertEquals(at, in.getPos());
        int len = (int) Math.min(size - at, 1 + r.nextInt(100_000));
        byte[] got = new byte[len];
        in.readFully(got);
        for (int k = 0; k < len; k++) {
          if (got[k] != want[(int) at + k]) {
            throw new AssertionError("byte " + (at + k) + " differs after seeking to " + at);
          }
        }
      }
      ExecutorService pool = Executors.newFixedThreadPool(8);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        long seed = t;
        done.add(pool.submit(() -> {
          SplittableRandom tr = new SplittableRandom(seed);
          for (int i = 0; i < 40; i++) {
            long at = tr.nextLong(size);
            int len = (int) Math.min(size - at, 1 + tr.nextInt(300_000));
            byte[] got = new byte[len];
            in.readFully(at, got);
            for (int k = 0; k < len; k++) {
              if (got[k] != want[(int) at + k]) {
                throw new AssertionError("pread byte " + (at + k));
              }
            }
          }
          return null;
        }));
      }
      in.seek(0); // sequential reads alongside the positional ones
      byte[] whole = new byte[(int) size];
      in.readFully(whole);
      assertArrayEquals(want, whole);
      for (Future<?> f : done) {
        f.get(2, TimeUnit.MINUTES);
      }
      pool.shutdown();
      ByteBuffer bb = ByteBuffer.allocate(1000);
      ((org.apache.hadoop.fs.ByteBufferPositionedReadable) in.getWrappedStream())
          .readFully(BLOCK - 500, bb);
      for (int k = 0; k < 1000; k++) {
        assertEquals(want[(int) BLOCK - 500 + k], bb.get(k));
      }
    }
  }

  @Test
  void shortForwardSeeksReadThroughAsStockDoesAndLongOnesReopen() throws IOException {
    // One replica, on dn1, so every read opens it there; a slow-open fault of a microsecond is
    // only a counter of those opens. A seek up to 128 KiB ahead within the block reads on through
    // the bytes already streaming, a longer one or one into the next block starts a new read.
    long length = 8 * BLOCK;
    Path p = file(700, length, (short) 1, 1);
    byte[] want = SeededData.bytes(700, (int) length);
    long[] gaps = {1, 60 * KIB, 128 * KIB, 128 * KIB + 1, 20 * KIB, 200 * KIB, 0, 100 * KIB};
    try (CurtailDistributedFileSystem fs = curtail();
        Fault counted = cluster.slowDisk(1, DiskFault.serviceTime(Duration.ofNanos(1000))
            .on(DiskFault.Access.OPENS))) {
      long stockOpens = opensSeeking(stock, p, want, gaps);
      long curtailOpens = opensSeeking(fs, p, want, gaps);
      assertEquals(stockOpens, curtailOpens, "replica opens for the same seeks, stock's first");
    }
  }

  /**
   * Reads {@code p} in 4 KiB pieces, seeking forward by each of {@code gaps} in turn between them
   * and comparing every byte; returns the replica opens dn1 saw meanwhile.
   */
  private static long opensSeeking(org.apache.hadoop.fs.FileSystem fs, Path p, byte[] want,
      long[] gaps) throws IOException {
    long before = cluster.faults(1).getDelayedReads();
    byte[] got = new byte[4 * (int) KIB];
    try (FSDataInputStream in = fs.open(p)) {
      int g = 0;
      for (long at = 0; at < want.length; at += gaps[g++ % gaps.length]) {
        in.seek(at);
        int n = (int) Math.min(got.length, want.length - at);
        in.readFully(got, 0, n);
        for (int k = 0; k < n; k++) {
          if (got[k] != want[(int) at + k]) {
            throw new AssertionError(fs.getClass().getSimpleName() + ": byte " + (at + k)
                + " differs after seeking to " + at);
          }
        }
        at += n;
      }
    }
    return cluster.faults(1).getDelayedReads() - before;
  }

  @Test
  void throttledDataNodeIsHedgedAroundOnlyWhereItServes() throws IOException {
    // Files on dn1..dn3 only, and files with a replica on dn0, which is throttled hard.
    List<Path> healthy = new ArrayList<>();
    List<Path> withSlow = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      healthy.add(file(100 + i, BLOCK, (short) 2, 1, 2));
      withSlow.add(file(200 + i, BLOCK, (short) 2, 0, 3));
    }
    // A 200 ms static threshold: no healthy packet takes that long even on a loaded machine,
    // and dn0's take seconds.
    try (CurtailDistributedFileSystem fs = curtail("curtail.read.hedging", "static",
        "curtail.read.hedging.static.threshold.ms", "200");
        Fault slow = cluster.throttleReads(0, 64 * KIB)) {
      for (int i = 0; i < 4; i++) {
        SeededData.verify(fs, healthy.get(i), 100 + i, BLOCK);
      }
      assertEquals(0, fs.hedgesTried(), "hedged although no slow DataNode served");
      long start = System.nanoTime();
      for (int i = 0; i < 4; i++) {
        SeededData.verify(fs, withSlow.get(i), 200 + i, BLOCK);
      }
      long ms = (System.nanoTime() - start) / 1_000_000;
      // Whichever replica the NameNode lists first, no file waits out dn0's throttle (a block
      // takes 4 s from it): a slow first packet is hedged, and once dn0 is known slow later
      // blocks try it last. Which of the two happens depends on the NameNode's order, so the
      // hedge counts themselves are checked in HedgedBlockReadTest, where the order is fixed.
      assertTrue(ms < 4000, "4 blocks took " + ms + " ms: dn0 was waited out");
      assertTrue(fs.hedgesWon() <= fs.hedgesTried());
    }
  }

  @Test
  void smartThresholdLearnsFromOtherDataNodesAndHedgesFarBelowTheStaticOne() throws IOException {
    Path warm = file(300, 8 * BLOCK, (short) 2, 1, 2); // 32 packets: enough to adapt
    List<Path> withSlow = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      withSlow.add(file(400 + i, BLOCK, (short) 2, 0, 3));
    }
    // A static threshold of a minute would never hedge here: any hedge comes from adapting.
    // 1 s a packet stays far above 3x the other DataNodes' p95 on a loaded machine as well.
    try (CurtailDistributedFileSystem fs = curtail("curtail.read.hedging", "smart",
        "curtail.read.hedging.static.threshold.ms", "60000");
        Fault slow = cluster.slowDisk(0, io.curtail.datanode.fault.DiskFault
            .serviceTime(java.time.Duration.ofMillis(1000)).withReads())) {
      SeededData.verify(fs, warm, 300, 8 * BLOCK);
      for (int i = 0; i < 6; i++) {
        SeededData.verify(fs, withSlow.get(i), 400 + i, BLOCK);
      }
      long delayed = cluster.faults(0).getDelayedReads();
      if (delayed > 0) {
        assertTrue(fs.hedgesTried() > 0, "dn0 served " + delayed + " slow packets unhedged");
        assertTrue(fs.hedgesWon() > 0, "no hedge beat a 1 s packet");
      }
    }
  }

  @Test
  void corruptReplicaIsReportedAndDataStillCorrect() throws Exception {
    long size = BLOCK;
    Path p = file(500, size, (short) 3, 0, 1, 2);
    ExtendedBlock block = stock.getClient().getLocatedBlocks(p.toString(), 0).get(0).getBlock();
    List<Integer> holders = cluster.replicas(stock, p).get(0);
    cluster.corruptReplica(holders.get(0), block);
    cluster.corruptReplica(holders.get(1), block);
    // Make the client believe the one good replica is slow next to the corrupt ones (slowness
    // is relative: it must know them too), so it tries it last and meets the corrupt ones first.
    try (CurtailDistributedFileSystem fs = curtail()) {
      for (int i = 0; i < 3; i++) {
        LatencyWindow reads = fs.runtime().registry().tracker(
            NodeId.of("127.0.0.1:" + cluster.address(holders.get(i)).getPort())).reads();
        record(reads, 100, i == 2 ? TimeUnit.SECONDS.toNanos(10) : TimeUnit.MICROSECONDS.toNanos(100));
      }
      SeededData.verify(fs, p, 500, size);
      assertTrue(cluster.corruptReplicas(block) >= 1, "the bad replica met was not reported");
    }
  }

  private static void record(LatencyWindow w, int times, long nanos) {
    for (int i = 0; i < times; i++) {
      w.record(nanos);
    }
  }

  @Test
  void dataNodeKilledMidReadTheReadCompletes() throws IOException {
    long size = 3 * BLOCK;
    Path p = file(600, size, (short) 3);
    try (CurtailDistributedFileSystem fs = curtail(); FSDataInputStream in = fs.open(p)) {
      byte[] first = new byte[(int) (BLOCK / 2)];
      in.readFully(first);
      DatanodeInfo serving = ((CurtailInputStream) in.getWrappedStream()).getCurrentDatanode();
      assertNotNull(serving);
      int dn = cluster.indexOfPort(serving.getXferPort());
      byte[] rest = new byte[(int) (size - first.length)];
      try (Fault down = cluster.stop(dn)) {
        in.readFully(rest);
      }
      byte[] want = SeededData.bytes(600, (int) size);
      for (int k = 0; k < size; k++) {
        byte got = k < first.length ? first[k] : rest[k - first.length];
        if (got != want[k]) {
          throw new AssertionError("byte " + k + " differs after dn" + dn + " was killed");
        }
      }
    }
  }

  @Test
  void fileStillBeingWrittenReadsUpToWhatWasFlushed() throws IOException {
    Path p = new Path("/reads/open-for-write");
    try (FSDataOutputStream out = stock.create(p, (short) 3);
        CurtailDistributedFileSystem fs = curtail()) {
      byte[] data = SeededData.bytes(800, (int) (BLOCK + 5000));
      out.write(data, 0, 100_000);
      out.hflush();
      try (FSDataInputStream in = fs.open(p)) {
        assertTrue(in.getWrappedStream() instanceof CurtailInputStream);
        SeededData.verify(in, 800, 100_000, p + " after the first hflush");
      }
      out.write(data, 100_000, data.length - 100_000); // into a second block, still open
      out.hflush();
      try (FSDataInputStream in = fs.open(p)) {
        SeededData.verify(in, 800, data.length, p + " after the second hflush");
      }
    }
  }

  @Test
  void noReplicaLeftGivesAClearErrorNamingTheBlock() throws IOException {
    Path p = file(900, 100_000, (short) 1, 2);
    assertEquals(java.util.Collections.singletonList(2), cluster.replicas(stock, p).get(0));
    // Stock's retry window shortened from 3 s: the read asks the NameNode again 3 times first.
    try (CurtailDistributedFileSystem fs = curtail("dfs.client.retry.window.base", "50");
        Fault down = cluster.stop(2)) {
      IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
          () -> SeededData.verify(fs, p, 900, 100_000));
      // Stock's type and text, which applications match on.
      assertTrue(e instanceof org.apache.hadoop.hdfs.BlockMissingException, e.toString());
      assertTrue(e.getMessage().startsWith("Could not obtain block: BP-"), e.getMessage());
      assertTrue(e.getMessage().contains(" file=" + p.toUri().getPath() + " at offset 0"),
          e.getMessage());
    }
    SeededData.verify(stock, p, 900, 100_000); // the DataNode is back: nothing was lost
  }

  @Test
  void erasureCodedFilesKeepTheStockStream() throws IOException {
    String policy = "XOR-2-1-1024k";
    stock.enableErasureCodingPolicy(policy);
    Path dir = new Path("/reads/ec");
    stock.mkdirs(dir);
    stock.setErasureCodingPolicy(dir, policy);
    Path p = new Path(dir, "striped");
    try (FSDataOutputStream out = stock.create(p, true, 4096, (short) 1, 8 * 1024 * 1024)) {
      SeededData.write(out, 1000, 3 * 1024 * 1024 + 7); // blocks no smaller than a 1 MiB cell
    }
    try (CurtailDistributedFileSystem fs = curtail(); FSDataInputStream in = fs.open(p)) {
      assertTrue(in.getWrappedStream() instanceof org.apache.hadoop.hdfs.DFSStripedInputStream,
          in.getWrappedStream().getClass().getName());
      SeededData.verify(in, 1000, 3 * 1024 * 1024 + 7, p.toString());
    }
  }

  @Test
  void noThreadsOrSocketsLeftBehind() throws Exception {
    Path p = file(700, 2 * BLOCK, (short) 3, 1, 0, 2); // dn1, which is slowed, holds every block
    long socketsBefore = sockets();
    try (CurtailDistributedFileSystem fs = curtail("curtail.read.hedging", "static",
        "curtail.read.hedging.static.threshold.ms", "1");
        // Every packet of dn1's 20 ms late. (A throttle of 512 KiB/s let a block of 256 KiB
        // through at once whenever dn1 had been idle half a second, as a loaded machine made it,
        // and left the hedge to chance.)
        Fault slow = cluster.slowDisk(1, DiskFault.serviceTime(Duration.ofMillis(20))
            .on(DiskFault.Access.READS))) {
      // The replicas come in an order of the NameNode's and the client's choosing: read until
      // some read began on dn1 and was hedged, five times at least.
      for (int i = 0; i < 5 || (i < 40 && fs.hedgesTried() == 0); i++) {
        SeededData.verify(fs, p, 700, 2 * BLOCK);
        try (FSDataInputStream in = fs.open(p)) {
          in.readFully(BLOCK, new byte[1000]);
          in.read(new byte[100]); // left open mid-block, then closed
        }
      }
      assertTrue(fs.hedgesTried() > 0, "a 1 ms threshold should have hedged");
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline && (curtailThreads() > 0 || sockets() > socketsBefore)) {
      Thread.sleep(100);
    }
    assertEquals(0, curtailThreads(), "Curtail threads still alive");
    assertTrue(sockets() <= socketsBefore, "sockets open: " + sockets() + " > " + socketsBefore);
  }

  private static long curtailThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("curtail-hedge")).count();
  }

  /** Sockets this process holds (client and DataNode ends alike: they share the JVM). */
  private static long sockets() throws IOException {
    long n = 0;
    File[] fds = new File("/proc/self/fd").listFiles();
    for (File fd : fds == null ? new File[0] : fds) {
      try {
        if (Files.readSymbolicLink(Paths.get(fd.getPath())).toString().startsWith("socket:")) {
          n++;
        }
      } catch (IOException gone) {
        // closed while listing
      }
    }
    return n;
  }
}
