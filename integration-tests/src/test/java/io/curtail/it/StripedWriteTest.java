package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.write.striped.Dropped;
import io.curtail.client.write.striped.StripedWatch;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.Replication;
import io.curtail.testcluster.SeededData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSStripedOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Erasure-coded (RS-3-2-1024k) writes through Curtail's file system on five live DataNodes, where
 * every block group has an internal block on every DataNode (a sixth is held stopped as the spare
 * a reconstruction needs). Curtail hands the file to stock's striped stream and watches its
 * streamers ({@code write/striped/StripedWatch}, {@code curtail.write.striped.drop}):
 * <ul>
 *   <li>healthy, every group keeps its five internal blocks, nothing is let go, and the file
 *       reads back byte for byte;
 *   <li>one DataNode's disk slowed, with the drop off, stock's stream waits for its streamer (the
 *       write takes at least the slow disk's time) and keeps all five;
 *   <li>the same with the drop on, Curtail lets that DataNode's streamer go, at most once a
 *       group, the write takes a fraction of stock's, each group completes with four internal
 *       blocks, and once a DataNode is free to take it the NameNode reconstructs the fifth: fsck
 *       healthy, every byte read back;
 *   <li>one DataNode failing every write (its disk full), stock lets that streamer go the same
 *       way, which is the path a drop takes;
 *   <li>XOR-2-1 (one parity unit) through the same slow disk never drops;
 *   <li>a DataNode killed mid-write loses nothing.
 * </ul>
 * (A streamer timed out on a live DataNode whose disk froze past the ack timeout took the same
 * path when run alone, but whether a group's streamer times out depends on when the freeze
 * meets it: in a full CI run both groups kept five, so that case is not a test.)
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StripedWriteTest {
  private static final int MIB = 1024 * 1024;
  private static final String POLICY = "RS-3-2-1024k";
  private static final String XOR = "XOR-2-1-1024k";
  private static final int GROUP_WIDTH = 5;
  /**
   * The DataNode held stopped (known dead to the NameNode) while files are written, so that every
   * group spans the other five, and started for a reconstruction to have a free target.
   */
  private static final int SPARE = GROUP_WIDTH;
  /** Internal blocks of 2 cells: a block group of RS-3-2 holds 6 MiB of data. */
  private static final long BLOCK = 2 * MIB;
  /**
   * Two block groups, the second's last stripe short yet with data in every cell, so that both
   * groups have all five internal blocks.
   */
  private static final long LENGTH = 2 * 3 * BLOCK - 12345;
  private static final int GROUPS = 2;
  /** A slow disk's time per packet: 64 KiB packets, 64 of them on the slow DataNode. */
  private static final Duration SLOW_PACKET = Duration.ofMillis(60);
  /** The slow disk's time for its 64 packets: a write that waits for it takes at least this. */
  private static final long SLOW_FLOOR_MS = GROUPS * BLOCK / (64 * 1024) * SLOW_PACKET.toMillis();
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER =
      new FaultyClusterExtension(b -> b.dataNodes(GROUP_WIDTH + 1).blockSize(BLOCK));
  private static FaultyCluster cluster;
  private static DistributedFileSystem stock;
  private static int fileNo;
  /** Starts {@link #SPARE} again when closed. */
  private static Fault spareStopped;

  @BeforeAll
  static void policy() throws IOException {
    cluster = CLUSTER.cluster();
    stock = CLUSTER.stock();
    spareStopped = cluster.stopKnownDead(SPARE);
    for (String policy : new String[] {POLICY, XOR}) {
      stock.enableErasureCodingPolicy(policy);
    }
    stock.mkdirs(new Path("/ec"));
    stock.setErasureCodingPolicy(new Path("/ec"), POLICY);
    stock.mkdirs(new Path("/xor"));
    stock.setErasureCodingPolicy(new Path("/xor"), XOR);
  }

  private static CurtailDistributedFileSystem curtail(String... settings) throws IOException {
    return cluster.curtailFileSystem("striped-write-test-" + (fileNo++), settings);
  }

  /** Writes {@code LENGTH} seeded bytes to a new file; returns the time taken. */
  private static long write(CurtailDistributedFileSystem fs, Path p, long seed,
      InetSocketAddress... favoredNodes) throws IOException {
    long began = System.nanoTime();
    try (FSDataOutputStream out = favoredNodes.length == 0
        ? fs.create(p, true, 4096, (short) 1, BLOCK)
        : fs.create(p, FsPermission.getFileDefault(), true, 4096, (short) 1, BLOCK, null,
            favoredNodes)) {
      assertTrue(out.getWrappedStream() instanceof DFSStripedOutputStream,
          "an erasure-coded file's stream is " + out.getWrappedStream().getClass().getName());
      SeededData.write(out, seed, LENGTH);
    }
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
  }

  /** The internal blocks the NameNode lists as live, block group by block group. */
  private static List<Integer> liveInternalBlocks(Path p) throws IOException {
    List<Integer> live = new ArrayList<>();
    for (LocatedBlock g : groups(p)) {
      live.add(g.getLocations().length);
    }
    return live;
  }

  private static List<LocatedBlock> groups(Path p) throws IOException {
    return stock.getClient().getLocatedBlocks(p.toUri().getPath(), 0, LENGTH).getLocatedBlocks();
  }

  /** What {@code hdfs fsck} says of {@code p}, and whether it exits healthy. */
  private static String fsck(Path p) throws Exception {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    int rc;
    try (PrintStream out = new PrintStream(text, true, "UTF-8")) {
      rc = new DFSck(cluster.conf(), out).run(new String[] {p.toUri().getPath(), "-blocks"});
    }
    return "rc=" + rc + "\n" + text.toString(StandardCharsets.UTF_8.name());
  }

  private static List<Integer> everyGroup(int n) {
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < GROUPS; i++) {
      all.add(n);
    }
    return all;
  }

  private static long healthyMs = -1;
  private static long stockSlowMs = -1;

  @Test
  @Order(1)
  void healthyWriteKeepsEveryInternalBlockAndDropsNothing() throws Exception {
    Path p = new Path("/ec/healthy");
    StripedWatch watch;
    try (CurtailDistributedFileSystem fs = curtail()) {
      watch = fs.stripedWrites();
      healthyMs = write(fs, p, 1);
      SeededData.verify(fs, p, 1, LENGTH);
    }
    SeededData.verify(stock, p, 1, LENGTH);
    assertEquals(everyGroup(GROUP_WIDTH), liveInternalBlocks(p), "live internal blocks of " + p);
    assertEquals(0, watch.drops(), "let go on a healthy cluster: " + watch.recentDrops());
    assertEquals(GROUPS, watch.groups(), "block groups watched");
    String fsck = fsck(p);
    assertTrue(fsck.startsWith("rc=0") && fsck.contains("HEALTHY"), fsck);
    System.out.printf("healthy striped write: tookMs=%d groups=%d drops=0%n", healthyMs,
        watch.groups());
  }

  /**
   * Stock's behaviour, with the drop off: its stream waits for the slow disk's streamer (its 64
   * packets at 60 ms, about 3.8 s, bound the write from below) and keeps its internal blocks.
   */
  @Test
  @Order(2)
  void withTheDropOffASlowDiskHoldsUpStocksStripedWrite() throws Exception {
    Path p = new Path("/ec/slow-disk-stock");
    int slow = 0; // every group has an internal block on every DataNode
    try (CurtailDistributedFileSystem fs = curtail("curtail.write.striped.drop", "false");
        Fault disk = cluster.slowDisk(slow, DiskFault.serviceTime(SLOW_PACKET))) {
      assertEquals(null, fs.stripedWrites(), "the drop is off: nothing watches");
      stockSlowMs = write(fs, p, 2);
    }
    SeededData.verify(stock, p, 2, LENGTH);
    assertEquals(everyGroup(GROUP_WIDTH), liveInternalBlocks(p),
        "stock's stream let a slow, not failed, streamer go");
    assertTrue(stockSlowMs >= SLOW_FLOOR_MS, "the write took " + stockSlowMs + " ms, less than"
        + " the slow disk's " + SLOW_FLOOR_MS + " ms: did it wait for DataNode " + slow + "?");
    String fsck = fsck(p);
    assertTrue(fsck.startsWith("rc=0") && fsck.contains("HEALTHY"), fsck);
    System.out.printf("slow-disk striped write, drop off: tookMs=%d healthyMs=%d%n", stockSlowMs,
        healthyMs);
  }

  /**
   * The drop on: the slow disk's streamer is let go, once in each group it holds up, and nothing
   * else; the write takes a fraction of stock's, and the groups are reconstructed.
   */
  @Test
  @Order(3)
  void slowStreamerIsLetGoAndItsBlockReconstructed() throws Exception {
    int slow = 0;
    List<Dropped> drops = new ArrayList<>();
    long tookMs = letGoAndReconstructed(new Path("/ec/slow-disk-dropped"), 4, slow,
        () -> cluster.slowDisk(slow, DiskFault.serviceTime(SLOW_PACKET)), drops);
    assertTrue(!drops.isEmpty(), "nothing let go");
    Set<Long> groups = new HashSet<>();
    String slowNode = cluster.dataNode(slow).getDatanodeId().getXferAddr();
    for (Dropped d : drops) {
      assertTrue(groups.add(d.groupId()), "two drops in group " + d.groupId() + ": " + drops);
      assertEquals(slowNode, d.dataNode().getXferAddr(), "let go a healthy DataNode: " + d);
    }
    long stockMs = stockSlowMs > 0 ? stockSlowMs : SLOW_FLOOR_MS;
    assertTrue(tookMs < stockMs / 2, "the write took " + tookMs + " ms, stock's " + stockMs);
    System.out.printf("slow-disk striped write, drop on: tookMs=%d stockMs=%d healthyMs=%d"
        + " drops=%s%n", tookMs, stockMs, healthyMs, drops);
  }

  /**
   * Stock's path for a failed streamer, which a dropped slow one takes: the group completes with
   * four internal blocks, the failed DataNode keeps a stale partial replica, and once a DataNode
   * is free the NameNode reconstructs the missing internal block. The spare is that DataNode:
   * with only the five a group spans, the failed one would be the only target, and the NameNode
   * will not place a block on a DataNode it holds a corrupt (stale) replica of, nor delete that
   * replica while the group is short, so whether it ever reconstructs depends on which it hears
   * of first (in a loaded CI run one group stayed short for 90 s).
   */
  @Test
  @Order(4)
  void failedStreamerIsLetGoAndItsBlockReconstructed() throws Exception {
    int failing = 1;
    List<Dropped> drops = new ArrayList<>();
    long tookMs = letGoAndReconstructed(new Path("/ec/failed-streamer"), 3, failing,
        () -> cluster.fillDisk(failing), drops);
    assertEquals(List.of(), drops, "a failed streamer is stock's to let go, not a drop");
    System.out.printf("failed streamer: tookMs=%d%n", tookMs);
  }

  /** One parity unit: a drop would leave the group no redundancy, so nothing is let go. */
  @Test
  @Order(5)
  void xorIsNeverDropped() throws Exception {
    Path p = new Path("/xor/slow-disk");
    int slow = 0;
    InetSocketAddress[] favored = {cluster.address(slow), cluster.address(1),
        cluster.address(2)};
    long tookMs;
    StripedWatch watch;
    try (CurtailDistributedFileSystem fs = curtail();
        Fault disk = cluster.slowDisk(slow, DiskFault.serviceTime(SLOW_PACKET))) {
      watch = fs.stripedWrites();
      tookMs = write(fs, p, 5, favored);
    }
    SeededData.verify(stock, p, 5, LENGTH);
    String slowNode = cluster.dataNode(slow).getDatanodeId().getXferAddr();
    for (LocatedBlock g : groups(p)) {
      boolean through = false;
      for (DatanodeInfo d : g.getLocations()) {
        through |= d.getXferAddr().equals(slowNode);
      }
      assertTrue(through, "group " + g.getBlock() + " does not use the slow DataNode");
      assertEquals(3, g.getLocations().length, "live internal blocks of " + g.getBlock());
    }
    assertEquals(0, watch.drops(), "let go with one parity unit: " + watch.recentDrops());
    assertEquals(0, watch.groups(), "XOR-2-1 streams are not watched");
    System.out.printf("XOR-2-1 slow-disk write: tookMs=%d drops=0%n", tookMs);
  }

  /** A DataNode crashes halfway through the file: stock's failure path, and nothing lost. */
  @Test
  @Order(6)
  void dataNodeKilledMidWriteLosesNothing() throws Exception {
    Path p = new Path("/ec/killed-mid-write");
    int killed = 2;
    Fault stopped = null;
    StripedWatch watch;
    try (CurtailDistributedFileSystem fs = curtail()) {
      watch = fs.stripedWrites();
      try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, BLOCK)) {
        SeededData.write(out, 6, 0, LENGTH / 3); // most of it still in flight
        stopped = cluster.stop(killed);
        SeededData.write(out, 6, LENGTH / 3, LENGTH);
      }
      SeededData.verify(fs, p, 6, LENGTH);
    } finally {
      if (stopped != null) {
        stopped.close();
      }
    }
    SeededData.verify(stock, p, 6, LENGTH);
    List<Integer> live = liveInternalBlocks(p);
    assertTrue(live.stream().allMatch(n -> n >= GROUP_WIDTH - 1), "live internal blocks " + live);
    assertEquals(0, watch.drops(), "a failed streamer is stock's to let go: "
        + watch.recentDrops());
    String fsck = fsck(p);
    assertTrue(fsck.contains("HEALTHY"), fsck);
    System.out.printf("killed mid-write: live=%s%n", live);
  }

  /**
   * Writes a file with {@code fault} on DataNode {@code dn}, lifted once the file is closed;
   * checks every group was left one internal block short at most and some group short (not lost:
   * fsck healthy), then that the NameNode reconstructs it once the spare is back, fsck clean,
   * every byte read back each time; then stops the spare again. Adds the streamers let go to
   * {@code drops}; returns the write's time.
   */
  private static long letGoAndReconstructed(Path p, long seed, int dn, Supplier<Fault> fault,
      List<Dropped> drops) throws Exception {
    List<Integer> liveAtClose;
    String fsckAtClose;
    long tookMs;
    try (CurtailDistributedFileSystem fs = curtail(); Fault f = fault.get()) {
      tookMs = write(fs, p, seed);
      drops.addAll(fs.stripedWrites().recentDrops());
      // A group completes once k internal blocks are reported; the rest are reported after.
      Replication.await(stock, p, GROUP_WIDTH - 1, Duration.ofSeconds(10));
      liveAtClose = liveInternalBlocks(p);
      fsckAtClose = fsck(p);
      SeededData.verify(stock, p, seed, LENGTH);
    }
    assertTrue(liveAtClose.contains(GROUP_WIDTH - 1)
        && liveAtClose.stream().allMatch(n -> n >= GROUP_WIDTH - 1), "live internal blocks "
        + liveAtClose + " after the streamer to DataNode " + dn + " was let go");
    // Not lost, one internal block short: fsck still says healthy, and counts the groups.
    assertTrue(fsckAtClose.contains("HEALTHY") && fsckAtClose.matches(
        "(?s).*Under-erasure-coded block groups:\\s+[1-9].*"), fsckAtClose);
    long began = System.nanoTime();
    spareStopped.close();
    try {
      Replication.await(stock, p, GROUP_WIDTH, Duration.ofSeconds(90));
      long reconstructedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
      SeededData.verify(stock, p, seed, LENGTH);
      String fsck = fsck(p);
      assertTrue(fsck.startsWith("rc=0")
          && fsck.matches("(?s).*Under-erasure-coded block groups:\\s+0 .*")
          && fsck.matches("(?s).*Missing internal blocks:\\s+0 .*"), fsck);
      System.out.printf("%s: liveAtClose=%s reconstructedMs=%d%n", p, liveAtClose,
          reconstructedMs);
    } finally {
      spareStopped = cluster.stopKnownDead(SPARE); // the next file's groups span the five again
    }
    return tookMs;
  }
}
