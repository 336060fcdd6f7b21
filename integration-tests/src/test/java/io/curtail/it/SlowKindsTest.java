package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.datanode.fault.NetFault;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The kinds of slow beyond a disk (a slow NIC, a slow link one way between two DataNodes, a
 * starved CPU, a fault that flaps) each slow what they should and nothing else, seen through the
 * stock client (which replaces no one) on pipelines placed in a known order, and through the
 * faulted DataNode's own counters. Every file written is read back and compared byte for byte.
 */
class SlowKindsTest {
  private static final long KIB = 1024;
  private static final long MIB = 1024 * KIB;
  /** Packets of a 1 MiB write: 64 KiB each (the empty last one left out). */
  private static final long PACKETS = MIB / (64 * KIB);
  private static final Duration PER_PACKET = Duration.ofMillis(20);

  @RegisterExtension
  static final FaultyClusterExtension CLUSTER =
      new FaultyClusterExtension(b -> b.dataNodes(4).blockSize(8 * MIB));
  private static FaultyCluster cluster;
  private static DistributedFileSystem fs;
  private static final AtomicInteger FILE_NO = new AtomicInteger();

  @BeforeAll
  static void names() {
    cluster = CLUSTER.cluster();
    fs = CLUSTER.stock();
  }

  /**
   * Writes {@code length} seeded bytes through a pipeline of {@code dataNodes} in that order
   * (favoured nodes, client locality ignored); returns the file and the nanoseconds it took.
   */
  private static Written write(long seed, long length, int... dataNodes) throws IOException {
    Path p = new Path("/kinds/file-" + FILE_NO.getAndIncrement());
    InetSocketAddress[] favoured = new InetSocketAddress[dataNodes.length];
    for (int i = 0; i < dataNodes.length; i++) {
      favoured[i] = cluster.address(dataNodes[i]);
    }
    long start = System.nanoTime();
    try (FSDataOutputStream out = fs.createFile(p).overwrite(true).recursive()
        .replication((short) dataNodes.length).favoredNodes(favoured).ignoreClientLocality()
        .build()) {
      SeededData.write(out, seed, length);
    }
    long nanos = System.nanoTime() - start;
    cluster.awaitReplicas(fs, p, dataNodes.length); // the others come with block reports
    TreeSet<Integer> expected = new TreeSet<>();
    Arrays.stream(dataNodes).forEach(expected::add);
    assertEquals(expected, new TreeSet<>(cluster.replicas(fs, p).get(0)),
        "favoured-node placement put the replicas elsewhere");
    return new Written(p, nanos);
  }

  private static final class Written {
    final Path path;
    final long nanos;

    Written(Path path, long nanos) {
      this.path = path;
      this.nanos = nanos;
    }
  }

