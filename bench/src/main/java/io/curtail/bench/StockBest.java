package io.curtail.bench;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The strongest stock configuration for slow DataNodes that Hadoop 3.4 offers: every stock
 * slow-node feature on, each tuned to act as quickly as it can. {@code stock-best} runs the stock
 * client with {@link #CLIENT} against a cluster of its own started with {@link #CLUSTER}.
 *
 * <p>What each can do, and cannot, against one slow DataNode:
 * <ul>
 *   <li>hedged reads cover positional reads only, at a static threshold (swept by the benchmark);
 *   <li>dead-node detection and replace-on-failure act on failures, not on slowness;
 *   <li>the slow-node chain acts on writes: DataNodes time sending packets downstream (peer
 *       stats), report outliers to the NameNode, which marks slow nodes, tells them on heartbeats,
 *       and they flag the slow node on acks ({@code dfs.pipeline.slownode}); a client that sees
 *       it flagged on enough acks in a row treats it as bad and replaces it. The NameNode also
 *       keeps slow nodes out of new pipelines and sorts them last for reads. Its DataNode side
 *       averages over a rolling window of five minutes that no setting shortens.
 * </ul>
 */
final class StockBest {
  private StockBest() {}

  /** Client settings (besides the hedge threshold the benchmark sweeps). */
  static final Map<String, String> CLIENT = settings(
      "dfs.client.hedged.read.threadpool.size", "16",
      "dfs.client.deadnode.detection.enabled", "true",
      "dfs.client.deadnode.detection.probe.deadnode.interval.ms", "1000",
      "dfs.client.deadnode.detection.probe.suspectnode.interval.ms", "500",
      "dfs.client.block.write.replace-datanode-on-failure.enable", "true",
      "dfs.client.block.write.replace-datanode-on-failure.policy", "ALWAYS",
      "dfs.client.block.write.replace-datanode-on-failure.best-effort", "true",
      // Acks flagging a DataNode slow before the client replaces it (default 10).
      "dfs.client.mark.slownode.as.badnode.threshold", "2");

  /** NameNode and DataNode settings of {@code stock-best}'s own cluster. */
  static final Map<String, String> CLUSTER = settings(
      // DataNodes time each downstream peer and report outliers quickly, from few samples.
      "dfs.datanode.peer.stats.enabled", "true",
      "dfs.datanode.peer.metrics.min.outlier.detection.samples", "10",
      "dfs.datanode.min.outlier.detection.nodes", "2",
      "dfs.datanode.slowpeer.low.threshold.ms", "1",
      "dfs.datanode.outliers.report.interval", "10s",
      // Slow disks too (volumes compared within a DataNode), sampling every file operation.
      "dfs.datanode.fileio.profiling.sampling.percentage", "100",
      "dfs.datanode.min.outlier.detection.disks", "1",
      "dfs.datanode.slowdisk.low.threshold.ms", "1",
      // DataNodes the NameNode marked slow say so on acks.
      "dfs.pipeline.slownode", "true",
      // The NameNode collects slow peers often, keeps them out of pipelines, reads them last.
      "dfs.namenode.slowpeer.collect.interval", "10s",
      "dfs.namenode.avoid.read.slow.datanode", "true",
      "dfs.namenode.block-placement-policy.exclude-slow-nodes.enabled", "true",
      "dfs.namenode.avoid.read.stale.datanode", "true",
      "dfs.namenode.avoid.write.stale.datanode", "true",
      "dfs.namenode.read.considerLoad", "true",
      "dfs.namenode.redundancy.considerLoad", "true");

  private static Map<String, String> settings(String... keysAndValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return Collections.unmodifiableMap(m);
  }
}
