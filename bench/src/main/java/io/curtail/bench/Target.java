package io.curtail.bench;

import io.curtail.bench.blame.BlameRecords;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.LocalKeyStore;
import io.curtail.tools.blame.Incident;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.net.NetUtils;

/**
 * What a run works against: embedded fault-injecting clusters, or a real one. A mode whose
 * {@link Mode#clusterSettings()} are not the default runs on a cluster of its own where the
 * target can start one ({@code stock-best}'s NameNode and DataNode features).
 */
abstract class Target implements AutoCloseable {
  /** One cluster of the target: where a mode's batches read and write. */
  interface Cluster {
    URI uri();

    /** A fresh configuration for a client of this cluster. */
    Configuration conf();

    Fault inject(Scenario s);

    /**
     * The pipeline for a writer's {@code k}-th file in scenario {@code s}: the faulty DataNode
     * second of three, among healthy ones in turn, if {@code s} places it so; else null.
     */
    InetSocketAddress[] pipeline(Scenario s, int k);

    /** Runs the DataNodes without Curtail's plugin until closed. */
    Fault withoutPlugin();

    /** What the NameNode's own slow-node tracking says now, or null if it cannot be seen. */
    String slowNodeReports();

    /** Bytes the DataNodes served over TCP so far (their BytesRead), or -1 if unseen. */
    default long bytesServed() {
      return -1;
    }

    /**
     * Every fault injected on this cluster so far, with its DataNodes and when (the ground truth
     * the blame tables label decisions against); empty where the benchmark does not know.
     */
    default List<Incident> incidents() {
      return Collections.emptyList();
    }
  }

  /** The cluster {@code mode} runs on, started if it is not yet. */
  abstract Cluster cluster(Mode mode) throws IOException;

  /** Whether this target injects scenarios' faults (and so whether {@code oracle} means anything). */
  abstract boolean injectsFaults();

  abstract String describe();

  /** The fault {@code s} runs under on this target, as the report tells it. */
  String faultOf(Scenario s) {
    return s.faultDescription();
  }

  @Override
  public abstract void close();

  /**
   * MiniDFSClusters in this JVM whose DataNodes run Curtail's fault-injecting plugin: one with
   * the default settings, and one more for each other set of cluster settings a mode asks for.
   */
  static final class Embedded extends Target {
    private final File baseDir;
    private final Map<Map<String, String>, EmbeddedCluster> clusters = new LinkedHashMap<>();
    /** The key provider of every cluster started, holding the encrypted scenarios' key. */
    private final LocalKeyStore keys;

    /**
     * Deletes the clusters' directory and the key store if the run is cut short (Ctrl-C): a
     * cluster's data is hundreds of MiB of temporary files.
     */
    private final Thread cleanUp;

    /** Starts the default cluster, in a new temporary directory that {@link #close} deletes. */
    Embedded() throws IOException {
      this.baseDir = Files.createTempDirectory("curtail-bench-cluster").toFile();
      this.keys = LocalKeyStore.withKeys(Workload.ENCRYPTION_KEY);
      this.cleanUp = new Thread(this::deleteFiles, "curtail-bench-clean-up");
      Runtime.getRuntime().addShutdownHook(cleanUp);
      cluster(Mode.STOCK); // the default one, started now so that a broken setup fails first
    }

    @Override
    synchronized Cluster cluster(Mode mode) throws IOException {
      EmbeddedCluster c = clusters.get(mode.clusterSettings());
      if (c == null) {
        FaultyCluster.Builder b = FaultyCluster.builder()
            .dataNodes(Scenario.DATANODES)
            .blockSize(16L * 1024 * 1024)
            .baseDir(new File(baseDir, "cluster-" + clusters.size()))
            .set(LocalKeyStore.PROVIDER_PATH, keys.uri())
            // Lets this user's clients read block files (legacy short-circuit reads), which
            // only the scenarios that turn short-circuit on in their clients do.
            .set("dfs.block.local-path-access.user", currentUser());
        mode.clusterSettings().forEach(b::set);
        c = new EmbeddedCluster(b.build());
        clusters.put(mode.clusterSettings(), c);
      }
      return c;
    }