  /** Every DataNode's counter {@code which}, so a test can say whose moved. */
  private static List<Long> counters(String which) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < cluster.dataNodeCount(); i++) {
      switch (which) {
        case "forwards":
          out.add(cluster.faults(i).getDelayedForwards());
          break;
        case "sends":
          out.add(cluster.faults(i).getDelayedSends());
          break;
        default:
          out.add(cluster.faults(i).getStarvedSteps());
      }
    }
    return out;
  }

  private static long moved(List<Long> before, String which, int dn) {
    return counters(which).get(dn) - before.get(dn);
  }

  @Test
  void aSlowLinkSlowsForwardingFromAToBAndNotBToANorAToOthers() throws IOException {
    List<Long> before = counters("forwards");
    Written ab;
    Written ba;
    Written ac;
    try (Fault link = cluster.slowNet(0, NetFault.link(cluster.peer(1), PER_PACKET))) {
      ab = write(1, MIB, 0, 1, 2);
      long delayed = moved(before, "forwards", 0);
      assertTrue(delayed >= PACKETS, "dn0 -> dn1: only " + delayed + " packets delayed");
      assertTrue(ab.nanos >= PACKETS * PER_PACKET.toNanos(), "dn0 -> dn1 took "
          + ab.nanos / 1_000_000 + " ms for " + delayed + " packets held 20 ms each");
      before = counters("forwards");
      ba = write(2, MIB, 1, 0, 2); // dn1 -> dn0 -> dn2
      ac = write(3, MIB, 0, 2, 1); // dn0 -> dn2 -> dn1
      assertEquals(before, counters("forwards"), "forwarding other than dn0 -> dn1 was delayed");
    }
    SeededData.verify(fs, ab.path, 1, MIB);
    SeededData.verify(fs, ba.path, 2, MIB);
    SeededData.verify(fs, ac.path, 3, MIB);
  }

  @Test
  void aSlowNicSlowsWhatItSendsAndNotWhatItReceives() throws IOException {
    Written onlyOn0 = write(10, MIB, 0);
    Written onlyOn1 = write(11, MIB, 1);
    List<Long> forwards = counters("forwards");
    List<Long> sends = counters("sends");
    long writesBefore = cluster.faults(0).getDelayedWrites();
    Written first;
    Written middle;
    Written last;
    long read;
    try (Fault nic = cluster.slowNet(0, NetFault.nic(PER_PACKET))) {
      first = write(12, MIB, 0, 1, 2);
      middle = write(13, MIB, 1, 0, 2);
      assertTrue(moved(forwards, "forwards", 0) >= 2 * PACKETS,
          "dn0 forwarded to dn1 and to dn2: " + moved(forwards, "forwards", 0) + " delayed");
      forwards = counters("forwards");
      last = write(14, MIB, 1, 2, 0); // dn0 receives only
      assertEquals(forwards, counters("forwards"), "a last DataNode forwards nothing");

      long start = System.nanoTime();
      SeededData.verify(fs, onlyOn0.path, 10, MIB);
      read = System.nanoTime() - start;
      assertTrue(moved(sends, "sends", 0) >= PACKETS, "dn0's reads: "
          + moved(sends, "sends", 0) + " packets delayed");
      sends = counters("sends");
      SeededData.verify(fs, onlyOn1.path, 11, MIB);
      // dn0's own counter may still move by its last read's trailing packet: only the others'.
      assertEquals(sends.subList(1, sends.size()),
          counters("sends").subList(1, sends.size()), "reads from dn1 were delayed");
    }
    assertTrue(read >= PACKETS * PER_PACKET.toNanos(), "a read of dn0 took "
        + read / 1_000_000 + " ms");
    assertEquals(writesBefore, cluster.faults(0).getDelayedWrites(), "dn0's disk was slowed");
    SeededData.verify(fs, first.path, 12, MIB);
    SeededData.verify(fs, middle.path, 13, MIB);
    SeededData.verify(fs, last.path, 14, MIB);
  }

  @Test
  void aStarvedCpuDelaysReceivingAckingAndSendingOnItsDataNodeOnly() throws IOException {
    Written onlyOn0 = write(20, MIB, 0);
    List<Long> steps = counters("steps");
    List<Long> forwards = counters("forwards");
    Written middle;
    try (Fault cpu = cluster.starveCpu(0, Duration.ofMillis(5), 0.5)) {
      middle = write(21, MIB, 1, 0, 2);
      long written = moved(steps, "steps", 0);
      // each packet: once received, once acked upstream
      assertTrue(written >= 2 * PACKETS, "dn0 handled a 1 MiB write in " + written + " steps");
      assertTrue(middle.nanos >= PACKETS * Duration.ofMillis(5).toNanos() / 2,
          "the write took " + middle.nanos / 1_000_000 + " ms");
      SeededData.verify(fs, onlyOn0.path, 20, MIB);
      assertTrue(moved(steps, "steps", 0) - written >= PACKETS, "dn0's read was not starved");
    }
    for (int i = 1; i < cluster.dataNodeCount(); i++) {
      assertEquals(steps.get(i), counters("steps").get(i), "dn" + i + " was starved");
    }
    assertEquals(forwards, counters("forwards"), "the network was slowed");
    SeededData.verify(fs, middle.path, 21, MIB);
  }

  @Test
  void aFlappingFaultActsInItsSlowSpellsOnly() throws Exception {
    List<Long> before = counters("forwards");
    Written slow;
    Written healthy;
    Duration spell = Duration.ofSeconds(3);
    try (Fault nic = cluster.slowNet(0, NetFault.nic(PER_PACKET));
        Fault flap = cluster.flap(0, spell, Duration.ofSeconds(60))) {
      long start = System.nanoTime();
      slow = write(30, 256 * KIB, 0, 1);
      assertTrue(moved(before, "forwards", 0) >= 1, "nothing delayed in the slow spell");
      Thread.sleep(Math.max(0, (spell.toNanos() - (System.nanoTime() - start)) / 1_000_000 + 100));
      before = counters("forwards");
      healthy = write(31, 256 * KIB, 0, 1);
      assertEquals(before, counters("forwards"), "delayed in the healthy spell");
    }
    SeededData.verify(fs, slow.path, 30, 256 * KIB);
    SeededData.verify(fs, healthy.path, 31, 256 * KIB);
  }
}
