package io.curtail.testcluster;

import io.curtail.datanode.hook.CurtailDataNodePlugin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.ReconfigurationException;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link FaultyCluster}'s DataNodes by the number each keeps for the cluster's life (its
 * transfer port, kept across a restart), whichever place MiniDFSCluster's own list, which shifts
 * on restarts, gives it now: finding one, stopping and restarting it on its ports, reconfiguring
 * it while it runs, and summing their metrics.
 */
final class DataNodes {
  private static final Logger LOG = LoggerFactory.getLogger(DataNodes.class);

  private final MiniDFSCluster cluster;
  private final int[] ports;

  DataNodes(MiniDFSCluster cluster) {
    this.cluster = cluster;
    List<DataNode> dns = cluster.getDataNodes();
    this.ports = new int[dns.size()];
    for (int i = 0; i < ports.length; i++) {
      ports[i] = dns.get(i).getXferPort();
    }
  }

  int count() {
    return ports.length;
  }

  /** DataNode {@code i}'s transfer address, as clients and block locations name it. */
  InetSocketAddress address(int i) {
    return new InetSocketAddress("127.0.0.1", ports[i]);
  }

  /** DataNode {@code i}'s address as clients, and other DataNodes forwarding to it, name it. */
  String name(int i) {
    return "127.0.0.1:" + ports[i];
  }

  int port(int i) {
    return ports[i];
  }

  /** Which DataNode number has transfer port {@code port}, or -1. */
  int indexOfPort(int port) {
    for (int i = 0; i < ports.length; i++) {
      if (ports[i] == port) {
        return i;
      }
    }
    return -1;
  }

  /** DataNode {@code i} as it runs now. */
  DataNode get(int i) {
    return cluster.getDataNodes().get(listIndex(i));
  }

  /** Where DataNode {@code i} stands now in MiniDFSCluster's own list. */
  int listIndex(int i) {
    List<DataNode> dns = cluster.getDataNodes();
    for (int k = 0; k < dns.size(); k++) {
      if (dns.get(k).getXferPort() == ports[i]) {
        return k;
      }
    }
    throw new IllegalStateException("DataNode " + i + " (port " + ports[i] + ") is not running");
  }

  /** Stops DataNode {@code i} as a crash would; closing the result restarts it on its ports. */
  Fault stop(int i) {
    MiniDFSCluster.DataNodeProperties props =
        cluster.stopDataNode(get(i).getDatanodeId().getXferAddr());
    LOG.info("Stopped datanode={}", i);
    return () -> {
      try {
        restart(props, i);
        awaitRejoined(i);
        LOG.info("Restarted datanode={}", i);
      } catch (IOException e) {
        throw new UncheckedIOException("restarting DataNode " + i, e);
      }
    };
  }

  /**
   * Starts stopped DataNode {@code i} ({@code props}) again on its transfer port, by which
   * clients, block locations and these tests know it, with a new IPC port: the old one may have
   * become the local port of a connection opened since by another JVM on this host (the build runs
   * two test JVMs at once), and nobody knows a DataNode by it. The ports go in as the DataNode's
   * generic options, which take precedence over the configuration MiniDFSCluster restarts it with.
   */
  private void restart(MiniDFSCluster.DataNodeProperties props, int i) throws IOException {
    props.setDnArgs("-D", DFSConfigKeys.DFS_DATANODE_ADDRESS_KEY + "=" + name(i),
        "-D", DFSConfigKeys.DFS_DATANODE_IPC_ADDRESS_KEY + "=127.0.0.1:0");
    cluster.restartDataNode(props, false);
  }

  /**
   * Waits (at most 30 s) until restarted DataNode {@code i} has registered and the NameNode has its
   * storage. Not {@link MiniDFSCluster#waitActive}: that also waits until the NameNode lists as
   * many live DataNodes as run, so with another one still stopped it sat out that one's missed
   * heartbeats (about 16 s) before returning.
   */
  private void awaitRejoined(int i) throws IOException {
    String name = name(i);
    Await.until(Duration.ofSeconds(30), 20, () -> {
      if (!get(i).isDatanodeFullyStarted()) {
        return "DataNode " + i + " has not registered with the NameNode";
      }
      for (DatanodeInfo d : cluster.getNameNodeRpc().getDatanodeReport(DatanodeReportType.LIVE)) {
        if (d.getXferAddr().equals(name) && d.getCapacity() > 0 && d.getLastUpdate() > 0) {
          return null;
        }
      }
      return "the NameNode lists no live DataNode " + i + " (" + name + ") with its storage";
    });
  }

  /** Shuts DataNode {@code i} down for an upgrade (clients told) and brings it back at once. */
  void restartForUpgrade(int i) throws IOException {
    get(i).shutdownDatanode(true);
    Await.until(Duration.ofSeconds(30), 20, () -> Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("Async datanode shutdown thread"))
        ? "DataNode " + i + " did not shut down" : null);
    restart(cluster.stopDataNode(listIndex(i)), i);
    cluster.waitActive();
    LOG.info("Restarted for upgrade datanode={}", i);
  }

  /** Sets DataNode {@code i}'s {@code key} to {@code value} while it runs. */
  void reconfigure(int i, String key, String value) {
    try {
      get(i).reconfigureProperty(key, value);
    } catch (ReconfigurationException e) {
      throw new IllegalStateException("DataNode " + i + " refused " + key + "=" + value, e);
    }
  }

  /** Takes Curtail's plugin out of every DataNode's data path until the result is closed. */
  Fault withoutPlugin() {
    List<AutoCloseable> resume = new ArrayList<>();
    for (int i = 0; i < ports.length; i++) {
      try {
        resume.add(CurtailDataNodePlugin.suspend(get(i)));
      } catch (IllegalStateException stockAlready) {
        // a stock DataNode of a mixed cluster
      }
    }
    return () -> {
      for (AutoCloseable r : resume) {
        try {
          r.close();
        } catch (Exception e) {
          throw new IllegalStateException("resuming Curtail's plugin", e);
        }
      }
    };
  }

  /** The running DataNodes' metric {@code name} (a counter), summed. */
  long metric(String name) {
    long sum = 0;
    for (DataNode dn : cluster.getDataNodes()) {
      MetricsCollectorImpl collector = new MetricsCollectorImpl();
      DefaultMetricsSystem.instance().getSource(dn.getMetrics().name())
          .getMetrics(collector, true);
      for (MetricsRecord r : collector.getRecords()) {
        for (AbstractMetric m : r.metrics()) {
          if (m.name().equals(name)) {
            sum += m.value().longValue();
          }
        }
      }
    }
    return sum;
  }
}
