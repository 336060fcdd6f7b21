package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSStripedOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
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
 * a reconstruction needs). Curtail does not write striped files
 * itself yet (issue 36): they get stock's striped stream. These experiments are the baseline a
 * striped writer that lets a lagging streamer go must change, and check on this cluster the
 * NameNode behaviour such a writer would rely on:
 * <ul>
 *   <li>healthy, every group keeps its five internal blocks and reads back byte for byte;
 *   <li>one DataNode's disk slowed, stock's stream waits for its streamer (the write takes at
 *       least the slow disk's time) and keeps all five: it lets a streamer go only when it fails;
 *   <li>one DataNode failing every write (its disk full), stock lets that streamer go, the group
 *       completes with four internal blocks, and once a DataNode is free to take it the
 *       NameNode reconstructs the fifth: fsck healthy again.
 * </ul>
 * (A streamer timed out on a live DataNode whose disk froze past the ack timeout took the same
 * path when run alone, but whether a group's streamer times out depends on when the freeze
 * meets it: in a full CI run both groups kept five, so that case is not a test.)
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StripedWriteTest {
  private static final int MIB = 1024 * 1024;
  private static final String POLICY = "RS-3-2-1024k";
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
    stock.enableErasureCodingPolicy(POLICY);
    stock.mkdirs(new Path("/ec"));
    stock.setErasureCodingPolicy(new Path("/ec"), POLICY);
  }

  private static CurtailDistributedFileSystem curtail() throws IOException {
    return cluster.curtailFileSystem("striped-write-test-" + (fileNo++));
  }

  /** Writes {@code LENGTH} seeded bytes to a new file of {@code /ec}; returns the time taken. */
  private static long write(CurtailDistributedFileSystem fs, Path p, long seed)
      throws IOException {
    long began = System.nanoTime();
    try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, BLOCK)) {
      assertTrue(out.getWrappedStream() instanceof DFSStripedOutputStream,
          "an erasure-coded file's stream is " + out.getWrappedStream().getClass().getName());
      SeededData.write(out, seed, LENGTH);
    }
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
  }

  /** The internal blocks the NameNode lists as live, block group by block group. */
  private static List<Integer> liveInternalBlocks(Path p) throws IOException {
    List<Integer> live = new ArrayList<>();
    for (LocatedBlock g : stock.getClient().getLocatedBlocks(p.toUri().getPath(), 0, LENGTH)
        .getLocatedBlocks()) {
      live.add(g.getLocations().length);
    }
    return live;
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

  @Test
  @Order(1)
  void healthyWriteKeepsEveryInternalBlock() throws Exception {
    Path p = new Path("/ec/healthy");
    try (CurtailDistributedFileSystem fs = curtail()) {
      healthyMs = write(fs, p, 1);
      SeededData.verify(fs, p, 1, LENGTH);
    }
    SeededData.verify(stock, p, 1, LENGTH);
    assertEquals(everyGroup(GROUP_WIDTH), liveInternalBlocks(p), "live internal blocks of " + p);
    String fsck = fsck(p);
    assertTrue(fsck.startsWith("rc=0") && fsck.contains("HEALTHY"), fsck);
    System.out.printf("healthy striped write: tookMs=%d%n", healthyMs);
  }

  /**
   * What a striped writer that lets a lagging streamer go would change: stock's waits for the
   * slow disk's streamer (its 64 packets at 60 ms, about 3.8 s, bound the write from below) and
   * keeps its internal blocks.
   */
  @Test
  @Order(2)
  void slowDiskHoldsUpStocksStripedWrite() throws Exception {
    Path p = new Path("/ec/slow-disk");
    int slow = 0; // every group has an internal block on every DataNode
    long tookMs;
    try (CurtailDistributedFileSystem fs = curtail();
        Fault disk = cluster.slowDisk(slow, DiskFault.serviceTime(SLOW_PACKET))) {
      tookMs = write(fs, p, 2);
    }
    SeededData.verify(stock, p, 2, LENGTH);
    assertEquals(everyGroup(GROUP_WIDTH), liveInternalBlocks(p),
        "stock's stream let a slow, not failed, streamer go");
    long floorMs = GROUPS * BLOCK / (64 * 1024) * SLOW_PACKET.toMillis();
    assertTrue(tookMs >= floorMs, "the write took " + tookMs + " ms, less than the slow disk's "
        + floorMs + " ms: did it wait for DataNode " + slow + "?");
    String fsck = fsck(p);
    assertTrue(fsck.startsWith("rc=0") && fsck.contains("HEALTHY"), fsck);
    System.out.printf("slow-disk striped write: tookMs=%d healthyMs=%d%n", tookMs, healthyMs);
  }

  /**
   * Stock's path for a failed streamer, which a dropped slow one would take: the group completes
   * with four internal blocks, the failed DataNode keeps a stale partial replica, and once a
   * DataNode is free the NameNode reconstructs the missing internal block. The spare is that
   * DataNode: with only the five a group spans, the failed one would be the only target, and the
   * NameNode will not place a block on a DataNode it holds a corrupt (stale) replica of, nor
   * delete that replica while the group is short, so whether it ever reconstructs depends on
   * which it hears of first (in a loaded CI run one group stayed short for 90 s).
   */
  @Test
  @Order(3)
  void failedStreamerIsLetGoAndItsBlockReconstructed() throws Exception {
    int failing = 1;
    long tookMs = letGoAndReconstructed(new Path("/ec/failed-streamer"), 3, failing,
        () -> cluster.fillDisk(failing));
    System.out.printf("failed streamer: tookMs=%d%n", tookMs);
  }

  /**
   * Writes a file with {@code fault} on DataNode {@code dn}, lifted once the file is closed;
   * checks every group was left one internal block short (not lost: fsck healthy), then that the
   * NameNode reconstructs it once the spare is back, fsck clean, every byte read back each time.
   * Returns the write's time.
   */
  private static long letGoAndReconstructed(Path p, long seed, int dn, Supplier<Fault> fault)
      throws Exception {
    List<Integer> liveAtClose;
    String fsckAtClose;
    long tookMs;
    try (CurtailDistributedFileSystem fs = cluster.curtailFileSystem(
        "striped-write-test-" + (fileNo++)); Fault f = fault.get()) {
      tookMs = write(fs, p, seed);
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
    FaultyCluster.awaitReplication(stock, p, GROUP_WIDTH, Duration.ofSeconds(90));
    long reconstructedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
    SeededData.verify(stock, p, seed, LENGTH);
    String fsck = fsck(p);
    assertTrue(fsck.startsWith("rc=0")
        && fsck.matches("(?s).*Under-erasure-coded block groups:\\s+0 .*")
        && fsck.matches("(?s).*Missing internal blocks:\\s+0 .*"), fsck);
    System.out.printf("%s: liveAtClose=%s reconstructedMs=%d%n", p, liveAtClose,
        reconstructedMs);
    return tookMs;
  }
}
