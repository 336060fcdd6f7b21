package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.datanode.fault.DiskFault;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Each fault of the test cluster does what it says, seen through the stock client, and touches
 * only the DataNode it names. Every file written is read back and compared byte for byte.
 */
class FaultyClusterTest {
  private static final long KIB = 1024;
  private static final long MIB = 1024 * KIB;
  private static final long BLOCK = 8 * MIB;
  private static final Duration SERVICE = Duration.ofMillis(10);

  @RegisterExtension
  static final FaultyClusterExtension CLUSTER =
      new FaultyClusterExtension(b -> b.dataNodes(4).blockSize(BLOCK));
  private static FaultyCluster cluster;
  private static DistributedFileSystem fs;
  /** Writers run concurrently: each file's number is its own. */
  private static final AtomicInteger FILE_NO = new AtomicInteger();

  /** Short names for what {@link #CLUSTER} started. */
  @BeforeAll
  static void names() throws IOException {
    cluster = CLUSTER.cluster();
    fs = CLUSTER.stock();
  }

  /** Writes a one-replica file on DataNode {@code dn}, checks it landed there, returns its path. */
  private static Path writeOn(int dn, long seed, long length) throws IOException {
    Path p = new Path("/faults/file-" + FILE_NO.getAndIncrement());
    try (FSDataOutputStream out = fs.create(p, FsPermission.getFileDefault(), true, 4096,
        (short) 1, BLOCK, null, new InetSocketAddress[] {cluster.address(dn)})) {
      SeededData.write(out, seed, length);
    }
    assertEquals(Collections.singletonList(dn), cluster.replicas(fs, p).get(0),
        "favoured-node placement put the replica elsewhere");
    return p;
  }

  private static long delayedWritesOfOthers(int except) {
    long sum = 0;
    for (int i = 0; i < cluster.dataNodeCount(); i++) {
      sum += i == except ? 0 : cluster.faults(i).getDelayedWrites();
    }
    return sum;
  }

  @Test
  void everyDataNodeRoundTripsWhenHealthy() throws IOException {
    for (int dn = 0; dn < cluster.dataNodeCount(); dn++) {
      Path p = writeOn(dn, dn, MIB + 1);
      SeededData.verify(fs, p, dn, MIB + 1);
    }
  }

  @Test
  void slowDiskWritesTakeAtLeastPacketsTimesServiceTime() throws IOException {
    long othersBefore = delayedWritesOfOthers(1);
    long before = cluster.faults(1).getDelayedWrites();
    long start = System.nanoTime();
    Path p;
    try (Fault slow = cluster.slowDisk(1, DiskFault.serviceTime(SERVICE))) {
      p = writeOn(1, 11, MIB);
    }
    long elapsed = System.nanoTime() - start;
    long packets = cluster.faults(1).getDelayedWrites() - before;
    assertTrue(packets >= MIB / (64 * KIB), "only " + packets + " packets went through the disk");
    assertTrue(elapsed >= packets * SERVICE.toNanos(),
        "wrote " + packets + " packets in " + elapsed / 1_000_000 + " ms");
    assertEquals(othersBefore, delayedWritesOfOthers(1), "other DataNodes were slowed too");
    SeededData.verify(fs, p, 11, MIB);
  }

