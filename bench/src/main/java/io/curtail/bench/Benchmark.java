package io.curtail.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs scenarios × modes × rounds. Within a scenario the modes alternate, in an order rotated every
 * round, so that drift of the machine (JIT warm-up, page cache, a noisy neighbour) hits every mode
 * alike instead of favouring whichever ran last.
 */
final class Benchmark {
  private final Target target;
  private final List<Scenario> scenarios;
  private final List<Mode> modes;
  private final int rounds;
  private final Runner runner;
  private final Progress progress;

  Benchmark(Target target, List<Scenario> scenarios, List<Mode> modes, int rounds, Runner runner,
      Progress progress) {
    this.target = target;
    this.scenarios = scenarios;
    this.modes = modes;
    this.rounds = rounds;
    this.runner = runner;
    this.progress = progress;
  }

  /** The modes that say something in {@code s} on this target. */
  List<Mode> modesFor(Scenario s) {
    List<Mode> out = new ArrayList<>();
    for (Mode m : modes) {
      if (m.appliesTo(s) && (m.faulty() || target.injectsFaults())) {
        out.add(m);
      }
    }
    return out;
  }

  int batches() {
    int n = 0;
    for (Scenario s : scenarios) {
      n += modesFor(s).size() * rounds;
    }
    return n;
  }

  void run(RunResult result) throws IOException, InterruptedException {
    progress.start(batches());
    for (Scenario s : scenarios) {
      RunResult.ScenarioResult sr = new RunResult.ScenarioResult(s);
      result.scenarios.add(sr);
      List<Mode> ms = modesFor(s);
      runner.prepare(s);
      try {
        for (int round = 0; round < rounds; round++) {
          for (int i = 0; i < ms.size(); i++) {
            Mode m = ms.get((i + round) % ms.size());
            progress.step(s.name() + " " + m.label() + " round " + (round + 1) + "/" + rounds);
            sr.add(m, runner.run(s, m, round));
          }
        }
      } finally {
        runner.cleanUp(s);
      }
      sr.summarise(ms);
    }
    progress.done();
  }
}
