package io.curtail.jmh;

import io.curtail.client.policy.FailFast;
import io.curtail.client.policy.FailFastDecision;
import io.curtail.client.policy.HedgeBackoff;
import io.curtail.client.policy.HedgeBudget;
import io.curtail.client.policy.Hedging;
import io.curtail.client.track.LatencyStats;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of a decision: a fail-fast check of a three-DataNode pipeline (slow and healthy), the
 * smart hedge threshold, choosing a hedge target, and the hedge budget's deposit per packet and
 * spend per hedge (on every packet read: a few nanoseconds, no allocation). Target: each ≤ 1 µs.
 *
 * <p>Run: {@code java -jar curtail-jmh/target/benchmarks.jar Policy -prof gc}.
 */
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class PolicyBenchmark {
  private static final long MS = 1_000_000;
  private final FailFast failFast = new FailFast(3.0, 100, 5, 1000 * MS, 5 * MS);
  private final Hedging hedging = new Hedging(500 * MS, 50 * MS, true, 3.0, 20, 3, 16);
  private final List<LatencyStats> healthy = Arrays.asList(LatencyStats.of(100, 2 * MS, MS),
      LatencyStats.of(100, 3 * MS, MS), LatencyStats.of(100, 2 * MS, MS));
  private final List<LatencyStats> slow = Arrays.asList(LatencyStats.of(100, 2 * MS, MS),
      LatencyStats.of(100, 90 * MS, 40 * MS), LatencyStats.of(100, 3 * MS, 2 * MS));
  private final LatencyStats others = LatencyStats.of(60, 4 * MS, 2 * MS);
  private final List<HedgeBackoff> backoffs = Arrays.asList(HedgeBackoff.NONE,
      hedging.afterLoss(HedgeBackoff.NONE, 0), HedgeBackoff.NONE);
  private final boolean[] busy = new boolean[3];
  private final HedgeBudget budget = new HedgeBudget(0.1, 10);
  private long packet;

  @Benchmark
  public long baseline() {
    return packet++;
  }

  @Benchmark
  public FailFastDecision failFastHealthyPipeline() {
    return failFast.decide(healthy, 10L << 20, 64 << 10, 1_000, 0);
  }

  @Benchmark
  public FailFastDecision failFastSlowPipeline() {
    return failFast.decide(slow, 10L << 20, 64 << 10, 1_000, 0);
  }

  @Benchmark
  public long hedgeThreshold() {
    return hedging.thresholdNanos(others);
  }

  @Benchmark
  public int hedgeTarget() {
    return hedging.nextTarget(0, backoffs, busy, packet++ & 31);
  }

  /** A packet read and, every tenth, a hedge: the budget's steady state when it binds. */
  @Benchmark
  public boolean hedgeBudget() {
    budget.onRead();
    return (packet++ % 10) == 0 && budget.tryHedge();
  }
}
