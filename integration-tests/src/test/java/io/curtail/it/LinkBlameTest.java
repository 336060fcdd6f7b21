package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.write.Replacement;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.datanode.fault.NetFault;
import io.curtail.datanode.hook.CurtailDataNodePlugin;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * Whom fail-fast replaces when the slow thing is a network, not a disk: a DataNode's NIC slow
 * sending, or one link slow one way. Before version 2 reports, a DataNode blocked forwarding to a
 * slow one counted the wait as its own, and a healthy neighbour was often replaced instead. And
 * pipelines that mix DataNodes of the previous plugin (version 1 reports), of this one and stock
 * ones write correctly and blame the right one. Each test starts its own cluster (the JVM's
 * knowledge of slow DataNodes and links must not leak); pipelines are placed in a known order by
 * favoured nodes; every file is read back byte for byte with the stock client.
 */
class LinkBlameTest {
  private static final int MIB = 1024 * 1024;
  private static final long LENGTH = 6L * MIB;
  /** Every forward of the slow NIC or link is held this long: 64 KiB at about 3 MB/s. */
  private static final Duration PER_PACKET = Duration.ofMillis(20);
  /** A client's write packet of data. */
  private static final long FIRST_PACKET = 64 * 1024;

  private static FaultyCluster cluster(int stock) throws IOException {
    return FaultyCluster.builder().dataNodes(5).stockDataNodes(stock).blockSize(8 * MIB).build();
  }

  /** Writes {@code length} seeded bytes through a pipeline of {@code order}, in that order. */
  private static Path write(FaultyCluster c, DistributedFileSystem fs, String name, long seed,
      int... order) throws IOException {
    Path p = new Path("/links/" + name);
    InetSocketAddress[] favoured = new InetSocketAddress[order.length];
    for (int i = 0; i < order.length; i++) {
      favoured[i] = c.address(order[i]);
    }
    // Not the createFile builder: Curtail cannot reach its build, which keeps stock's stream.
    try (FSDataOutputStream out = fs.create(p, FsPermission.getFileDefault(), true, 4096,
        (short) order.length, 8L * MIB, null, favoured)) {
      SeededData.write(out, seed, LENGTH);
    }
    return p;
  }

  /**
   * Writes {@code length} seeded bytes as {@link #write} does, through a pipeline in which
   * DataNode {@code forwarder}'s network fault meets the packets it forwards. The NameNode puts
   * first the DataNode it takes for the writer's host, and with every DataNode on 127.0.0.1 that is
   * any of them at random: a pipeline whose first packet the fault did not delay (the faulty
   * DataNode last, or its slow link not taken) is abandoned and the file written anew, so that
   * the fault meets every test run (before, 2 runs in 5 never met it: no replacement to judge).
   */
  private static Path writeThroughFault(FaultyCluster c, DistributedFileSystem fs, String name,
      long seed, int forwarder, int... order) throws IOException {
    Path p = new Path("/links/" + name);
    InetSocketAddress[] favoured = new InetSocketAddress[order.length];
    for (int i = 0; i < order.length; i++) {
      favoured[i] = c.address(order[i]);
    }
    for (int attempt = 1; attempt <= 20; attempt++) {
      long delayed = c.faults(forwarder).getDelayedForwards();
      try (FSDataOutputStream out = fs.create(p, FsPermission.getFileDefault(), true, 4096,
          (short) order.length, 8L * MIB, null, favoured)) {
        SeededData.write(out, seed, 0, FIRST_PACKET);
        out.hflush(); // every DataNode has the packet: the faulty one forwarded it, if it does
        if (c.faults(forwarder).getDelayedForwards() > delayed) {
          SeededData.write(out, seed, FIRST_PACKET, LENGTH);
          System.out.println("LinkBlameTest " + name + ": the fault met attempt " + attempt);
          return p;
        }
      }
    }
    throw new AssertionError("in 20 pipelines for " + name + ", dn" + forwarder
        + " never forwarded a packet through its fault");
  }

  private static void verify(FaultyCluster c, DistributedFileSystem stock, Path p, long seed)
      throws IOException {
    assertEquals(LENGTH, stock.getFileStatus(p).getLen(), "length of " + p);
    SeededData.verify(stock, p, seed, LENGTH);
    c.awaitReplicas(stock, p, 3);
  }

  /** The DataNodes fail-fast replaced, by index, in order; printed for the run's record. */
  private static List<Integer> replaced(FaultyCluster c, CurtailDistributedFileSystem fs) {
    List<Integer> out = new ArrayList<>();
    for (Replacement r : fs.recentReplacements()) {
      String a = r.replaced();
      out.add(c.indexOfPort(Integer.parseInt(a.substring(a.lastIndexOf(':') + 1))));
    }
    System.out.println("LinkBlameTest replaced=dn" + out + " " + fs.recentReplacements());
    return out;
  }

  /** For a comparison run only ({@code -Dlinkblame.v1=true}): every DataNode speaks version 1. */
  private static void versionOneIfAsked(FaultyCluster c) {
    if (Boolean.getBoolean("linkblame.v1")) {
      for (int i = 0; i < c.dataNodeCount(); i++) {
        CurtailDataNodePlugin.reportsOf(c.dataNode(i)).reportVersion1(true);
      }
    }
  }

