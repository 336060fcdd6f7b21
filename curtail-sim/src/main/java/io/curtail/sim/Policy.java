package io.curtail.sim;

import io.curtail.client.policy.FailFast;
import io.curtail.client.policy.HedgeBudget;
import io.curtail.client.policy.Hedging;
import io.curtail.client.policy.ReplicaOrder;
import io.curtail.client.policy.ReportedLoad;
import io.curtail.client.policy.Slowness;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The client's thresholds, each named as a study names it and defaulting to the client's default
 * (its {@code curtail.*} key); builds the client's own policy objects from them exactly as the
 * client's {@code ReadContext} and {@code WriteContext} do. Also the one threshold of stock-best:
 * its static hedging threshold. Immutable: {@link #with} makes a copy with one changed.
 */
public final class Policy {
  static final long MS = 1_000_000L;
  /** The client's median for replica order (its {@code ReadContext.TYPICAL_PERCENTILE}). */
  static final double TYPICAL = 0.5;
  /** Write windows are this many times read windows, as the client's defaults (100 and 20). */
  private static final int WRITE_WINDOW_READS = 5;

  /** One threshold: its name in {@link #with} and the study's plots, and the client's default. */
  enum Threshold {
    PERCENTILE("percentile", 0.95),
    FACTOR("factor", 3),
    /** The read window in packets; the write window is {@value #WRITE_WINDOW_READS} times it. */
    WINDOW("window", 20),
    /** The adaptive hedge threshold's floor. */
    FLOOR_MS("floor-ms", 25),
    /** The hedge threshold a client waits before it knows enough to adapt. */
    BOOTSTRAP_MS("bootstrap-ms", 500),
    BACKOFF("backoff", 16),
    MAX_RETRIES("max-retries", 3),
    BUDGET("budget", 0.1),
    BUDGET_BURST("budget-burst", 10),
    READ_MIN_SLOWDOWN_MS("read-min-slowdown-ms", 5),
    WRITE_MIN_SLOWDOWN_MS("write-min-slowdown-ms", 5),
    FAIL_FAST_ATTEMPTS("fail-fast-attempts", 5),
    REBUILD_MIN_TIMEOUT_MS("rebuild-min-timeout-ms", 1000),
    REFRESH_PACKETS("refresh-packets", 16),
    KNOWLEDGE_MEMORY_MS("knowledge-memory-ms", 300_000),
    KNOWLEDGE_NODES("knowledge-nodes", 1024),
    /** The watchdog's period: a cold threshold, or a refused hedge, is looked at again then. */
    CHECK_MS("check-ms", 5),
    /** {@code curtail.write.failfast.check.ms}: every open pipeline judged, acks or not. */
    FAILFAST_CHECK_MS("failfast-check-ms", 50),
    /** {@code curtail.read.namenode.load.factor}; 0 turns the rule off. */
    LOAD_FACTOR("load-factor", 2),
    LOAD_MARGIN("load-margin", 4),
    /** Stock-best's static hedged-read threshold. */
    STOCK_THRESHOLD_MS("stock-threshold-ms", 50);

    final String name;
    final double byDefault;

    Threshold(String name, double byDefault) {
      this.name = name;
      this.byDefault = byDefault;
    }

    static Threshold named(String name) {
      for (Threshold t : values()) {
        if (t.name.equals(name)) {
          return t;
        }
      }
      throw new IllegalArgumentException("unknown threshold '" + name + "': one of "
          + String.join(", ", Arrays.stream(values()).map(t -> t.name).toList()));
    }
  }

  /** The thresholds a sensitivity study varies. */
  public static final List<String> NAMES = List.of("percentile", "factor", "window", "floor-ms",
      "backoff", "budget", "knowledge-nodes", "load-factor", "stock-threshold-ms");

  private final Map<Threshold, Double> values;

  private Policy(Map<Threshold, Double> values) {
    this.values = values;
  }

  public static Policy defaults() {
    Map<Threshold, Double> m = new EnumMap<>(Threshold.class);
    for (Threshold t : Threshold.values()) {
      m.put(t, t.byDefault);
    }
    return new Policy(m);
  }

  /** These thresholds with the one called {@code name} set to {@code v}. */
  public Policy with(String name, double v) {
    Map<Threshold, Double> m = new EnumMap<>(values);
    m.put(Threshold.named(name), v);
    return new Policy(m);
  }

  private double get(Threshold t) {
    return values.get(t);
  }

  private long nanos(Threshold ms) {
    return (long) (get(ms) * MS);
  }

  double percentile() {
    return get(Threshold.PERCENTILE);
  }

  int readWindow() {
    return (int) get(Threshold.WINDOW);
  }

  int writeWindow() {
    return readWindow() * WRITE_WINDOW_READS;
  }

  int refreshPackets() {
    return (int) get(Threshold.REFRESH_PACKETS);
  }

  long knowledgeMemoryNanos() {
    return nanos(Threshold.KNOWLEDGE_MEMORY_MS);
  }

  int knowledgeMaxNodes() {
    return (int) get(Threshold.KNOWLEDGE_NODES);
  }

  long stockHedgeThresholdNanos() {
    return nanos(Threshold.STOCK_THRESHOLD_MS);
  }

  /** {@code curtail.read.hedging.backoff.packets}: also how long an overtaken DataNode is last. */
  int backoffPackets() {
    return (int) get(Threshold.BACKOFF);
  }

  /** {@code curtail.read.hedging.check.ms}: how often the client's watchdog looks at packets. */
  long checkNanos() {
    return nanos(Threshold.CHECK_MS);
  }

  /** {@code curtail.write.failfast.check.ms}: how often every open pipeline is judged. */
  long failFastCheckNanos() {
    return nanos(Threshold.FAILFAST_CHECK_MS);
  }

  long readMinSlowdownNanos() {
    return nanos(Threshold.READ_MIN_SLOWDOWN_MS);
  }

  Hedging hedging() {
    return new Hedging(nanos(Threshold.BOOTSTRAP_MS), nanos(Threshold.FLOOR_MS), true,
        get(Threshold.FACTOR), readWindow(), (int) get(Threshold.MAX_RETRIES),
        (int) get(Threshold.BACKOFF));
  }

  HedgeBudget budget() {
    return new HedgeBudget(get(Threshold.BUDGET), (int) get(Threshold.BUDGET_BURST));
  }

  /** The NameNode-load rule, or null where a study turned it off (factor 0). */
  ReportedLoad reportedLoad() {
    double factor = get(Threshold.LOAD_FACTOR);
    return factor == 0 ? null : new ReportedLoad(factor, (int) get(Threshold.LOAD_MARGIN),
        Long.MAX_VALUE / 2);
  }

  private int typicalSamples() {
    return Slowness.minSamples(TYPICAL, readWindow());
  }

  ReplicaOrder packetOrder() {
    return new ReplicaOrder(new Slowness(get(Threshold.FACTOR), readMinSlowdownNanos(),
        typicalSamples()));
  }

  ReplicaOrder startOrder() {
    return new ReplicaOrder(new Slowness(get(Threshold.FACTOR), hedgeFloor(), typicalSamples()));
  }

  ReplicaOrder tailOrder() {
    return new ReplicaOrder(new Slowness(get(Threshold.FACTOR), hedgeFloor(), readWindow()));
  }

  private long hedgeFloor() {
    return Math.max(readMinSlowdownNanos(), nanos(Threshold.FLOOR_MS));
  }

  FailFast failFast() {
    return new FailFast(new Slowness(get(Threshold.FACTOR),
        nanos(Threshold.WRITE_MIN_SLOWDOWN_MS), Slowness.minSamples(percentile(), writeWindow()))
        .withEarlyJudgement(), // as the client's WriteContext builds it
        (int) get(Threshold.FAIL_FAST_ATTEMPTS), nanos(Threshold.REBUILD_MIN_TIMEOUT_MS));
  }
}
