package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.metrics.ClientMetrics;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The JVM's metrics2 source over JMX: its counters move as the file systems' own do, and it names
 * the DataNodes the JVM has read from.
 */
class ClientMetricsTest {
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER =
      new FaultyClusterExtension(b -> b.dataNodes(3).blockSize(256 * 1024));

  @Test
  void countersOverJmxMatchTheFileSystems() throws Exception {
    long hedgesBefore = ClientMetrics.JVM.hedgesTried.sum();
    long replacementsBefore = ClientMetrics.JVM.replacements.sum();
    Map<String, String> m = new HashMap<>();
    m.put("curtail.knowledge.scope", "metrics-test");
    // Hedge every packet that takes over a millisecond: hedges without a fault.
    m.put("curtail.read.hedging", "static");
    m.put("curtail.read.hedging.static.threshold.ms", "1");
    m.put("curtail.read.hedging.check.ms", "1");
    long hedges;
    long replacements;
    Path file = new Path("/metrics/f");
    try (CurtailDistributedFileSystem fs = CLUSTER.cluster().curtailFileSystem(m)) {
      SeededData.create(fs, file, 5, 1 << 20);
      for (int i = 0; i < 5; i++) {
        SeededData.verify(fs, file, 5, 1 << 20);
      }
      hedges = fs.hedgesTried();
      replacements = fs.replacements();
      slowestDataNodesAreNamedWithTheirPercentiles();
    }
    MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = new ObjectName("Hadoop:service=CurtailClient,name=CurtailClient");
    assertEquals(hedgesBefore + hedges, ((Number) jmx.getAttribute(name, "HedgesTried"))
        .longValue());
    assertEquals(replacementsBefore + replacements,
        ((Number) jmx.getAttribute(name, "Replacements")).longValue());
    assertNotNull(jmx.getAttribute(name, "StatsDropped"));
    assertTrue(((Number) jmx.getAttribute(name, "HedgesWon")).longValue()
        <= ((Number) jmx.getAttribute(name, "HedgesTried")).longValue());
  }

  /**
   * While a file system that read is open, the slowest DataNodes it knows are named, slowest
   * first, each with its reads' p50 and p95 (metrics2 caches JMX attributes for a period: waited
   * for).
   */
  private static void slowestDataNodesAreNamedWithTheirPercentiles() throws Exception {
    MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = new ObjectName("Hadoop:service=CurtailClient,name=CurtailClient");
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (!hasAttribute(jmx, name, "SlowDataNode1ReadP95Micros")) {
      assertTrue(System.nanoTime() < deadline, "no SlowDataNode1ReadP95Micros over JMX");
      Thread.sleep(200);
    }
    long previous = Long.MAX_VALUE;
    int ports = 0;
    for (int i = 1; hasAttribute(jmx, name, "SlowDataNode" + i + "ReadP95Micros"); i++) {
      long p95 = ((Number) jmx.getAttribute(name, "SlowDataNode" + i + "ReadP95Micros"))
          .longValue();
      long p50 = ((Number) jmx.getAttribute(name, "SlowDataNode" + i + "ReadP50Micros"))
          .longValue();
      assertTrue(p95 > 0 && p50 <= p95 && p95 <= previous, i + ": p50 " + p50 + ", p95 " + p95);
      previous = p95;
      String dn = String.valueOf(jmx.getAttribute(name, "tag.SlowDataNode" + i));
      boolean known = false;
      for (int k = 0; k < CLUSTER.cluster().dataNodeCount(); k++) {
        known |= dn.endsWith(":" + CLUSTER.cluster().address(k).getPort());
      }
      assertTrue(known, dn + " is none of the cluster's DataNodes");
      ports++;
    }
    assertTrue(ports >= 1 && ports <= 3, ports + " DataNodes named");
  }

  private static boolean hasAttribute(MBeanServer jmx, ObjectName name, String attribute)
      throws Exception {
    try {
      jmx.getAttribute(name, attribute);
      return true;
    } catch (javax.management.AttributeNotFoundException e) {
      return false;
    }
  }
}
