package io.curtail.testcluster;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.datanode.DataNodeSetup;
import io.curtail.datanode.fault.CpuStarvation;
import io.curtail.datanode.fault.DataNodeFaults;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.datanode.fault.Flapping;
import io.curtail.datanode.fault.NetFault;
import io.curtail.datanode.hook.CurtailDataNodePlugin;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.ReconfigurationException;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.security.token.block.BlockKey;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenSecretManager;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real HDFS cluster in this JVM (a {@link MiniDFSCluster}) whose DataNodes can be made slow,
 * throttled, stopped and restarted while it runs, each fault undone by closing what injected it.
 *
 * <p>DataNodes are numbered 0..n-1 for the life of the cluster; a number keeps naming the same
 * DataNode (same port) across a stop and restart. Each has a distinct host name
 * ({@code dn<i>.curtail.test}) so logs and block locations tell them apart. DataNodes run
 * Curtail's plugin, so disk faults can be injected on any of them, except the last few when the
 * cluster is built with {@link Builder#stockDataNodes} to mix in stock ones.
 */
public final class FaultyCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FaultyCluster.class);
  private static final AtomicInteger CLUSTERS = new AtomicInteger();

  private final MiniDFSCluster cluster;
  private final Configuration conf;
  private final int[] ports;

  private FaultyCluster(MiniDFSCluster cluster, Configuration conf) {
    this.cluster = cluster;
    this.conf = conf;
    List<DataNode> dns = cluster.getDataNodes();
    this.ports = new int[dns.size()];
    for (int i = 0; i < ports.length; i++) {
      ports[i] = dns.get(i).getXferPort();
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link FaultyCluster}. */
  public static final class Builder {
    private int dataNodes = 4;
    private int stockDataNodes;
    private long blockSize = 8L * 1024 * 1024;
    private boolean considerLoadSet;
    private File baseDir = new File(System.getProperty("test.build.data", "target/test-data"),
        "cluster-" + System.nanoTime());
    private final Configuration conf = new HdfsConfiguration();

    public Builder dataNodes(int n) {
      this.dataNodes = n;
      return this;
    }

    /** How many of the DataNodes (the last ones) run without Curtail's plugin; 0 by default. */
    public Builder stockDataNodes(int n) {
      this.stockDataNodes = n;
      return this;
    }

    /** Default block size of files the cluster's clients create. */
    public Builder blockSize(long bytes) {
      this.blockSize = bytes;
      return this;
    }

    public Builder baseDir(File dir) {
      this.baseDir = dir;
      return this;
    }

    /** Any other setting for the NameNode, the DataNodes and the clients. */
    public Builder set(String key, String value) {
      conf.set(key, value);
      considerLoadSet |= key.equals(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_KEY);
      return this;
    }

    public FaultyCluster build() throws IOException {
      if (stockDataNodes < 0 || stockDataNodes > dataNodes) {
        throw new IllegalArgumentException(stockDataNodes + " stock DataNodes of " + dataNodes);
      }
      // What this JVM learnt of another cluster's DataNodes (latencies, slow and busy judgements)
      // says nothing of this one's: its Curtail clients share a knowledge scope of their own.
      conf.set("curtail.knowledge.scope", "faulty-cluster-" + CLUSTERS.incrementAndGet());
      DataNodeSetup.withFaultInjection(conf);
      conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, blockSize);
      conf.setInt(DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_KEY, 512);
      conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 512);
      // Quick heartbeats so a stopped DataNode is noticed and a restarted one rejoins in seconds.
      conf.setLong(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
      conf.setInt(DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY, 3000);
      // Two cores run the whole cluster: unless set, spare it the NameNode's placement of
      // replicas by load, which otherwise shuns a DataNode slowed on purpose.
      if (!considerLoadSet) {
        conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_KEY, false);
      }
      String[] hosts = new String[dataNodes];
      for (int i = 0; i < dataNodes; i++) {
        hosts[i] = "dn" + i + ".curtail.test";
      }
      int equipped = dataNodes - stockDataNodes;
      MiniDFSCluster c = new MiniDFSCluster.Builder(conf, baseDir)
          .numDataNodes(equipped)
          .hosts(Arrays.copyOf(hosts, equipped))
          .build();
      if (stockDataNodes > 0) {
        Configuration stock = new Configuration(conf);
        stock.unset(DFSConfigKeys.DFS_DATANODE_PLUGINS_KEY);
        c.startDataNodes(stock, stockDataNodes, true, null, null,
            Arrays.copyOfRange(hosts, equipped, dataNodes), null);
      }
      c.waitActive();
      awaitStorageReports(c);
      return new FaultyCluster(c, conf);
    }
  }

  /**
   * Waits (at most 30 s) until the NameNode knows every DataNode's storage: one registered but not
   * yet heard from with its capacity is never chosen for a pipeline, so a write right after start
   * could get fewer replicas than asked, and a test would see a short pipeline nothing caused.
   */
  private static void awaitStorageReports(MiniDFSCluster c) throws IOException {
    await(Duration.ofSeconds(30), 50, () -> {
      // Asked of the NameNode directly: c.getFileSystem() would put a stock file system in
      // FileSystem's cache, where tests that set fs.hdfs.impl would then find it.
      DatanodeInfo[] live =
          c.getNameNodeRpc().getDatanodeReport(HdfsConstants.DatanodeReportType.LIVE);
      return live.length == c.getDataNodes().size()
          && Arrays.stream(live).allMatch(d -> d.getRemaining() > 0)
          ? null : "DataNodes without a storage report: " + Arrays.toString(live);
    });
  }

  /** The cluster's {@code hdfs://} address. */
  public URI uri() {
    return cluster.getURI();
  }

  /** A copy of the configuration the cluster runs with, for clients to start from. */
  public Configuration conf() {
    return new Configuration(conf);
  }

  /** A new stock {@link DistributedFileSystem}; the caller closes it. */
  public DistributedFileSystem stockFileSystem() throws IOException {
    Configuration c = conf();
    c.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
    return (DistributedFileSystem) FileSystem.newInstance(uri(), c);
  }

  /**
   * A new {@link CurtailDistributedFileSystem} with {@code settings} on top of the cluster's
   * configuration, enabled the way users enable it ({@code fs.hdfs.impl}); the caller closes it.
   */
  public CurtailDistributedFileSystem curtailFileSystem(Map<String, String> settings)
      throws IOException {
    Configuration c = conf();
    c.set("fs.hdfs.impl", CurtailDistributedFileSystem.class.getName());
    settings.forEach(c::set);
    return (CurtailDistributedFileSystem) FileSystem.newInstance(uri(), c);
  }

  /**
   * Blocks this cluster's NameNode has handed out so far, given back ones included: the last
   * block ID it allocated (IDs are sequential). Its {@code AddBlockOps} metric would say the
   * same, but is registered once per JVM and can belong to an earlier cluster.
   */
  public long blocksAllocated() {
    return cluster.getNamesystem().getBlockManager().getBlockIdManager()
        .getLastAllocatedContiguousBlockId();
  }

  public int dataNodeCount() {
    return ports.length;
  }

  /** DataNode {@code i} as it runs now. */
  public DataNode dataNode(int i) {
    return cluster.getDataNodes().get(listIndex(i));
  }

  /** Where DataNode {@code i} stands now in MiniDFSCluster's own list, which shifts on restarts. */
  private int listIndex(int i) {
    List<DataNode> dns = cluster.getDataNodes();
    for (int k = 0; k < dns.size(); k++) {
      if (dns.get(k).getXferPort() == ports[i]) {
        return k;
      }
    }
    throw new IllegalStateException("DataNode " + i + " (port " + ports[i] + ") is not running");
  }

  /** Damages the first bytes of DataNode {@code i}'s replica of {@code block}, as a bad disk would. */
  public void corruptReplica(int i, ExtendedBlock block) throws IOException {
    cluster.getMaterializedReplica(listIndex(i), block).corruptData();
    LOG.info("Corrupted replica datanode={} block={}", i, block);
  }

  /** Replicas of {@code block} the NameNode knows to be corrupt (reported by a client or scanner). */
  public int corruptReplicas(ExtendedBlock block) {
    return cluster.getNamesystem().getBlockManager().numCorruptReplicas(block.getLocalBlock());
  }

  /** DataNode {@code i}'s transfer address, as clients and block locations name it. */
  public InetSocketAddress address(int i) {
    return new InetSocketAddress("127.0.0.1", ports[i]);
  }

  /** Which DataNode number has transfer port {@code port}, or -1. */
  public int indexOfPort(int port) {
    for (int i = 0; i < ports.length; i++) {
      if (ports[i] == port) {
        return i;
      }
    }
    return -1;
  }

  /** The injected-fault controls of DataNode {@code i} (counters of delayed packets included). */
  public DataNodeFaults faults(int i) {
    return CurtailDataNodePlugin.faultsOf(dataNode(i));
  }

  /**
   * Throttles DataNode {@code i}'s serving of block reads to {@code bytesPerSecond} in all, with
   * HDFS's own {@code dfs.datanode.data.read.bandwidthPerSec}, reconfigured while it runs.
   */
  public Fault throttleReads(int i, long bytesPerSecond) {
    return reconfigure(i, DFSConfigKeys.DFS_DATANODE_DATA_READ_BANDWIDTHPERSEC_KEY, bytesPerSecond);
  }

  /** Throttles DataNode {@code i}'s receiving of block writes, as {@link #throttleReads} does. */
  public Fault throttleWrites(int i, long bytesPerSecond) {
    return reconfigure(i, DFSConfigKeys.DFS_DATANODE_DATA_WRITE_BANDWIDTHPERSEC_KEY, bytesPerSecond);
  }

  private Fault reconfigure(int i, String key, long bytesPerSecond) {
    if (bytesPerSecond <= 0) {
      throw new IllegalArgumentException("a throttle needs bytesPerSecond > 0, was "
          + bytesPerSecond);
    }
    setProperty(i, key, Long.toString(bytesPerSecond));
    LOG.info("Throttled datanode={} key={} bytesPerSecond={}", i, key, bytesPerSecond);
    return () -> setProperty(i, key, "0");
  }

  private void setProperty(int i, String key, String value) {
    try {
      dataNode(i).reconfigureProperty(key, value);
    } catch (ReconfigurationException e) {
      throw new IllegalStateException("DataNode " + i + " refused " + key + "=" + value, e);
    }
  }

  /**
   * Takes Curtail's plugin out of every DataNode's data path (they run as stock) until the result
   * is closed: for measuring what the plugin costs on the same DataNodes.
   */
  public Fault withoutPlugin() {
    List<AutoCloseable> resume = new ArrayList<>();
    for (int i = 0; i < ports.length; i++) {
      try {
        resume.add(CurtailDataNodePlugin.suspend(dataNode(i)));
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

  /** Makes DataNode {@code i}'s disk slow; see {@link DiskFault}. */
  public Fault slowDisk(int i, DiskFault fault) {
    DataNodeFaults f = faults(i);
    f.slowDisk(fault);
    return f::heal;
  }

  /**
   * Makes DataNode {@code i}'s NIC slow: everything it sends (packets it forwards down a pipeline,
   * packets to readers) crosses one FIFO link of {@code bytesPerSecond}; see {@link NetFault}.
   */
  public Fault slowNic(int i, long bytesPerSecond) {
    return slowNet(i, NetFault.nic(bytesPerSecond));
  }

  /**
   * Makes the link from DataNode {@code from} to DataNode {@code to} slow, in that direction
   * only: packets {@code from} forwards to {@code to} cross a FIFO link of {@code bytesPerSecond};
   * its forwarding to others, and {@code to}'s to it, are untouched.
   */
  public Fault slowLink(int from, int to, long bytesPerSecond) {
    return slowNet(from, NetFault.link(peer(to), bytesPerSecond));
  }

  /** Injects {@code fault} on DataNode {@code i}'s network; see {@link NetFault}. */
  public Fault slowNet(int i, NetFault fault) {
    DataNodeFaults f = faults(i);
    f.slowNet(fault);
    return f::heal;
  }

  /** DataNode {@code i}'s transfer address as another DataNode names it forwarding to it. */
  public String peer(int i) {
    return "127.0.0.1:" + ports[i];
  }

  /**
   * Starves DataNode {@code i}'s CPU: each step of its packet handling (receive, ack, send) waits
   * {@code mean × (1 ± jitter)}; see {@link CpuStarvation} for what that leaves out.
   */
  public Fault starveCpu(int i, Duration mean, double jitter) {
    DataNodeFaults f = faults(i);
    f.starveCpu(CpuStarvation.of(mean, jitter));
    return f::heal;
  }

  /**
   * Makes DataNode {@code i}'s faults, injected before or after, flap: act for {@code slow},
   * rest for {@code healthy}, again, from now. Closing it heals DataNode {@code i} entirely.
   */
  public Fault flap(int i, Duration slow, Duration healthy) {
    DataNodeFaults f = faults(i);
    f.flap(Flapping.of(slow, healthy));
    return f::heal;
  }

  /**
   * Makes DataNode {@code i}'s disk slow for short-circuit reads, stock's and Curtail's alike:
   * every read of its block files queues (FIFO) and takes {@code perReadMs}; see
   * {@link SlowLocalDisk}. Reads over TCP are not touched ({@link #slowDisk} slows those).
   */
  public Fault slowLocalDisk(int i, long perReadMs) {
    return SlowLocalDisk.on(ports[i], perReadMs);
  }

  /**
   * Bytes the DataNodes served to readers over TCP so far, summed: their own {@code BytesRead}
   * metric, which short-circuit reads, bypassing them, leave alone.
   */
  public long bytesServed() {
    return dataNodeMetric("BytesRead");
  }

  /** The DataNodes' metric {@code name} (a counter, such as {@code FsyncCount}), summed. */
  public long dataNodeMetric(String name) {
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

  /** Short-circuit reads of DataNode {@code i}'s files slowed so far by {@link #slowLocalDisk}. */
  public long slowedLocalReads(int i) {
    return SlowLocalDisk.slowedReads(ports[i]);
  }

  /** Stops DataNode {@code i} as a crash would; closing the fault restarts it on the same port. */
  public Fault stop(int i) {
    MiniDFSCluster.DataNodeProperties props =
        cluster.stopDataNode(dataNode(i).getDatanodeId().getXferAddr());
    LOG.info("Stopped datanode={}", i);
    return () -> {
      try {
        cluster.restartDataNode(props, true);
        cluster.waitActive();
        LOG.info("Restarted datanode={}", i);
      } catch (IOException e) {
        throw new UncheckedIOException("restarting DataNode " + i, e);
      }
    };
  }

  /**
   * Stops DataNode {@code i} as {@link #stop} does and tells the NameNode at once, as missed
   * heartbeats would after about 16 s: the NameNode then offers it to no pipeline.
   */
  public Fault stopKnownDead(int i) throws IOException {
    DatanodeID id = dataNode(i).getDatanodeId();
    Fault restart = stop(i);
    cluster.setDataNodeDead(id);
    return restart;
  }

  /**
   * Makes DataNode {@code i}'s disk full: every packet it is sent fails to be written ("No space
   * left on device"), as the DataNode would meet it; closing the fault frees the disk.
   */
  public Fault fillDisk(int i) {
    DataNodeFaults f = faults(i);
    f.fill();
    return f::heal;
  }

  /**
   * Restarts DataNode {@code i} as an operator's rolling upgrade does ({@code dfsadmin
   * -shutdownDatanode … upgrade}): it tells the clients writing to it that it is restarting (an
   * out-of-band ack), shuts down, and comes back on the same ports at once.
   */
  public void restartForUpgrade(int i) throws IOException {
    DataNode dn = dataNode(i);
    dn.shutdownDatanode(true);
    await(Duration.ofSeconds(30), 20, () -> Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("Async datanode shutdown thread"))
        ? "DataNode " + i + " did not shut down" : null);
    cluster.restartDataNode(listIndex(i), true);
    cluster.waitActive();
    LOG.info("Restarted for upgrade datanode={}", i);
  }

  /** Restarts the NameNode on its ports and waits until it is out of safe mode. */
  public void restartNameNode() throws IOException {
    cluster.restartNameNode(true);
    LOG.info("Restarted the NameNode");
  }

  /**
   * Makes the block tokens the NameNode issues from now on expire after {@code lifetimeMs};
   * the cluster must have been built with {@code dfs.block.access.token.enable=true}.
   */
  public void blockTokenLifetime(long lifetimeMs) {
    cluster.getNamesystem().getBlockManager().getBlockTokenSecretManager()
        .setTokenLifetime(lifetimeMs);
  }

  /**
   * Makes the NameNode roll its block keys and every DataNode forget the key that was current
   * until now: what a long-lived client meets once the key its data encryption key was made from
   * expired, without waiting hours for it to. The cluster must have been built with
   * {@code dfs.block.access.token.enable=true}.
   */
  public void rollBlockKeysForgettingCurrent() throws IOException {
    BlockTokenSecretManager nn =
        cluster.getNamesystem().getBlockManager().getBlockTokenSecretManager();
    int old = nn.getCurrentKey().getKeyId();
    nn.updateKeys(Long.MAX_VALUE); // any time past the update interval rolls them now
    ExportedBlockKeys all = nn.exportKeys();
    List<BlockKey> kept = new ArrayList<>();
    for (BlockKey k : all.getAllKeys()) {
      if (k.getKeyId() != old) {
        kept.add(k);
      }
    }
    ExportedBlockKeys withoutOld = new ExportedBlockKeys(true, all.getKeyUpdateInterval(),
        all.getTokenLifetime(), all.getCurrentKey(), kept.toArray(new BlockKey[0]));
    String pool = cluster.getNamesystem().getBlockPoolId();
    for (DataNode dn : cluster.getDataNodes()) {
      dn.getBlockPoolTokenSecretManager().get(pool).clearAllKeysForTesting();
      dn.getBlockPoolTokenSecretManager().addKeys(pool, withoutOld);
    }
    LOG.info("Rolled the block keys; the DataNodes forgot key {}", old);
  }

  /**
   * Waits until the NameNode lists {@code replicas} replicas of every block of {@code path}: after
   * a file is closed, the replicas beyond the first arrive with the DataNodes' next block reports.
   */
  public void awaitReplicas(FileSystem fs, Path path, int replicas) throws IOException {
    awaitReplication(fs, path, replicas);
  }

  /**
   * {@link #awaitReplicas} on any cluster, this class's or not (one of separate processes, say):
   * at most 30 s.
   */
  public static void awaitReplication(FileSystem fs, Path path, int replicas) throws IOException {
    awaitReplication(fs, path, replicas, Duration.ofSeconds(30));
  }

  /** {@link #awaitReplication(FileSystem, Path, int)}, at most {@code patience}. */
  public static void awaitReplication(FileSystem fs, Path path, int replicas, Duration patience)
      throws IOException {
    await(patience, 50, () -> {
      List<Integer> counts = new ArrayList<>();
      for (BlockLocation b : fs.getFileBlockLocations(path, 0, fs.getFileStatus(path).getLen())) {
        counts.add(b.getNames().length);
      }
      return counts.stream().allMatch(n -> n >= replicas)
          ? null : path + " has not reached " + replicas + " replicas: " + counts + " per block";
    });
  }

  /** What a wait is still missing, or null once it has it. */
  private interface Unmet {
    String check() throws IOException;
  }

  /**
   * Looks every {@code everyMs} until {@code unmet} says nothing is missing; after
   * {@code patience}, fails saying what still is.
   */
  private static void await(Duration patience, long everyMs, Unmet unmet) throws IOException {
    long deadline = System.nanoTime() + patience.toNanos();
    for (String missing = unmet.check(); missing != null; missing = unmet.check()) {
      if (System.nanoTime() > deadline) {
        throw new IOException(missing + " after " + patience.toSeconds() + " s");
      }
      sleep(everyMs);
    }
  }

  private static void sleep(long ms) throws java.io.InterruptedIOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted");
    }
  }

  /**
   * What the NameNode's slow-node tracking holds now: its slow peers and slow disks reports (JSON,
   * as its JMX shows them; empty when that tracking is off or has nothing).
   */
  public String slowNodeReports() {
    DatanodeManager dm = cluster.getNamesystem().getBlockManager().getDatanodeManager();
    String peers = dm.getSlowPeersReport();
    String disks = dm.getSlowDisksReport();
    return "slowPeers=" + (peers == null ? "" : peers) + " slowDisks="
        + (disks == null ? "" : disks);
  }

  /** The DataNode numbers holding a replica of each block of {@code path}, block by block. */
  public List<List<Integer>> replicas(FileSystem fs, Path path) throws IOException {
    List<List<Integer>> out = new ArrayList<>();
    for (BlockLocation b : fs.getFileBlockLocations(path, 0, fs.getFileStatus(path).getLen())) {
      List<Integer> nodes = new ArrayList<>();
      for (String name : b.getNames()) {
        nodes.add(indexOfPort(Integer.parseInt(name.substring(name.lastIndexOf(':') + 1))));
      }
      out.add(nodes);
    }
    return out;
  }

  @Override
  public void close() {
    cluster.shutdown(true);
  }
}
