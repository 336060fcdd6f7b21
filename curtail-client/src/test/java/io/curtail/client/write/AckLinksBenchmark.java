package io.curtail.client.write;

import io.curtail.client.policy.Slowness;
import io.curtail.client.policy.WriteAttribution;
import io.curtail.client.track.LatencyRegistry;
import io.curtail.client.track.NodeId;
import io.curtail.client.track.NodeTracker;
import io.curtail.client.track.SlowLinks;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
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
 * What the client's ack reader does with the reports of one ack's links ({@code ackLinks}: a
 * healthy 3-DataNode pipeline's link times recorded and judged, against the JVM's slow links;
 * {@code ackLinksTwoWriters}: two pipelines of one JVM at once, sharing that vote). Among the
 * client's tests, in this package, to reach {@link PipelineLinks} without a jar that puts classes
 * in the client's packages.
 *
 * <p>Run: see docs/benchmark.md, "Microbenchmarks (JMH)".
 */
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AckLinksBenchmark {
  /** The JVM's vote on slow links, shared by every writer as a client's runtime shares it. */
  static final SlowLinks SLOW_LINKS = new SlowLinks(300_000_000_000L, 1024);
  /** The JVM's trackers, where links are pooled per end, shared likewise. */
  static final LatencyRegistry TRACKERS =
      new LatencyRegistry(System::nanoTime, 1024, Long.MAX_VALUE, Long.MAX_VALUE);

  /** One ack's links through a client's ack reader: recorded, and judged as often as it does. */
  @Benchmark
  public PipelineLinks ackLinks(Writer w) {
    return w.ack(System.nanoTime());
  }

  /** The same, two writers of one JVM at once: the JVM's vote on slow links is shared. */
  @Benchmark
  @Threads(2)
  public PipelineLinks ackLinksTwoWriters(Writer w) {
    return w.ack(System.nanoTime());
  }

  /** One writer's healthy pipeline of three DataNodes, its acks' link times cycling. */
  @State(Scope.Thread)
  public static class Writer {
    final long[] cycle = new long[128];
    final long[] links = new long[3];
    final long[] own = {300_000, 400_000, 350_000};
    final long[] stages = {300_000, 400_000, 350_000};
    final WriteAttribution attribution = new WriteAttribution(3);
    PipelineLinks pipeline;
    int next;

    @Setup
    public void start() {
      Random random = new Random(ThreadLocalRandom.current().nextLong());
      for (int i = 0; i < cycle.length; i++) {
        cycle[i] = 20_000 + random.nextInt(200_000); // a healthy forward: tens of microseconds
      }
      int base = random.nextInt(200);
      NodeTracker[] nodes = new NodeTracker[3];
      for (int i = 0; i < nodes.length; i++) {
        nodes[i] = TRACKERS.tracker(NodeId.of("10.0.0." + (base + i) + ":9866"));
      }
      pipeline = new PipelineLinks(nodes, new Slowness(3, 5_000_000, 20), SLOW_LINKS, 100);
      links[2] = WriteAttribution.NO_EVIDENCE;
    }

    PipelineLinks ack(long now) {
      links[0] = cycle[next++ & 127];
      links[1] = cycle[next++ & 127];
      pipeline.record(links, own, stages, now);
      pipeline.judge(now, attribution);
      return pipeline;
    }
  }
}
