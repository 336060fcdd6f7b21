package io.curtail.testcluster;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.datanode.fault.CpuStarvation;
import io.curtail.datanode.fault.DataNodeFaults;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.datanode.fault.Flapping;
import io.curtail.datanode.fault.NetFault;
import io.curtail.datanode.hook.CurtailDataNodePlugin;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
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

  private final MiniDFSCluster cluster;
  private final Configuration conf;
  private final DataNodes dataNodes;
  private final InjectedFaults injected = new InjectedFaults();

  private FaultyCluster(MiniDFSCluster cluster, Configuration conf) {
    this.cluster = cluster;
    this.conf = conf;
    this.dataNodes = new DataNodes(cluster);
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
      return new FaultyCluster(MiniClusterStart.start(conf, baseDir, dataNodes, stockDataNodes,
          blockSize, considerLoadSet), conf);
    }
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
   * {@link #curtailFileSystem(Map)} with knowledge of its own ({@code scope}, so nothing another
   * test taught the JVM's shared knowledge carries over) and {@code settings} as key, value pairs.
   */
  public CurtailDistributedFileSystem curtailFileSystem(String scope, String... settings)
      throws IOException {
    if (settings.length % 2 != 0) {
      throw new IllegalArgumentException("settings come in key, value pairs: "
          + Arrays.toString(settings));
    }
    Map<String, String> m = new HashMap<>();
    m.put("curtail.knowledge.scope", scope);
    for (int i = 0; i < settings.length; i += 2) {
      m.put(settings[i], settings[i + 1]);
    }
    return curtailFileSystem(m);
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
    return dataNodes.count();
  }

  /** DataNode {@code i} as it runs now. */
  public DataNode dataNode(int i) {
    return dataNodes.get(i);
  }

  /** Damages the first bytes of DataNode {@code i}'s replica of {@code block}, as a bad disk would. */
  public void corruptReplica(int i, ExtendedBlock block) throws IOException {
    cluster.getMaterializedReplica(dataNodes.listIndex(i), block).corruptData();
    LOG.info("Corrupted replica datanode={} block={}", i, block);
  }

  /** Replicas of {@code block} the NameNode knows to be corrupt (reported by a client or scanner). */
  public int corruptReplicas(ExtendedBlock block) {
    return cluster.getNamesystem().getBlockManager().numCorruptReplicas(block.getLocalBlock());
  }

  /** DataNode {@code i}'s transfer address, as clients and block locations name it. */
  public InetSocketAddress address(int i) {
    return dataNodes.address(i);
  }

  /** Which DataNode number has transfer port {@code port}, or -1. */
  public int indexOfPort(int port) {
    return dataNodes.indexOfPort(port);
  }

  /**
   * Every fault injected through this cluster's fault methods so far, with its DataNodes and when:
   * the ground truth for labelling what a client decided.
   */
  public List<InjectedFaults.Entry> injected() {
    return injected.all();
  }

  /**
   * {@code undo} as a fault noted in {@link #injected} against DataNodes {@code is} (one, or a
   * link's two ends): every fault method returns its undo through here, so that a benchmark
   * labels any scenario's decisions from what it injects.
   */
  private Fault noted(Fault undo, int... is) {
    return noted(undo, false, is);
  }

  /** {@link #noted(Fault, int...)}, saying whether the fault slows only what it sends. */
  private Fault noted(Fault undo, boolean sendsOnly, int... is) {
    String[] addresses = new String[is.length];
    for (int k = 0; k < is.length; k++) {
      addresses[k] = dataNodes.name(is[k]);
    }
    return injected.on(undo, sendsOnly, addresses);
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
    dataNodes.reconfigure(i, key, Long.toString(bytesPerSecond));
    LOG.info("Throttled datanode={} key={} bytesPerSecond={}", i, key, bytesPerSecond);
    return noted(() -> dataNodes.reconfigure(i, key, "0"), i);
  }

  /**
   * Takes Curtail's plugin out of every DataNode's data path (they run as stock) until the result
   * is closed: for measuring what the plugin costs on the same DataNodes.
   */
  public Fault withoutPlugin() {
    return dataNodes.withoutPlugin();
  }

  /** Makes DataNode {@code i}'s disk slow; see {@link DiskFault}. */
  public Fault slowDisk(int i, DiskFault fault) {
    return inject(i, f -> f.slowDisk(fault));
  }

  /** Injects a fault with {@code how} on DataNode {@code i}; closing the result heals it. */
  private Fault inject(int i, Consumer<DataNodeFaults> how) {
    DataNodeFaults f = faults(i);
    how.accept(f);
    return noted(f::heal, i);
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
    if (fault.peer() == null) { // a NIC: slow sending, forwarding and serving reads
      DataNodeFaults f = faults(i);
      f.slowNet(fault);
      return noted(f::heal, true, i);
    }
    DataNodeFaults f = faults(i);
    f.slowNet(fault);
    // A link is noted on both its ends: taking out either is right.
    String peer = fault.peer();
    int peerPort = Integer.parseInt(peer.substring(peer.lastIndexOf(':') + 1));
    return noted(f::heal, i, indexOfPort(peerPort));
  }

  /** DataNode {@code i}'s transfer address as another DataNode names it forwarding to it. */
  public String peer(int i) {
    return dataNodes.name(i);
  }

  /**
   * Starves DataNode {@code i}'s CPU: each step of its packet handling (receive, ack, send) waits
   * {@code mean × (1 ± jitter)}; see {@link CpuStarvation} for what that leaves out.
   */
  public Fault starveCpu(int i, Duration mean, double jitter) {
    return inject(i, f -> f.starveCpu(CpuStarvation.of(mean, jitter)));
  }

  /**
   * Makes DataNode {@code i}'s faults, injected before or after, flap: act for {@code slow},
   * rest for {@code healthy}, again, from now. Closing it heals DataNode {@code i} entirely.
   */
  public Fault flap(int i, Duration slow, Duration healthy) {
    DataNodeFaults f = faults(i);
    f.flap(Flapping.of(slow, healthy));
    return injected.flapping(f::heal, slow.toMillis(), healthy.toMillis(), dataNodes.name(i));
  }

  /**
   * Makes DataNode {@code i}'s disk slow for short-circuit reads, stock's and Curtail's alike:
   * every read of its block files queues (FIFO) and takes {@code perReadMs}; see
   * {@link SlowLocalDisk}. Reads over TCP are not touched ({@link #slowDisk} slows those).
   */
  public Fault slowLocalDisk(int i, long perReadMs) {
    return noted(SlowLocalDisk.on(dataNodes.port(i), perReadMs), i);
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
    return dataNodes.metric(name);
  }

  /** Short-circuit reads of DataNode {@code i}'s files slowed so far by {@link #slowLocalDisk}. */
  public long slowedLocalReads(int i) {
    return SlowLocalDisk.slowedReads(dataNodes.port(i));
  }

  /** Stops DataNode {@code i} as a crash would; closing the fault restarts it on the same port. */
  public Fault stop(int i) {
    return noted(dataNodes.stop(i), i);
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
    return inject(i, DataNodeFaults::fill);
  }

  /**
   * Restarts DataNode {@code i} as an operator's rolling upgrade does ({@code dfsadmin
   * -shutdownDatanode … upgrade}): it tells the clients writing to it that it is restarting (an
   * out-of-band ack), shuts down, and comes back on the same ports at once.
   */
  public void restartForUpgrade(int i) throws IOException {
    dataNodes.restartForUpgrade(i);
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
    BlockKeys.tokenLifetime(cluster, lifetimeMs);
  }

  /**
   * Makes the NameNode roll its block keys and every DataNode forget the key that was current
   * until now: what a long-lived client meets once the key its data encryption key was made from
   * expired, without waiting hours for it to. The cluster must have been built with
   * {@code dfs.block.access.token.enable=true}.
   */
  public void rollBlockKeysForgettingCurrent() throws IOException {
    int old = BlockKeys.rollForgettingCurrent(cluster);
    LOG.info("Rolled the block keys; the DataNodes forgot key {}", old);
  }

  /** {@link Replication#await(FileSystem, Path, int)}, on this cluster. */
  public void awaitReplicas(FileSystem fs, Path path, int replicas) throws IOException {
    Replication.await(fs, path, replicas);
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
