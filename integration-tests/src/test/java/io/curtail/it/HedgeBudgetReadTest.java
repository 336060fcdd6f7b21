package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.datanode.fault.DiskFault.Access;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.Replication;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every DataNode slow at once, as when a whole cluster is loaded: a hedge then only moves a
 * packet from one slow queue to another and adds to the load of both. The experiment reads
 * {@value #FILES} one-block files, each through a short-lived client of its own (as a Spark
 * executor's tasks are) sharing the JVM's runtime, with static hedging at a threshold far below
 * the disks' time, every DataNode's knowledge forgotten at once (nothing learnt keeps a hedge off
 * a slow DataNode), and a lost hedge backing a DataNode off for one packet only. Without a budget
 * nearly every packet hedges; with the default budget (0.1 of a hedge per packet, a reserve of
 * 10), hedges stay within the reserve and a tenth of the packets read. Every file is read back
 * and compared byte for byte either way.
 */
class HedgeBudgetReadTest {
  private static final int KIB = 1024;
  private static final int BLOCK = 256 * KIB;
  /** Packets of one file: the DataNode sends 64 KiB packets. */
  private static final int PACKETS_PER_FILE = BLOCK / (64 * KIB);
  private static final int FILES = 40;
  private static final Duration DISK = Duration.ofMillis(20);
  private static final int BURST = 10;
  private static final double RATIO = 0.1;
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER =
      new FaultyClusterExtension(b -> b.dataNodes(3).blockSize(BLOCK));
  private static final List<Path> FILE_PATHS = new ArrayList<>();

  /** The files, written while the disks are healthy, three replicas each. */
  @BeforeAll
  static void writeFiles() throws IOException {
    for (int f = 0; f < FILES; f++) {
      Path p = new Path("/budget/f" + f);
      SeededData.create(CLUSTER.stock(), p, f, BLOCK);
      Replication.await(CLUSTER.stock(), p, 3);
      FILE_PATHS.add(p);
    }
  }

  /** What the clients of one experiment did, summed. */
  private static final class Outcome {
    long hedges;
    long denied;
    long hedgedBytes;
    long bytesRead;

    long packets() {
      return bytesRead / BLOCK * PACKETS_PER_FILE;
    }

    @Override
    public String toString() {
      return hedges + " hedges (" + denied + " denied, " + hedgedBytes + " hedged bytes) over "
          + packets() + " packets";
    }
  }

  @Test
  void withoutABudgetNearlyEveryPacketOfAnAllSlowClusterHedges() throws Exception {
    Outcome o = readAllWithEveryDiskSlow("unbudgeted", "1", Integer.toString(1 << 20));
    assertEquals(0, o.denied, o.toString());
    assertTrue(o.hedges >= o.packets() / 2, "the experiment must hedge freely without a budget: "
        + o);
  }

  @Test
  void aBudgetOfATenthKeepsHedgesToATenthOfPacketsPlusTheReserve() throws Exception {
    Outcome o = readAllWithEveryDiskSlow("budgeted", Double.toString(RATIO),
        Integer.toString(BURST));
    // 40 files of 4 packets: 160 packets earn 16 hedges, and the reserve holds 10 more.
    long allowed = BURST + (long) Math.ceil(RATIO * o.packets());
    assertTrue(o.hedges <= allowed, "at most " + allowed + " hedges: " + o);
    assertTrue(o.denied > 0, "the budget must have refused slow packets: " + o);
    assertTrue(o.hedgedBytes <= (allowed * 64L * KIB), "hedged bytes: " + o);
  }

  private static Outcome readAllWithEveryDiskSlow(String scope, String ratio, String burst)
      throws Exception {
    Map<String, String> settings = new HashMap<>();
    settings.put("curtail.read.hedging", "static");
    settings.put("curtail.read.hedging.static.threshold.ms", "2");
    settings.put("curtail.read.hedging.backoff.packets", "1");
    settings.put("curtail.read.hedging.max.retries", "30");
    settings.put("curtail.knowledge.memory.ms", "1");
    settings.put("curtail.knowledge.scope", "budget-" + scope);
    settings.put("curtail.read.hedging.budget.ratio", ratio);
    settings.put("curtail.read.hedging.budget.burst", burst);
    FaultyCluster c = CLUSTER.cluster();
    Outcome o = new Outcome();
    List<Fault> slow = new ArrayList<>();
    // The anchor holds the runtime (and its budget) for the whole experiment; each file's
    // client shares it.
    try (CurtailDistributedFileSystem anchor = c.curtailFileSystem(settings)) {
      for (int i = 0; i < c.dataNodeCount(); i++) {
        slow.add(c.slowDisk(i, DiskFault.serviceTime(DISK).on(Access.READS, Access.OPENS)));
      }
      for (int f = 0; f < FILES; f++) {
        try (CurtailDistributedFileSystem fs = c.curtailFileSystem(settings)) {
          assertTrue(fs.runtime() == anchor.runtime(), "one runtime for the experiment");
          o.bytesRead += SeededData.verify(fs, FILE_PATHS.get(f), f, BLOCK);
          o.hedges += fs.hedgesTried();
          o.denied += fs.hedgesDenied();
          o.hedgedBytes += fs.hedgedBytes();
        }
      }
    } finally {
      for (Fault f : slow) {
        f.close();
      }
    }
    assertEquals((long) FILES * BLOCK, o.bytesRead, "every byte read back and compared");
    System.out.println("HedgeBudgetReadTest " + scope + ": " + o);
    return o;
  }
}
