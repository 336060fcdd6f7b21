package io.curtail.sim;

import io.curtail.client.policy.FailFast;
import io.curtail.client.policy.HedgeBudget;
import io.curtail.client.policy.Hedging;
import io.curtail.client.policy.ReplicaOrder;
import io.curtail.client.policy.Slowness;

/**
 * The client's thresholds, named as their {@code curtail.*} keys, defaulting to the client's
 * defaults; builds the client's own policy objects from them exactly as the client's
 * {@code ReadContext} and {@code WriteContext} do. Also the one threshold of stock-best: its
 * static hedging threshold.
 */
public record Policy(double percentile, double factor, int readWindow, int writeWindow,
    long minThresholdNanos, long staticThresholdNanos, int backoffPackets, int maxRetries,
    double budgetRatio, int budgetBurst, long readMinSlowdownNanos, long writeMinSlowdownNanos,
    int failFastMaxAttempts, long rebuildMinTimeoutNanos, int refreshPackets,
    long knowledgeMemoryNanos, int knowledgeMaxNodes, long stockHedgeThresholdNanos) {

  static final long MS = 1_000_000L;
  /** The client's median for replica order (its {@code ReadContext.TYPICAL_PERCENTILE}). */
  static final double TYPICAL = 0.5;

  public static Policy defaults() {
    return new Policy(0.95, 3.0, 20, 100, 25 * MS, 500 * MS, 16, 3, 0.1, 10, 5 * MS, 5 * MS, 5,
        1000 * MS, 16, 300_000 * MS, 1024, 50 * MS);
  }

  Hedging hedging() {
    return new Hedging(staticThresholdNanos, minThresholdNanos, true, factor, readWindow,
        maxRetries, backoffPackets);
  }

  HedgeBudget budget() {
    return new HedgeBudget(budgetRatio, budgetBurst);
  }

  private int typicalSamples() {
    return Slowness.minSamples(TYPICAL, readWindow);
  }

  ReplicaOrder packetOrder() {
    return new ReplicaOrder(new Slowness(factor, readMinSlowdownNanos, typicalSamples()));
  }

  ReplicaOrder startOrder() {
    return new ReplicaOrder(new Slowness(factor, hedgeFloor(), typicalSamples()));
  }

  ReplicaOrder tailOrder() {
    return new ReplicaOrder(new Slowness(factor, hedgeFloor(), readWindow));
  }

  private long hedgeFloor() {
    return Math.max(readMinSlowdownNanos, minThresholdNanos);
  }

  FailFast failFast() {
    return new FailFast(new Slowness(factor, writeMinSlowdownNanos,
        Slowness.minSamples(percentile, writeWindow)), failFastMaxAttempts, rebuildMinTimeoutNanos);
  }

  /** These thresholds with one changed, by its name in {@link #set}'s list. */
  public Policy with(String name, double v) {
    return switch (name) {
      case "percentile" -> new Policy(v, factor, readWindow, writeWindow, minThresholdNanos,
          staticThresholdNanos, backoffPackets, maxRetries, budgetRatio, budgetBurst,
          readMinSlowdownNanos, writeMinSlowdownNanos, failFastMaxAttempts,
          rebuildMinTimeoutNanos, refreshPackets, knowledgeMemoryNanos, knowledgeMaxNodes,
          stockHedgeThresholdNanos);
      case "factor" -> new Policy(percentile, v, readWindow, writeWindow, minThresholdNanos,
          staticThresholdNanos, backoffPackets, maxRetries, budgetRatio, budgetBurst,
          readMinSlowdownNanos, writeMinSlowdownNanos, failFastMaxAttempts,
          rebuildMinTimeoutNanos, refreshPackets, knowledgeMemoryNanos, knowledgeMaxNodes,
          stockHedgeThresholdNanos);
      case "window" -> new Policy(percentile, factor, (int) v, (int) v * 5, minThresholdNanos,
          staticThresholdNanos, backoffPackets, maxRetries, budgetRatio, budgetBurst,
          readMinSlowdownNanos, writeMinSlowdownNanos, failFastMaxAttempts,
          rebuildMinTimeoutNanos, refreshPackets, knowledgeMemoryNanos, knowledgeMaxNodes,
          stockHedgeThresholdNanos);
      case "floor-ms" -> new Policy(percentile, factor, readWindow, writeWindow,
          (long) (v * MS), staticThresholdNanos, backoffPackets, maxRetries, budgetRatio,
          budgetBurst, readMinSlowdownNanos, writeMinSlowdownNanos, failFastMaxAttempts,
          rebuildMinTimeoutNanos, refreshPackets, knowledgeMemoryNanos, knowledgeMaxNodes,
          stockHedgeThresholdNanos);
      case "backoff" -> new Policy(percentile, factor, readWindow, writeWindow,
          minThresholdNanos, staticThresholdNanos, (int) v, maxRetries, budgetRatio, budgetBurst,
          readMinSlowdownNanos, writeMinSlowdownNanos, failFastMaxAttempts,
          rebuildMinTimeoutNanos, refreshPackets, knowledgeMemoryNanos, knowledgeMaxNodes,
          stockHedgeThresholdNanos);
      case "budget" -> new Policy(percentile, factor, readWindow, writeWindow,
          minThresholdNanos, staticThresholdNanos, backoffPackets, maxRetries, v, budgetBurst,
          readMinSlowdownNanos, writeMinSlowdownNanos, failFastMaxAttempts,
          rebuildMinTimeoutNanos, refreshPackets, knowledgeMemoryNanos, knowledgeMaxNodes,
          stockHedgeThresholdNanos);
      case "knowledge-nodes" -> new Policy(percentile, factor, readWindow, writeWindow,
          minThresholdNanos, staticThresholdNanos, backoffPackets, maxRetries, budgetRatio,
          budgetBurst, readMinSlowdownNanos, writeMinSlowdownNanos, failFastMaxAttempts,
          rebuildMinTimeoutNanos, refreshPackets, knowledgeMemoryNanos, (int) v,
          stockHedgeThresholdNanos);
      case "stock-threshold-ms" -> new Policy(percentile, factor, readWindow, writeWindow,
          minThresholdNanos, staticThresholdNanos, backoffPackets, maxRetries, budgetRatio,
          budgetBurst, readMinSlowdownNanos, writeMinSlowdownNanos, failFastMaxAttempts,
          rebuildMinTimeoutNanos, refreshPackets, knowledgeMemoryNanos, knowledgeMaxNodes,
          (long) (v * MS));
      default -> throw new IllegalArgumentException("unknown threshold '" + name + "': one of "
          + String.join(", ", NAMES));
    };
  }

  /** The thresholds {@link #with} can change. */
  public static final java.util.List<String> NAMES = java.util.List.of("percentile", "factor",
      "window", "floor-ms", "backoff", "budget", "knowledge-nodes", "stock-threshold-ms");
}
