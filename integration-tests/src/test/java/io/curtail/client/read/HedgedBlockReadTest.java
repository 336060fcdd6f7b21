package io.curtail.client.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.runtime.CurtailRuntime;
import io.curtail.client.runtime.NanoClock;
import io.curtail.client.runtime.Scheduler;
import io.curtail.client.track.LatencyWindow;
import io.curtail.client.wire.ConnectionPool;
import io.curtail.client.track.NodeId;
import io.curtail.client.track.NodeTracker;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.net.NetUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hedging one block at a time, with the replica order fixed by the test (the NameNode shuffles
 * it), so each experiment is deterministic: which DataNode is read first, which is hedged to.
 */
class HedgedBlockReadTest {
  private static final int KIB = 1024;
  private static final int BLOCK = 256 * KIB; // four 64 KiB packets
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER =
      new FaultyClusterExtension(b -> b.dataNodes(4).blockSize(BLOCK));
  private static FaultyCluster cluster;
  private static DistributedFileSystem fs;
  private static int fileNo;
  /** What these experiments' readers know of DataNodes, shared by the tests of this class. */
  private static final CurtailRuntime RUNTIME =
      CurtailRuntime.create(NanoClock.SYSTEM, CurtailConfig.defaults());

  /** Short names for what {@link #CLUSTER} started. */
  @BeforeAll
  static void names() throws IOException {
    cluster = CLUSTER.cluster();
    fs = CLUSTER.stock();
  }

  /** Every DataNode starts each test looking healthy to the JVM. */
  @BeforeEach
  void forgetLatencies() {
    for (int i = 0; i < cluster.dataNodeCount(); i++) {
      for (int k = 0; k < LatencyWindow.CAPACITY; k++) {
        nodeTracker(i).recordStart(TimeUnit.MILLISECONDS.toNanos(2), System.nanoTime());
      }
    }
  }

  private static LatencyWindow tracker(int dn) {
    return nodeTracker(dn).reads();
  }

  private static NodeTracker nodeTracker(int dn) {
    return RUNTIME.registry().tracker(NodeId.of("127.0.0.1:" + cluster.address(dn).getPort()));
  }

  private static ReadContext context(String... settings) {
    return context(RUNTIME, settings);
  }

