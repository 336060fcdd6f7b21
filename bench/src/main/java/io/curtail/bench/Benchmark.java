package io.curtail.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs scenarios × mode variants × rounds. Within a scenario the variants alternate, in an order
 * rotated every round, so that drift of the machine (JIT warm-up, page cache, a noisy neighbour)
 * hits every mode alike instead of favouring whichever ran last. A long run ({@code duration})
 * keeps starting rounds until the scenario has run that long, and meanwhile watches whether the
 * NameNode's own slow-node tracking acts. A scenario without a fault, which measures overheads of
 * a few percent, starts with one unmeasured batch of every mode, as JMH warms up: each mode's code
 * is compiled and its connections pooled before it is timed, not in whichever batch came first.
 */
final class Benchmark {
  private final Target target;
  private final List<Scenario> scenarios;
  private final List<Mode> modes;
  private final Mode.Options options;
  private final int rounds;
  private final Duration duration;
  private final Runner runner;
  private final Progress progress;
  private final boolean interleave;

  /**
   * @param duration how long each scenario runs at least (rounds continue until it has), or
   *     {@link Duration#ZERO} to run exactly {@code rounds}
   * @param interleave whether the variants of a scenario share each batch, file by file
   *     ({@link #checkInterleaved})
   */
  Benchmark(Target target, List<Scenario> scenarios, List<Mode> modes, Mode.Options options,
      int rounds, Duration duration, Runner runner, Progress progress, boolean interleave) {
    this.target = target;
    this.scenarios = scenarios;
    this.modes = modes;
    this.options = options;
    this.rounds = rounds;
    this.duration = duration;
    this.runner = runner;
    this.progress = progress;
    this.interleave = interleave;
  }

  /**
   * Checks that {@code modes} can share the batches of each of {@code scenarios}: the fault and
   * the DataNodes' setup are a batch's, so a scenario has no fault (nor a pace: its schedule is
   * per file) and the modes that apply to it run on one cluster with the same DataNodes; and
   * none turns stock's hedged reads on beside another, since their thread pool is the JVM's and
   * every stock client in the batch would hedge.
   *
   * @throws IllegalArgumentException saying which scenario or modes cannot
   */
  static void checkInterleaved(List<Scenario> scenarios, List<Mode> modes) {
    for (Scenario s : scenarios) {
      if (s.hasFault() || s.workload().paced()) {
        throw new IllegalArgumentException("--interleave needs scenarios without a fault or a"
            + " pace; " + s.name() + " has " + (s.hasFault() ? "a fault" : "a pace"));
      }
      List<Mode> sharing = new ArrayList<>();
      for (Mode m : modes) {
        if (m.appliesTo(s)) {
          sharing.add(m);
        }
      }
      Mode first = sharing.isEmpty() ? null : sharing.get(0);
      for (Mode m : sharing) {
        if (!m.clusterSettings().equals(first.clusterSettings())
            || m.pluginOnDataNodes() != first.pluginOnDataNodes()) {
          throw new IllegalArgumentException("--interleave needs modes on one cluster and"
              + " DataNodes; " + first + " and " + m + " differ");
        }
        if (m == Mode.STOCK_HEDGED && sharing.size() > 1) {
          throw new IllegalArgumentException("--interleave cannot share a batch with "
              + m + ": stock's hedged-read pool is the JVM's, so every stock client would hedge");
        }
      }
    }
  }

  /** The variants of the modes that say something in {@code s} on this target. */
  List<Variant> variantsFor(Scenario s) {
    List<Variant> out = new ArrayList<>();
    for (Mode m : modes) {
      boolean needsTarget = !m.faulty() || m.needsItsCluster();
      if (m.appliesTo(s) && (!needsTarget || target.injectsFaults())) {
        out.addAll(Variant.of(m, s, options));
      }
    }
    return out;
  }

  int batches() {
    int n = 0;
    for (Scenario s : scenarios) {
      n += (interleave ? 1 : variantsFor(s).size()) * (rounds + (warmsUp(s) ? 1 : 0));
    }
    return n;
  }

  /**
   * Whether {@code s} first runs an unmeasured batch of every mode: a healthy scenario, whose
   * figures are overheads of a few percent; and the run's first scenario, whatever its fault,
   * whose first batches would otherwise pay for the JIT compiling the client (every first file
   * of a run's first faulty batch took twice its later time).
   */
  private boolean warmsUp(Scenario s) {
    return !s.hasFault() || s == scenarios.get(0);
  }

  void run(RunResult result) throws IOException, InterruptedException {
    progress.start(duration.isZero() ? batches() : 0);
    for (Scenario s : scenarios) {
      RunResult.ScenarioResult sr = new RunResult.ScenarioResult(s, target.faultOf(s));
      result.scenarios.add(sr);
      List<Variant> vs = variantsFor(s);
      Set<Target.Cluster> clusters = new LinkedHashSet<>();
      for (Variant v : vs) {
        clusters.add(target.cluster(v.mode));
      }
      for (Target.Cluster c : clusters) {
        runner.prepare(s, c);
      }
      long start = System.nanoTime();
      // Watched in every run, for when stock's NameNode acted (Phases); its every change is
      // listed in a long run's report only.
      try (SlowNodeWatch watch = SlowNodeWatch.start(clusters,
          duration.isZero() ? line -> { } : sr::event)) {
        if (warmsUp(s)) {
          for (List<Variant> batch : batchesOf(vs, 0)) {
            progress.step(s.name() + " " + String.join("+", labels(batch)) + " warm-up");
            runner.run(s, batch, Runner.WARM_UP_ROUND);
          }
        }
        for (int round = 0; round < rounds || System.nanoTime() - start < duration.toNanos();
            round++) {
          for (List<Variant> batch : batchesOf(vs, round)) {
            progress.step(s.name() + " " + String.join("+", labels(batch)) + " round " + (round + 1)
                + (duration.isZero() ? "/" + rounds : ""));
            List<Batch> done = runner.run(s, batch, round);
            for (int i = 0; i < batch.size(); i++) {
              sr.add(batch.get(i).label, done.get(i));
            }
          }
        }
        for (Variant v : vs) {
          if (v.mode == Mode.STOCK_BEST) {
            sr.phases = watch.phases(target.cluster(v.mode), runner.epochNanos());
          }
        }
      } finally {
        for (Target.Cluster c : clusters) {
          runner.cleanUp(s, c);
        }
      }
      sr.summarise(labels(vs));
    }
    progress.done();
  }

  /**
   * The batches of a round: all of {@code vs} together when interleaved, else one each, in an
   * order rotated by {@code round}.
   */
  private List<List<Variant>> batchesOf(List<Variant> vs, int round) {
    List<List<Variant>> out = new ArrayList<>();
    if (interleave) {
      out.add(vs);
      return out;
    }
    for (int i = 0; i < vs.size(); i++) {
      out.add(Collections.singletonList(vs.get((i + round) % vs.size())));
    }
    return out;
  }

  private static List<String> labels(List<Variant> vs) {
    List<String> out = new ArrayList<>();
    vs.forEach(v -> out.add(v.label));
    return out;
  }
}