  @Test
  void concurrentWritersQueueBehindEachOtherOnOneDisk() throws Exception {
    int writers = 4;
    long before = cluster.faults(2).getDelayedWrites();
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<Path>> files = new ArrayList<>();
    long start = System.nanoTime();
    try (Fault slow = cluster.slowDisk(2, DiskFault.serviceTime(SERVICE))) {
      for (int w = 0; w < writers; w++) {
        long seed = 200 + w;
        files.add(pool.submit(() -> writeOn(2, seed, 512 * KIB)));
      }
      for (Future<Path> f : files) {
        f.get(2, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    long elapsed = System.nanoTime() - start;
    long packets = cluster.faults(2).getDelayedWrites() - before;
    // One FIFO disk serves them all: the wall time covers every packet's service, not a quarter.
    assertTrue(elapsed >= packets * SERVICE.toNanos(),
        packets + " packets through one disk in only " + elapsed / 1_000_000 + " ms");
    for (int w = 0; w < writers; w++) {
      SeededData.verify(fs, files.get(w).get(), 200 + w, 512 * KIB);
    }
  }

  @Test
  void slowDiskDelaysReadsOnlyWhenAsked() throws IOException {
    Path p = writeOn(3, 31, MIB);
    long readsBefore = cluster.faults(3).getDelayedReads();
    try (Fault writesOnly = cluster.slowDisk(3, DiskFault.serviceTime(SERVICE))) {
      SeededData.verify(fs, p, 31, MIB);
    }
    assertEquals(readsBefore, cluster.faults(3).getDelayedReads());

    long start = System.nanoTime();
    try (Fault reads = cluster.slowDisk(3, DiskFault.serviceTime(SERVICE).withReads())) {
      SeededData.verify(fs, p, 31, MIB);
    }
    long elapsed = System.nanoTime() - start;
    long packets = cluster.faults(3).getDelayedReads() - readsBefore;
    long ours = MIB / (64 * KIB);
    assertTrue(packets >= ours, "only " + packets + " read packets were delayed");
    // The counter counts a packet as its delay starts, so one that another reader of the
    // DataNode (its block scanner) queued behind ours may be counted and still waiting: only
    // this read's own packets are sure to have been served within it.
    assertTrue(elapsed >= ours * SERVICE.toNanos(), "read took " + elapsed / 1_000_000 + " ms"
        + " for " + packets + " delayed packets");
  }

  @Test
  void slowOpensDelayEachReadOnceAndLeavePacketsAndWritesAlone() throws IOException {
    Path p = writeOn(3, 32, MIB);
    Duration open = Duration.ofMillis(300);
    long readsBefore = cluster.faults(3).getDelayedReads();
    long writesBefore = cluster.faults(3).getDelayedWrites();
    long start = System.nanoTime();
    try (Fault opens = cluster.slowDisk(3, DiskFault.serviceTime(open).on(DiskFault.Access.OPENS))) {
      SeededData.verify(fs, p, 32, MIB); // one block: one open
      writeOn(3, 33, 256 * KIB);
    }
    long elapsed = System.nanoTime() - start;
    // The block scanner may open a replica meanwhile: at least ours, never one per packet.
    long delayed = cluster.faults(3).getDelayedReads() - readsBefore;
    assertTrue(delayed >= 1 && delayed < MIB / (64 * KIB), delayed + " delayed reads");
    assertEquals(writesBefore, cluster.faults(3).getDelayedWrites(), "writes were delayed");
    assertTrue(elapsed >= open.toNanos(), "the read took " + elapsed / 1_000_000 + " ms");
  }

  @Test
  void stallsHoldEveryAccessDuringAFreezeOnly() throws IOException {
    Path p = writeOn(3, 34, 256 * KIB);
    DiskFault stalls = DiskFault.stalls(Duration.ofSeconds(60), Duration.ofMillis(500));
    long start = System.nanoTime();
    try (Fault frozen = cluster.slowDisk(3, stalls)) { // the first freeze starts now
      SeededData.verify(fs, p, 34, 256 * KIB);
    }
    long first = System.nanoTime() - start;
    assertTrue(first >= Duration.ofMillis(500).toNanos(), "read in " + first / 1_000_000
        + " ms, during a 500 ms freeze");
    try (Fault frozen = cluster.slowDisk(3, stalls)) {
      sleepMillis(600); // past the freeze: healthy until the next, a minute away
      long s = System.nanoTime();
      SeededData.verify(fs, p, 34, 256 * KIB);
      long after = System.nanoTime() - s;
      assertTrue(after < Duration.ofMillis(450).toNanos(), "read in " + after / 1_000_000
          + " ms between freezes");
    }
  }

  private static void sleepMillis(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Test
  void backgroundLoadAddsQueueingDelay() throws IOException {
    long before = cluster.faults(0).getDelayedWrites();
    long start = System.nanoTime();
    Path p;
    try (Fault busy = cluster.slowDisk(0, DiskFault.serviceTime(SERVICE).withUtilisation(0.8))) {
      p = writeOn(0, 41, MIB);
    }
    long elapsed = System.nanoTime() - start;
    long packets = cluster.faults(0).getDelayedWrites() - before;
    // With the disk 80% busy in the background, packets also wait behind its work; at the least
    // they still each take the service time.
    assertTrue(elapsed >= packets * SERVICE.toNanos(), "took " + elapsed / 1_000_000 + " ms");
    SeededData.verify(fs, p, 41, MIB);
  }

  @Test
  void readThrottledDataNodeServesAtNoMoreThanItsRate() throws IOException {
    long size = 2 * MIB;
    long rate = MIB; // per second
    Path slow = writeOn(1, 51, size);
    Path other = writeOn(0, 52, size);
    long throttled;
    long unaffected;
    try (Fault throttle = cluster.throttleReads(1, rate)) {
      long start = System.nanoTime();
      SeededData.verify(fs, slow, 51, size);
      throttled = System.nanoTime() - start;
      start = System.nanoTime();
      SeededData.verify(fs, other, 52, size);
      unaffected = System.nanoTime() - start;
    }
    // HDFS's throttler lets the first half second's worth through at once.
    long floor = TimeUnit.SECONDS.toNanos(size - rate / 2) / rate;
    assertTrue(throttled >= floor * 9 / 10, "throttled read took " + throttled / 1_000_000 + " ms");
    assertTrue(unaffected < throttled / 2, "unthrottled DataNode took " + unaffected / 1_000_000
        + " ms against " + throttled / 1_000_000 + " ms");
    long start = System.nanoTime();
    SeededData.verify(fs, slow, 51, size);
    assertTrue(System.nanoTime() - start < throttled / 2, "the throttle was not undone");
  }

  @Test
  void writeThrottledDataNodeReceivesAtNoMoreThanItsRate() throws IOException {
    long size = 2 * MIB;
    long rate = MIB;
    long start = System.nanoTime();
    Path p;
    try (Fault throttle = cluster.throttleWrites(3, rate)) {
      p = writeOn(3, 61, size);
    }
    long elapsed = System.nanoTime() - start;
    long floor = TimeUnit.SECONDS.toNanos(size - rate / 2) / rate;
    assertTrue(elapsed >= floor * 9 / 10, "throttled write took " + elapsed / 1_000_000 + " ms");
    SeededData.verify(fs, p, 61, size);
  }

  @Test
  void stoppedDataNodeIsSkippedAndRestartsWithItsFaultControls() throws IOException {
    Path p = new Path("/faults/two-replicas");
    try (FSDataOutputStream out = fs.create(p, FsPermission.getFileDefault(), true, 4096,
        (short) 2, BLOCK, null, new InetSocketAddress[] {cluster.address(0), cluster.address(1)})) {
      SeededData.write(out, 71, MIB);
    }
    cluster.awaitReplicas(fs, p, 2);
    List<Integer> holders = cluster.replicas(fs, p).get(0);
    try (Fault down = cluster.stop(holders.get(0))) {
      SeededData.verify(fs, p, 71, MIB);
    }
    assertEquals(0, cluster.faults(holders.get(0)).getDelayedWrites(),
        "a restarted DataNode starts healthy, with fresh counters");
    SeededData.verify(fs, p, 71, MIB);
  }
}
