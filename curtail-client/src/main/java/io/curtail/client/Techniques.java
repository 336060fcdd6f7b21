package io.curtail.client;

import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.conf.HedgingMode;
import io.curtail.client.metrics.ClientMetrics;
import io.curtail.client.read.CellReads;
import io.curtail.client.read.ReadContext;
import io.curtail.client.read.striped.StripedReads;
import io.curtail.client.runtime.CurtailRuntime;
import io.curtail.client.runtime.Scheduler;
import io.curtail.client.stats.StatsLog;
import io.curtail.client.wire.ConnectionPool;
import io.curtail.client.write.WriteContext;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.SocketFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.client.impl.DfsClientConf;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.net.NetUtils;

/**
 * What Curtail's techniques run on in one {@link CurtailDistributedFileSystem}, put together once
 * its settings are known valid: the runtime it shares with the JVM's other file systems on the
 * same cluster, Curtail's reads (with hedging on; of erasure-coded files too with
 * {@code curtail.read.striped}) and writes (with fail-fast on). A part is null where its technique
 * is off; {@link #OFF} has none, the stock file system.
 */
final class Techniques {
  private static final AtomicInteger CLIENTS = new AtomicInteger();
  static final Techniques OFF = new Techniques(null, null, null, null);

  final ReadContext reads;
  /** Curtail's reads of erasure-coded files; null where they keep stock's stream. */
  final StripedReads stripedReads;
  final WriteContext writes;
  /** Null once released. */
  private CurtailRuntime runtime;

  private Techniques(CurtailRuntime runtime, ReadContext reads, StripedReads stripedReads,
      WriteContext writes) {
    this.runtime = runtime;
    this.reads = reads;
    this.stripedReads = stripedReads;
    this.writes = writes;
  }

  /**
   * The parts {@code parsed} turns on for {@code client}, of the cluster {@code authority} names,
   * logging per-block statistics to {@code stats} (null for nowhere).
   */
  static Techniques start(String authority, CurtailConfig parsed, Configuration conf,
      DFSClient client, StatsLog stats) {
    CurtailRuntime runtime = CurtailRuntime.acquire(authority, parsed);
    ClientMetrics.register();
    String name = "curtail-" + CLIENTS.incrementAndGet();
    // The sockets stock reads and writes use.
    SocketFactory factory = NetUtils.getSocketFactory(conf, ClientProtocol.class);
    ReadContext reads = null;
    StripedReads stripedReads = null;
    if (parsed.readHedging() != HedgingMode.OFF) {
      // Idle connections are kept as stock clients keep theirs (dfs.client.socketcache.*), in a
      // pool the JVM's file systems of one client context share.
      DfsClientConf.ShortCircuitConf sockets = client.getConf().getShortCircuitConf();
      ConnectionPool connections = ConnectionPool.shared(
          conf.get(HdfsClientConfigKeys.DFS_CLIENT_CONTEXT,
              HdfsClientConfigKeys.DFS_CLIENT_CONTEXT_DEFAULT) + "|"
              + factory.getClass().getName() + "|encrypt="
              + conf.getBoolean("dfs.encrypt.data.transfer", false) + "|protection="
              + conf.getTrimmed("dfs.data.transfer.protection", ""),
          runtime.clock(), sockets.getSocketCacheCapacity(),
          TimeUnit.MILLISECONDS.toNanos(sockets.getSocketCacheExpiry()));
      reads = new ReadContext(parsed, runtime, factory, connections,
          Scheduler.daemon(name + "-hedge-watchdog"));
      if (parsed.readStriped()) {
        stripedReads = new StripedReads(new CellReads(reads), conf);
      }
    }
    WriteContext writes = null;
    if (parsed.writeFailFastEnabled()) {
      writes = new WriteContext(parsed, conf, client, runtime, factory,
          Scheduler.daemon(name + "-writer-timer"));
    }
    if (stats != null) {
      if (reads != null) {
        reads.logStatsTo(stats);
      }
      if (writes != null) {
        writes.logStatsTo(stats);
      }
    }
    return new Techniques(runtime, reads, stripedReads, writes);
  }

  /** The runtime shared with the JVM's other file systems; null with every technique off. */
  CurtailRuntime runtime() {
    return runtime;
  }

  /** Closes the writes: first, while the client can still reach the NameNode. */
  void closeWrites() {
    if (writes != null) {
      writes.close();
    }
  }

  /** Closes the reads, once the client is closed. */
  void closeReads() {
    if (stripedReads != null) {
      stripedReads.close();
    }
    if (reads != null) {
      reads.close();
    }
  }

  /** Lets go of the shared runtime, last; a second call does nothing. */
  void release() {
    if (runtime != null) {
      runtime.release();
      runtime = null;
    }
  }
}