  @Test
  void aSlowNicInTheMiddleHasItReplacedNotItsNeighbours() throws Exception {
    try (FaultyCluster c = cluster(0);
        DistributedFileSystem stock = c.stockFileSystem();
        CurtailDistributedFileSystem fs = c.curtailFileSystem(Collections.emptyMap())) {
      versionOneIfAsked(c);
      Path p;
      try (Fault nic = c.slowNet(1, NetFault.nic(PER_PACKET))) {
        p = writeThroughFault(c, fs, "nic", 1, 1, 0, 1, 2);
      }
      List<Integer> replaced = replaced(c, fs);
      assertFalse(replaced.isEmpty(), "dn1's slow NIC was never replaced");
      assertEquals(Collections.nCopies(replaced.size(), 1), replaced,
          "replaced " + fs.recentReplacements());
      verify(c, stock, p, 1);
    }
  }

  @Test
  void aSlowLinkHasOneOfItsEndsReplaced() throws Exception {
    try (FaultyCluster c = cluster(0);
        DistributedFileSystem stock = c.stockFileSystem();
        CurtailDistributedFileSystem fs = c.curtailFileSystem(Collections.emptyMap())) {
      versionOneIfAsked(c);
      Path p;
      try (Fault link = c.slowNet(1, NetFault.link(c.peer(2), PER_PACKET))) {
        p = writeThroughFault(c, fs, "link", 2, 1, 0, 1, 2);
      }
      List<Integer> replaced = replaced(c, fs);
      assertFalse(replaced.isEmpty(), "the slow link dn1 -> dn2 was never left");
      assertTrue(Set.of(1, 2).containsAll(replaced), "replaced " + fs.recentReplacements());
      // The link is slow, neither end: left as a link, neither end is avoided. Once, in a
      // fresh-clone CI run (2026-11-29), dn1's own window held the link's time (20 samples, p95
      // 21 ms) and dn1 was replaced as a slow DataNode and avoided: after an ack that lacked
      // its blocked time, its next service is measured from that forward's start. Fixes that
      // measured less there made healthy encrypted links look slow (docs/writes.md), so an end
      // stays allowed here. No DataNode off the link ever is.
      List<Integer> avoided = new ArrayList<>();
      fs.runtime().slowNodes().avoided().forEach(d -> avoided.add(c.indexOfPort(d.getXferPort())));
      System.out.println("LinkBlameTest avoided=dn" + avoided);
      assertTrue(Set.of(1, 2).containsAll(avoided), "healthy DataNodes avoided: dn" + avoided);
      verify(c, stock, p, 2);
    }
  }

  @Test
  void mixedPipelinesOfBothPluginVersionsAndStockWriteEveryByteAndReplaceNobodyHealthy()
      throws Exception {
    // dn1 speaks the previous plugin's layout; dn4 runs no plugin; the rest speak version 2.
    try (FaultyCluster c = cluster(1);
        DistributedFileSystem stock = c.stockFileSystem();
        CurtailDistributedFileSystem fs = c.curtailFileSystem(Collections.emptyMap())) {
      CurtailDataNodePlugin.reportsOf(c.dataNode(1)).reportVersion1(true);
      int[][] orders = {{0, 1, 2}, {1, 0, 4}, {4, 2, 1}, {2, 4, 0}};
      List<Path> paths = new ArrayList<>();
      for (int k = 0; k < orders.length; k++) {
        paths.add(write(c, fs, "mixed-" + k, 10 + k, orders[k]));
      }
      Path byStock = write(c, stock, "mixed-stock", 20, 1, 2, 4); // a stock client, new plugin
      assertEquals(0, fs.replacements(), "healthy, yet replaced " + fs.recentReplacements());
      assertTrue(CurtailDataNodePlugin.reportsOf(c.dataNode(0)).getReportsSent() > 0,
          "dn0 sent no reports");
      for (int k = 0; k < orders.length; k++) {
        verify(c, stock, paths.get(k), 10 + k);
      }
      verify(c, stock, byStock, 20);
    }
  }

  @Test
  void aSlowDiskBehindAVersionOneDataNodeIsTheOneReplaced() throws Exception {
    try (FaultyCluster c = cluster(1);
        DistributedFileSystem stock = c.stockFileSystem();
        CurtailDistributedFileSystem fs = c.curtailFileSystem(Collections.emptyMap())) {
      CurtailDataNodePlugin.reportsOf(c.dataNode(1)).reportVersion1(true);
      Path p;
      // 20 ms a packet, as the network faults here: at 10 ms, with another test class beside
      // it on the two cores, the healthy DataNodes' p95 came within 3x of the disk's once.
      try (Fault disk = c.slowDisk(2, DiskFault.serviceTime(PER_PACKET))) {
        p = write(c, fs, "disk", 30, 0, 1, 2);
      }
      List<Integer> replaced = replaced(c, fs);
      assertFalse(replaced.isEmpty(), "dn2's slow disk was never replaced");
      assertEquals(new TreeSet<>(List.of(2)), new TreeSet<>(replaced),
          "replaced " + fs.recentReplacements());
      verify(c, stock, p, 30);
    }
  }
}
