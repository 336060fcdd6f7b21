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
    /** The fault it ran under, as the target injected it. */
    final String fault;
    final Map<String, List<Batch>> batchesByMode = new LinkedHashMap<>();
    List<Summary> summaries = new ArrayList<>();
    /** What happened outside the batches meanwhile (a long run's slow-node reports), in order. */
    final List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
    /** When stock-best's NameNode acted, splitting the files into two phases. */
    Phases phases = Phases.UNKNOWN;

    ScenarioResult(Scenario scenario, String fault) {
      this.scenario = scenario;
      this.fault = fault;
    }

    void add(String label, Batch b) {
      batchesByMode.computeIfAbsent(label, k -> new ArrayList<>()).add(b);
    }

    void event(String line) {
      events.add(line);
    }

    void summarise(List<String> labelOrder) {
      summaries = new ArrayList<>();
      for (String label : labelOrder) {
        List<Batch> batches = batchesByMode.get(label);
        if (batches != null) {
          summaries.add(Summary.of(scenario.name(), label, batches));
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
  /** How long each scenario ran at least; zero when it ran exactly {@link #rounds}. */
  final java.time.Duration duration;
  final String started;
  /** Whether the modes shared each batch, file by file ({@code --interleave}). */
  final boolean interleaved;
  final List<ScenarioResult> scenarios = new ArrayList<>();

  RunResult(String target, double scale, long seed, int rounds, java.time.Duration duration,
      String started, boolean interleaved) {
    this.target = target;
    this.scale = scale;
    this.seed = seed;
    this.rounds = rounds;
    this.duration = duration;
    this.started = started;
    this.interleaved = interleaved;
  }

  public List<ScenarioResult> scenarios() {
    return scenarios;
  }
}