    private static String currentUser() throws IOException {
      return org.apache.hadoop.security.UserGroupInformation.getCurrentUser().getShortUserName();
    }

    @Override
    boolean injectsFaults() {
      return true;
    }

    @Override
    String describe() {
      return "embedded MiniDFSCluster, " + Scenario.DATANODES + " DataNodes, faults on dn"
          + Scenario.FAULTY;
    }

    @Override
    public synchronized void close() {
      clusters.values().forEach(c -> c.cluster.close());
      clusters.clear();
      deleteFiles();
      try {
        Runtime.getRuntime().removeShutdownHook(cleanUp);
      } catch (IllegalStateException shuttingDown) {
        // closed by a shutdown hook of the application's: the clean-up runs or has run
      }
    }

    private void deleteFiles() {
      FileUtil.fullyDelete(baseDir);
      keys.close();
    }
  }

  private static final class EmbeddedCluster implements Cluster {
    private final FaultyCluster cluster;

    EmbeddedCluster(FaultyCluster cluster) {
      this.cluster = cluster;
    }

    @Override
    public URI uri() {
      return cluster.uri();
    }

    @Override
    public Configuration conf() {
      return cluster.conf();
    }

    @Override
    public Fault inject(Scenario s) {
      return s.inject(cluster);
    }

    @Override
    public long bytesServed() {
      return cluster.bytesServed();
    }

    @Override
    public List<Incident> incidents() {
      return BlameRecords.incidents(cluster);
    }

    @Override
    public InetSocketAddress[] pipeline(Scenario s, int k) {
      int[] order = s.pipeline(k);
      if (order == null) {
        return null;
      }
      InetSocketAddress[] pipeline = new InetSocketAddress[order.length];
      for (int i = 0; i < order.length; i++) {
        pipeline[i] = cluster.address(order[i]);
      }
      return pipeline;
    }

    @Override
    public Fault withoutPlugin() {
      return cluster.withoutPlugin();
    }

    @Override
    public String slowNodeReports() {
      return cluster.slowNodeReports();
    }
  }

  /**
   * Shell commands that inject a scenario's fault into a running cluster and lift it again: the
   * operator's own (a launcher's {@code shape}, a chaos tool, {@code hdfs dfsadmin -reconfig}).
   */
  static final class FaultCommands {
    final String on;
    final String off;

    FaultCommands(String on, String off) {
      this.on = on;
      this.off = off;
    }

