package io.curtail.bench;

import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;

/** The cluster a run works against: an embedded fault-injecting one, or a real one. */
abstract class Target implements AutoCloseable {
  abstract URI uri();

  /** A fresh configuration for a client of this cluster. */
  abstract Configuration conf();

  /** Whether this target injects scenarios' faults (and so whether {@code oracle} means anything). */
  abstract boolean injectsFaults();

  abstract Fault inject(Scenario s);

  /**
   * The pipeline for a writer's {@code k}-th file in scenario {@code s}: the faulty DataNode
   * second of three, among healthy ones in turn, if {@code s} places it so; else null.
   */
  abstract InetSocketAddress[] pipeline(Scenario s, int k);

  /** Runs the DataNodes without Curtail's plugin until closed. */
  abstract Fault withoutPlugin();

  abstract String describe();

  @Override
  public abstract void close();

  /** A MiniDFSCluster in this JVM whose DataNodes run Curtail's fault-injecting plugin. */
  static final class Embedded extends Target {
    private final FaultyCluster cluster;

    Embedded(java.io.File baseDir) throws IOException {
      this.cluster = FaultyCluster.builder()
          .dataNodes(Scenario.DATANODES)
          .blockSize(16L * 1024 * 1024)
          .baseDir(baseDir)
          .build();
    }

    @Override
    URI uri() {
      return cluster.uri();
    }

    @Override
    Configuration conf() {
      return cluster.conf();
    }

    @Override
    boolean injectsFaults() {
      return true;
    }

    @Override
    Fault inject(Scenario s) {
      return s.inject(cluster);
    }

    @Override
    InetSocketAddress[] pipeline(Scenario s, int k) {
      if (!s.faultyInTheMiddle()) {
        return null;
      }
      int healthy = Scenario.DATANODES - 1;
      int first = 1 + k % healthy;
      int third = 1 + (k + 1) % healthy;
      return new InetSocketAddress[] {cluster.address(first), cluster.address(Scenario.FAULTY),
          cluster.address(third)};
    }

    @Override
    Fault withoutPlugin() {
      return cluster.withoutPlugin();
    }

    @Override
    String describe() {
      return "embedded MiniDFSCluster, " + Scenario.DATANODES + " DataNodes, faults on dn"
          + Scenario.FAULTY;
    }

    @Override
    public void close() {
      cluster.close();
    }
  }

  /** A running cluster: faults are whatever it has (the plugin's JMX or keys inject them). */
  static final class Remote extends Target {
    private final URI uri;

    Remote(URI uri) {
      this.uri = uri;
    }

    @Override
    URI uri() {
      return uri;
    }

    @Override
    Configuration conf() {
      return new HdfsConfiguration();
    }

    @Override
    boolean injectsFaults() {
      return false;
    }

    @Override
    Fault inject(Scenario s) {
      return () -> { };
    }

    @Override
    InetSocketAddress[] pipeline(Scenario s, int k) {
      if (s.faultyInTheMiddle()) {
        throw new IllegalArgumentException("scenario " + s + " places pipelines on the embedded"
            + " cluster's DataNodes; it cannot run against " + uri);
      }
      return null;
    }

    @Override
    Fault withoutPlugin() {
      throw new IllegalStateException("the benchmark does not control " + uri + "'s DataNodes");
    }

    @Override
    String describe() {
      return uri + " (faults not injected by the benchmark)";
    }

    @Override
    public void close() {}
  }
}