  private static ReadContext context(CurtailRuntime runtime, String... settings) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < settings.length; i += 2) {
      m.put(settings[i], settings[i + 1]);
    }
    return new ReadContext(CurtailConfig.from(m), runtime,
        NetUtils.getDefaultSocketFactory(cluster.conf()),
        new ConnectionPool(NanoClock.SYSTEM, 16, TimeUnit.SECONDS.toNanos(3)),
        Scheduler.daemon("test-watchdog"));
  }

  /** A one-block file with replicas on {@code a} and {@code b}, its block listed as a, b. */
  private static LocatedBlock blockOn(int a, int b, long seed) throws IOException {
    Path p = new Path("/hedge/f" + (fileNo++));
    try (FSDataOutputStream out = fs.create(p, FsPermission.getFileDefault(), true, 4096,
        (short) 2, BLOCK, null, new InetSocketAddress[] {cluster.address(a), cluster.address(b)})) {
      SeededData.write(out, seed, BLOCK);
    }
    cluster.awaitReplicas(fs, p, 2);
    LocatedBlock lb = fs.getClient().getLocatedBlocks(p.toString(), 0).get(0);
    DatanodeInfo first = null;
    DatanodeInfo second = null;
    for (DatanodeInfo d : lb.getLocations()) {
      if (d.getXferPort() == cluster.address(a).getPort()) {
        first = d;
      } else if (d.getXferPort() == cluster.address(b).getPort()) {
        second = d;
      }
    }
    if (first == null || second == null) {
      throw new AssertionError("favoured-node placement put " + p + " on "
          + java.util.Arrays.toString(lb.getLocations()) + ", not on dn" + a + " and dn" + b);
    }
    LocatedBlock ordered = new LocatedBlock(lb.getBlock(), new DatanodeInfo[] {first, second});
    ordered.setBlockToken(lb.getBlockToken());
    return ordered;
  }

  private static String pathOf(int no) {
    return "/hedge/f" + no;
  }

  /** A read of the whole of {@code block}, a block of {@code file}, in the order it lists. */
  private static BlockRead wholeBlock(ReadContext ctx, String file, LocatedBlock block) {
    return new BlockRead(ctx, fs.getClient(), file, ReplicaPlan.of(ctx, block), 0, BLOCK);
  }

  /** Reads the whole block through {@code read}; checks the bytes. */
  private static void readAll(BlockRead read, long seed) throws IOException {
    ByteBuffer all = ByteBuffer.allocate(BLOCK);
    for (ByteBuffer b = read.next(); b != null; b = read.next()) {
      all.put(b);
    }
    assertEquals(BLOCK, all.position());
    assertArrayEquals(SeededData.bytes(seed, BLOCK), all.array());
  }

  /**
   * A read that delivered its whole range gives its connection back on close even if nobody
   * asked past the last byte (a stream read to its length, or stopped at the end of the file):
   * otherwise every whole-file read would pay a new connection, and a new connection's small TCP
   * window, for the next. One closed mid-range never gives it back.
   */
  @Test
  void aRangeReadWholeGivesItsConnectionBackEvenIfNotAskedPastItsEnd() throws IOException {
    LocatedBlock block = blockOn(0, 3, 3);
    try (ReadContext ctx = context()) {
      ByteBuffer all = ByteBuffer.allocate(BLOCK);
      try (BlockRead read = wholeBlock(ctx, pathOf(fileNo - 1), block)) {
        while (all.hasRemaining()) {
          all.put(read.next());
        }
      }
      assertArrayEquals(SeededData.bytes(3, BLOCK), all.array());
      assertEquals(1, ctx.connections.size(), "the whole range was read: its connection is kept");
      try (BlockRead read = wholeBlock(ctx, pathOf(fileNo - 1), block)) {
        ByteBuffer first = read.next();
        assertEquals(SeededData.bytes(3, BLOCK)[0], first.get(first.position()));
        assertEquals(0, ctx.connections.size(), "the next read took the pooled connection");
      }
      assertEquals(0, ctx.connections.size(), "closed mid-range: the connection is not kept");
    }
  }

  @Test
  void aHedgeOvertakesAThrottledPrimaryAndTheReadCarriesOnFromIt() throws IOException {
    LocatedBlock block = blockOn(0, 3, 1);
    try (ReadContext ctx = context("curtail.read.hedging", "static",
        "curtail.read.hedging.static.threshold.ms", "50");
        Fault slow = cluster.throttleReads(0, 32 * KIB);
        BlockRead read = wholeBlock(ctx, pathOf(fileNo - 1), block)) {
      readAll(read, 1);
      assertEquals(1, ctx.hedgesTried(), "one hedge, then the fast replica serves the rest");
      assertEquals(1, ctx.hedgesWon());
      assertEquals(0, ctx.hedgesLost());
    }
  }

  /**
   * dn0 takes 10 s to open any replica (its disk queues every read access, the open first). The
   * read connects inside its first packet's race, so the hedge to dn3 starts at the threshold,
   * while dn0 has not answered at all, and the read is done long before dn0 would be.
   */
  @Test
  void aDataNodeSlowToStartTheReadIsHedgedBeforeItAnswers() throws IOException {
    LocatedBlock block = blockOn(0, 3, 2);
    try (ReadContext ctx = context("curtail.read.hedging", "static",
        "curtail.read.hedging.static.threshold.ms", "50");
        Fault slowOpen = cluster.slowDisk(0, DiskFault.serviceTime(Duration.ofSeconds(10))
            .withReads());
        BlockRead read = new BlockRead(ctx, fs.getClient(), pathOf(fileNo - 1),
            ReplicaPlan.of(ctx, block), 0, 4 * KIB)) {
      long start = System.nanoTime();
      ByteBuffer data = read.next();
      long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      byte[] got = new byte[data.remaining()];
      data.get(got);
      assertArrayEquals(java.util.Arrays.copyOf(SeededData.bytes(2, BLOCK), got.length), got);
      assertEquals(cluster.address(3).getPort(), read.currentDataNode().getXferPort(),
          "the read carried on from the hedge");
      assertEquals(1, ctx.hedgesWon());
      assertTrue(tookMs < 5_000, "the first bytes took " + tookMs + " ms: dn0's open was waited");
    }
  }

  @Test
  void aDataNodeWhoseHedgesLoseIsBackedOffThenGivenUp() throws IOException {
    // Primary dn1: 50 ms a packet, over the 40 ms threshold. Hedge target dn2: 2 s a packet, so
    // every hedge to it loses. Without backoff every packet would hedge; with it: packets 1, 17,
    // 49 and 113, then never. No hedge goes to a DataNode known to take over the threshold: dn2
    // is known at 30 ms. A slowness factor of 100 keeps replica order (which would read dn1
    // last once it is known slower) out of this test of backoff.
    LocatedBlock[] blocks = new LocatedBlock[40];
    String[] files = new String[blocks.length];
    for (int i = 0; i < blocks.length; i++) {
      blocks[i] = blockOn(1, 2, 100 + i);
      files[i] = pathOf(fileNo - 1);
    }
    try (ReadContext ctx = context("curtail.read.hedging", "static",
        "curtail.read.hedging.static.threshold.ms", "40", "curtail.slowness.factor", "100");
        Fault slowDisk = cluster.slowDisk(1, DiskFault.serviceTime(Duration.ofMillis(50))
            .on(DiskFault.Access.READS));
        Fault slower = cluster.slowDisk(2, DiskFault.serviceTime(Duration.ofSeconds(2))
            .withReads())) {
      for (int k = 0; k < LatencyWindow.CAPACITY; k++) {
        nodeTracker(2).recordStart(TimeUnit.MILLISECONDS.toNanos(30), System.nanoTime());
      }
      for (int i = 0; i < blocks.length; i++) {
        try (BlockRead read = wholeBlock(ctx, files[i], blocks[i])) {
          readAll(read, 100 + i);
        }
      }
      // 40 blocks of 4 packets: 160 packets, each slower than the 40 ms threshold.
      assertEquals(4, ctx.hedgesTried(), "hedges to a DataNode that keeps losing");
      assertEquals(4, ctx.hedgesLost());
      assertEquals(0, ctx.hedgesWon());
    }
  }

  @Test
  void theSmartThresholdFollowsOtherDataNodesLatencies() throws IOException {
    try (ReadContext ctx = context("curtail.read.hedging", "smart",
        "curtail.read.hedging.static.threshold.ms", "60000")) {
      NodeId self = NodeId.of("127.0.0.1:" + cluster.address(0).getPort());
      assertEquals(TimeUnit.SECONDS.toNanos(60),
          ctx.hedging.thresholdNanos(ctx.thresholds.othersStats(ctx.runtime.registry().tracker(self))),
          "no other DataNode read yet: the static value bootstraps");
      // Read from dn1 and dn2: now the client has something to compare dn0 with.
      for (int i = 0; i < 6; i++) {
        LocatedBlock block = blockOn(1 + i % 2, 3, 200 + i);
        try (BlockRead read = wholeBlock(ctx, pathOf(fileNo - 1), block)) {
          readAll(read, 200 + i);
        }
      }
      long learnt = ctx.hedging.thresholdNanos(ctx.thresholds.othersStats(ctx.runtime.registry().tracker(self)));
      assertTrue(learnt < TimeUnit.SECONDS.toNanos(1), "threshold " + learnt + " ns");
      // The others slow down: so does the threshold.
      for (int k = 0; k < LatencyWindow.CAPACITY; k++) {
        tracker(1).record(TimeUnit.MILLISECONDS.toNanos(300));
        tracker(2).record(TimeUnit.MILLISECONDS.toNanos(300));
      }
      long loaded = ctx.hedging.thresholdNanos(ctx.thresholds.othersStats(ctx.runtime.registry().tracker(self)));
      assertEquals(TimeUnit.MILLISECONDS.toNanos(900), loaded, "3 × p95 of the others");
    }
  }

  @Test
  void smartHedgingCutsASlowDiskFarBelowTheStaticThreshold() throws IOException {
    LocatedBlock[] warm = new LocatedBlock[6];
    String[] warmFiles = new String[6];
    for (int i = 0; i < warm.length; i++) { // never on dn3: a lost hedge there would back it off
      warm[i] = blockOn(1 + i % 2, 2 - i % 2, 300 + i);
      warmFiles[i] = pathOf(fileNo - 1);
    }
    LocatedBlock slowBlock = blockOn(0, 3, 400);
    String slowFile = pathOf(fileNo - 1);
    try (ReadContext ctx = context("curtail.read.hedging", "smart",
        "curtail.read.hedging.static.threshold.ms", "60000");
        Fault slow = cluster.slowDisk(0, DiskFault.serviceTime(Duration.ofMillis(300))
            .withReads())) {
      for (int i = 0; i < warm.length; i++) { // learn what healthy DataNodes look like
        try (BlockRead read = wholeBlock(ctx, warmFiles[i], warm[i])) {
          readAll(read, 300 + i);
        }
      }
      long start = System.nanoTime();
      try (BlockRead read = wholeBlock(ctx, slowFile, slowBlock)) {
        readAll(read, 400);
      }
      long ms = (System.nanoTime() - start) / 1_000_000;
      String seen = "block read in " + ms + " ms; dn0 delayed "
          + cluster.faults(0).getDelayedReads() + " packets; threshold "
          + ctx.hedging.thresholdNanos(ctx.thresholds.othersStats(ctx.runtime.registry().tracker(
              NodeId.of("127.0.0.1:" + cluster.address(0).getPort())))) / 1000 + " us";
      assertEquals(1, ctx.hedgesTried(), seen);
      assertEquals(1, ctx.hedgesWon(), seen);
      assertTrue(ms < 4 * 300, seen);
    }
  }

  /**
   * A read that meets a slow disk on a DataNode the JVM knows nothing of leaves it as soon as two
   * of its packets show it slow beside a DataNode known to be fast: within this block of four
   * packets, where the look every four packets would come too late, and with no hedge (the
   * threshold is a minute), so only the look can have moved it.
   */
  @Test
  void aReadLeavesASlowDiskAsSoonAsItsPacketsShowIt() throws IOException {
    LocatedBlock block = blockOn(0, 1, 500);
    String file = pathOf(fileNo - 1);
    CurtailRuntime cold = CurtailRuntime.create(NanoClock.SYSTEM, CurtailConfig.defaults());
    NodeTracker fast = cold.registry().tracker(
        NodeId.of("127.0.0.1:" + cluster.address(1).getPort()));
    fast.recordStart(TimeUnit.MILLISECONDS.toNanos(2), System.nanoTime());
    for (int k = 0; k < LatencyWindow.CAPACITY; k++) {
      fast.reads().record(TimeUnit.MICROSECONDS.toNanos(300));
    }
    try (ReadContext ctx = context(cold, "curtail.read.hedging", "static",
        "curtail.read.hedging.static.threshold.ms", "60000");
        Fault slowDisk = cluster.slowDisk(0, DiskFault.serviceTime(Duration.ofMillis(15))
            .withReads());
        BlockRead read = wholeBlock(ctx, file, block)) {
      readAll(read, 500);
      assertEquals(cluster.address(1).getPort(), read.currentDataNode().getXferPort(),
          "the read stayed on the slow disk");
      assertEquals(0, ctx.hedgesTried());
    }
  }

  @Test
  void hedgesNeverExceedTheClientsBound() {
    try (ReadContext ctx = context()) {
      assertTrue(ctx.config.readHedgingMaxInFlight() > 0);
      assertEquals(ctx.config.readHedgingMaxInFlight(), ctx.hedgesInFlight.availablePermits());
    }
  }

  @Test
  void hedgesToOneDataNodeNeverExceedItsBound() {
    try (ReadContext ctx = context("curtail.read.hedging.max.in.flight", "3",
        "curtail.read.hedging.max.in.flight.per.datanode", "2")) {
      NodeId a = NodeId.of("10.0.0.1:9866");
      NodeId b = NodeId.of("10.0.0.2:9866");
      assertTrue(ctx.takeHedgeSlot(a));
      assertTrue(ctx.takeHedgeSlot(a));
      assertFalse(ctx.hedgeSlotFree(a));
      assertFalse(ctx.takeHedgeSlot(a), "a third hedge would queue behind two on a");
      assertTrue(ctx.takeHedgeSlot(b));
      assertFalse(ctx.takeHedgeSlot(b), "the client's bound of 3 is reached");
      ctx.releaseHedgeSlot(a);
      assertTrue(ctx.takeHedgeSlot(a));
    }
  }

  @Test
  void noHedgeGoesToADataNodeKnownToBeSlowToStart() throws IOException {
    // Primary dn1: 20 ms a packet, over the 5 ms threshold every time. The only other replica,
    // dn2, is healthy to read from but known to take 2 s to start a read: no hedge goes there.
    LocatedBlock block = blockOn(1, 2, 300);
    String file = pathOf(fileNo - 1);
    for (int k = 0; k < LatencyWindow.CAPACITY; k++) {
      nodeTracker(2).starts().record(TimeUnit.SECONDS.toNanos(2));
    }
    try (ReadContext ctx = context("curtail.read.hedging", "static",
        "curtail.read.hedging.static.threshold.ms", "5");
        Fault slowDisk = cluster.slowDisk(1, DiskFault.serviceTime(Duration.ofMillis(20))
            .withReads());
        BlockRead read = wholeBlock(ctx, file, block)) {
      readAll(read, 300);
      assertEquals(0, ctx.hedgesTried());
    }
  }

}