    /** Runs {@code command} for scenario {@code s}; fails naming it unless it exits 0. */
    static void run(String command, Scenario s) {
      ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true);
      pb.environment().put("CURTAIL_SCENARIO", s.toString());
      try {
        Process p = pb.start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
          throw new IllegalStateException("fault command '" + command + "' for " + s
              + " exited " + p.exitValue() + ": " + printed.trim());
        }
      } catch (IOException e) {
        throw new UncheckedIOException("running fault command '" + command + "'", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted running '" + command + "'", e);
      }
    }
  }

  /**
   * A running cluster: faults are whatever it has (the plugin's JMX or keys inject them), or what
   * the operator's {@link FaultCommands} inject for each faulty scenario, in which case
   * {@code oracle} is the same cluster without them. Every mode runs on it, {@code stock-best}
   * with only its client settings.
   *
   * <p>Given its DataNodes' transfer addresses in the benchmark's numbering (dn0 the one the
   * fault commands slow, dn1 the far end of a slow link), it places the pipelines of scenarios
   * that place them, and labels decisions against each scenario's faulty DataNodes while its
   * fault command held (a slow link's two ends, else dn0 both ways, as {@code tc} shapes a link).
   */
  static final class Remote extends Target implements Cluster {
    private final URI uri;
    private final FaultCommands faults;
    /** The DataNodes' transfer addresses, dn0 first; null if not given. */
    private final List<String> dataNodes;
    private final List<Incident> incidents = Collections.synchronizedList(new ArrayList<>());
    /** A stock client asking the NameNode for its slow nodes; made at the first look. */
    private FileSystem reports;

    Remote(URI uri, FaultCommands faults, List<String> dataNodes) {
      this.uri = uri;
      this.faults = faults;
      this.dataNodes = dataNodes;
    }

    @Override
    Cluster cluster(Mode mode) {
      return this;
    }

    @Override
    public URI uri() {
      return uri;
    }

    @Override
    public Configuration conf() {
      return new HdfsConfiguration();
    }

    @Override
    boolean injectsFaults() {
      return faults != null;
    }

    @Override
    public Fault inject(Scenario s) {
      if (faults == null || !s.hasFault()) {
        return () -> { };
      }
      FaultCommands.run(faults.on, s);
      long from = System.currentTimeMillis();
      return () -> {
        FaultCommands.run(faults.off, s);
        if (dataNodes != null) {
          List<String> ends = new ArrayList<>();
          for (int i : s.faultyDataNodes()) {
            ends.add(dataNodes.get(i));
          }
          incidents.add(new Incident(ends, from, System.currentTimeMillis()));
        }
      };
    }

    @Override
    public List<Incident> incidents() {
      synchronized (incidents) {
        return new ArrayList<>(incidents);
      }
    }

    @Override
    public InetSocketAddress[] pipeline(Scenario s, int k) {
      if (!s.placesPipelines()) {
        return null;
      }
      if (dataNodes == null) {
        throw new IllegalArgumentException("scenario " + s + " places its pipelines: against "
            + uri + " it needs the DataNodes' transfer addresses (--datanodes)");
      }
      int[] order = s.pipeline(k, dataNodes.size());
      InetSocketAddress[] pipeline = new InetSocketAddress[order.length];
      for (int i = 0; i < order.length; i++) {
        pipeline[i] = named(dataNodes.get(order[i]));
      }
      return pipeline;
    }

    /**
     * {@code hostPort} as an address that keeps the name it was given. A create with favored
     * nodes (stock's and Curtail's alike) asks each one its host name, which for a bare IP
     * address is a reverse DNS look-up: on the multi-process cluster's private addresses, with
     * no server answering for them, every client of a batch stalled 5 s in it now and then.
     */
    private static InetSocketAddress named(String hostPort) {
      InetSocketAddress a = NetUtils.createSocketAddr(hostPort);
      if (a.isUnresolved()) {
        return a;
      }
      try {
        return new InetSocketAddress(
            InetAddress.getByAddress(a.getHostString(), a.getAddress().getAddress()), a.getPort());
      } catch (UnknownHostException e) { // only for a length no resolved address has
        throw new IllegalStateException("not an IP address: " + hostPort, e);
      }
    }

    @Override
    public Fault withoutPlugin() {
      throw new IllegalStateException("the benchmark does not control " + uri + "'s DataNodes");
    }

    /**
     * The DataNodes the NameNode names slow ({@code dfsadmin -report -slownodes}: its slow-peer
     * tracker, a reported peer taken to the DataNode of its IP address); null where it cannot
     * say (a NameNode older than 3.4, or a file system other than HDFS).
     */
    @Override
    public synchronized String slowNodeReports() {
      try {
        if (reports == null) {
          reports = FileSystem.newInstance(uri, conf());
        }
        if (!(reports instanceof DistributedFileSystem)) {
          return null;
        }
        List<String> slow = new ArrayList<>();
        for (DatanodeInfo d : ((DistributedFileSystem) reports).getSlowDatanodeStats()) {
          slow.add(d.getXferAddr());
        }
        return "slowPeers=" + (slow.isEmpty() ? "" : slow.toString());
      } catch (IOException e) {
        return null; // RemoteException too: a NameNode without the call
      }
    }

    @Override
    String faultOf(Scenario s) {
      return !s.hasFault() ? s.faultDescription() : faults == null
          ? "the cluster's own" : "'" + faults.on + "' with CURTAIL_SCENARIO=" + s.name();
    }

    @Override
    String describe() {
      return uri + (faults == null ? " (faults not injected by the benchmark" : " (faults by '"
          + faults.on + "', lifted by '" + faults.off + "'") + "; stock-best's cluster settings"
          + " are whatever it runs with)";
    }

    @Override
    public synchronized void close() {
      try {
        if (reports != null) {
          reports.close();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
