package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.datanode.hook.CurtailDataNodePlugin;
import io.curtail.datanode.report.AckReports;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.SeededData;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * DataNodes with Curtail's plugin report their service time and busy flag on pipeline acks: stock
 * clients read those acks as before, Curtail's writer (with {@code curtail.write.datanode.reports})
 * uses the reports to tell which DataNode of a pipeline is slow wherever it sits, and never picks a
 * busy DataNode as a replacement.
 */
class DataNodeReportsTest {
  private static final int MIB = 1024 * 1024;

  private static void write(CurtailDistributedFileSystem fs, Path p, long seed, long length,
      short replication, InetSocketAddress... favoured) throws Exception {
    try (FSDataOutputStream out = fs.create(p, null,
        EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE), 4096, replication, 8 * MIB, null,
        null, favoured.length == 0 ? null : favoured)) {
      SeededData.write(out, seed, length);
    }
  }

  @Test
  void stockClientsReadReportedAcksAndTheReportsReachTheClient() throws Exception {
    try (FaultyCluster c = FaultyCluster.builder().dataNodes(3).blockSize(8 * MIB).build();
        DistributedFileSystem stock = c.stockFileSystem()) {
      Path p = new Path("/reports/stock");
      SeededData.create(stock, p, 1, 3 * MIB + 7);
      SeededData.verify(stock, p, 1, 3 * MIB + 7);
      c.awaitReplicas(stock, p, 3);
      int reporting = 0;
      for (int i = 0; i < 3; i++) {
        AckReports r = CurtailDataNodePlugin.reportsOf(c.dataNode(i));
        reporting += r.getReportsSent() > 0 ? 1 : 0;
        assertTrue(r.getReportsSent() == 0 || r.getLastServiceMicros() >= 0);
      }
      assertEquals(2, reporting, "the first and middle DataNodes reported themselves");
    }
  }

  @Test
  void theSlowDataNodeIsTheOneReplacedWhereverItSits() throws Exception {
    int trials = 24;
    try (FaultyCluster c = FaultyCluster.builder().dataNodes(5).blockSize(8 * MIB).build();
        DistributedFileSystem stock = c.stockFileSystem();
        CurtailDistributedFileSystem fs = c.curtailFileSystem(
            Collections.singletonMap("curtail.write.datanode.reports", "true"));
        Fault slow = c.slowDisk(0, DiskFault.serviceTime(Duration.ofMillis(10)))) {
      int replacedSlow = 0;
      for (int t = 0; t < trials; t++) {
        CurtailDistributedFileSystem.resetJvmKnowledge();
        long before = fs.replacements();
        Path p = new Path("/reports/slow" + t);
        int a = 1 + t % 4;
        int b = 1 + (t + 1) % 4;
        InetSocketAddress[][] orders = {
            {c.address(0), c.address(a), c.address(b)},
            {c.address(a), c.address(0), c.address(b)},
            {c.address(a), c.address(b), c.address(0)}};
        write(fs, p, t, 4 * MIB, (short) 3, orders[t % 3]);
        SeededData.verify(stock, p, t, 4 * MIB);
        c.awaitReplicas(stock, p, 3);
        List<Integer> replicas = c.replicas(stock, p).get(0);
        if (fs.replacements() > before) {
          assertFalse(replicas.contains(0), "trial " + t + ": the slow dn0 was the one replaced");
          replacedSlow++;
        }
      }
      assertTrue(replacedSlow >= trials * 95 / 100,
          "dn0 replaced in " + replacedSlow + " of " + trials + " trials");
    }
  }

  @Test
  void aBusyDataNodeIsNeverChosenAsAReplacement() throws Exception {
    try (FaultyCluster c = FaultyCluster.builder().dataNodes(4).blockSize(8 * MIB).build();
        DistributedFileSystem stock = c.stockFileSystem();
        CurtailDistributedFileSystem fs = c.curtailFileSystem(Collections.emptyMap())) {
      CurtailDataNodePlugin.reportsOf(c.dataNode(2)).setBusy(true);
      // The client learns of dn2's flag from an ack of a pipeline through it.
      write(fs, new Path("/busy/warm"), 1, MIB, (short) 2, c.address(2), c.address(3));
      try (Fault slow = c.slowDisk(0, DiskFault.serviceTime(Duration.ofMillis(10)))) {
        for (int t = 0; t < 4; t++) {
          long before = fs.replacements();
          Path p = new Path("/busy/f" + t);
          write(fs, p, t, 2 * MIB, (short) 2, c.address(0), c.address(1));
          SeededData.verify(stock, p, t, 2 * MIB);
          c.awaitReplicas(stock, p, 2);
          List<Integer> replicas = c.replicas(stock, p).get(0);
          assertFalse(replicas.contains(2), "busy dn2 never chosen: " + replicas);
          if (fs.replacements() > before) {
            assertEquals(List.of(1, 3), replicas.stream().sorted().collect(
                java.util.stream.Collectors.toList()), "dn0 replaced by dn3");
          }
          CurtailDistributedFileSystem.resetJvmKnowledge();
          write(fs, new Path("/busy/warm" + t), 1, MIB, (short) 2, c.address(2), c.address(3));
        }
      }
    }
  }
}
