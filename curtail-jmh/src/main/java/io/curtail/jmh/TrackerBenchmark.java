package io.curtail.jmh;

import io.curtail.client.track.LatencyRegistry;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.track.LatencyWindow;
import io.curtail.client.track.NodeId;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-packet cost of tracking: recording a sample (on every packet of every stream) and
 * querying a window's percentile (on every policy check). Targets: record ≤ 50 ns and 0 B/op.
 *
 * <p>Run: {@code java -jar curtail-jmh/target/benchmarks.jar Tracker
 * -prof gc} (the GC profiler reports {@code gc.alloc.rate.norm}, bytes allocated per operation).
 */
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class TrackerBenchmark {
  private final LatencyWindow window = new LatencyWindow();
  private final LatencyRegistry registry = new LatencyRegistry(System::nanoTime, 1024,
      TimeUnit.MINUTES.toNanos(15), TimeUnit.MINUTES.toNanos(5));
  private final NodeId node = NodeId.of("10.0.0.1:9866");

  /** Per-thread scratch for percentile queries, as each stream would hold its own. */
  @State(Scope.Thread)
  public static class Scratch {
    final long[] values = new long[LatencyWindow.CAPACITY];
    long next = 1_000;
  }

  @Setup
  public void fill() {
    for (int i = 0; i < LatencyWindow.CAPACITY; i++) {
      window.record(1_000_000 + (i * 7919L) % 500_000);
    }
  }

  /** What the measurement itself costs: reading and bumping a counter. */
  @Benchmark
  public long baseline(Scratch s) {
    return s.next++;
  }

  @Benchmark
  public void record(Scratch s) {
    window.record(s.next++);
  }

  /** Two streams recording into one DataNode's window at once. */
  @Benchmark
  @Threads(2)
  public void recordContended(Scratch s) {
    window.record(s.next++);
  }

  @Benchmark
  public LatencyStats percentileWrite100(Scratch s) {
    return window.stats(100, 0.95, s.values);
  }

  @Benchmark
  public LatencyStats percentileRead20(Scratch s) {
    return window.stats(20, 0.95, s.values);
  }

  /** Once per pipeline or block: finding the JVM-wide tracker of a DataNode. */
  @Benchmark
  public Object registryLookup() {
    return registry.tracker(node);
  }

}
