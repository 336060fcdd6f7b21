package io.curtail.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything a benchmark run measured, scenario by scenario. */
public final class RunResult {
  /** One scenario's measurements. */
  public static final class ScenarioResult {
    final Scenario scenario;
    final Map<String, List<Batch>> batchesByMode = new LinkedHashMap<>();
    List<Summary> summaries = new ArrayList<>();

    ScenarioResult(Scenario scenario) {
      this.scenario = scenario;
    }

    void add(Mode mode, Batch b) {
      batchesByMode.computeIfAbsent(mode.label(), k -> new ArrayList<>()).add(b);
    }

    void summarise(List<Mode> modeOrder) {
      summaries = new ArrayList<>();
      for (Mode m : modeOrder) {
        List<Batch> batches = batchesByMode.get(m.label());
        if (batches != null) {
          summaries.add(Summary.of(scenario.name(), m.label(), batches));
        }
      }
      Summary.relate(summaries);
    }

    List<FileSample> samples(String mode) {
      List<FileSample> out = new ArrayList<>();
      for (Batch b : batchesByMode.getOrDefault(mode, new ArrayList<>())) {
        out.addAll(b.samples);
      }
      return out;
    }

    public Scenario scenario() {
      return scenario;
    }

    public List<Summary> summaries() {
      return summaries;
    }
  }

  final String target;
  final double scale;
  final long seed;
  final int rounds;
  final String started;
  final List<ScenarioResult> scenarios = new ArrayList<>();

  RunResult(String target, double scale, long seed, int rounds, String started) {
    this.target = target;
    this.scale = scale;
    this.seed = seed;
    this.rounds = rounds;
    this.started = started;
  }

  public List<ScenarioResult> scenarios() {
    return scenarios;
  }
}
