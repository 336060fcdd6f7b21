package io.curtail.sim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The questions an operator asks before turning Curtail on (issue 37), each a set of runs on the
 * same cluster and workload: p99 and extra load against the fraction of slow DataNodes, a slow
 * rack, onsets all at once or spread, each threshold's sensitivity, and the hedge budget where
 * many DataNodes are slow.
 */
final class Study {
  static final double[] FRACTIONS = {0, 0.01, 0.05, 0.1, 0.2, 0.3};
  static final Mode[] COMPARED = {Mode.STOCK, Mode.STOCK_BEST, Mode.CURTAIL, Mode.ORACLE};

  private final Setup base;
  private final Consumer<String> progress;
  private Mode[] compared = COMPARED;
  private java.util.Set<String> parts = java.util.Set.of("fraction", "rack", "onsets",
      "sensitivity", "budget");

  private boolean sharedFileSystem;

  /** A JVM's clients share one file system (see {@link Simulation}). */
  Study sharedFileSystem(boolean shared) {
    this.sharedFileSystem = shared;
    return this;
  }

  /** Only these modes in the experiments that compare modes. */
  Study modes(Mode[] m) {
    this.compared = m;
    return this;
  }

  /** Only these experiments. */
  Study parts(java.util.Set<String> p) {
    this.parts = p;
    return this;
  }
  private final List<Row> all = new ArrayList<>();

  Study(Setup base, Consumer<String> progress) {
    this.base = base;
    this.progress = progress;
  }

  Row run(String experiment, String variable, double value, Setup s, Mode mode, Policy p) {
    long t0 = System.nanoTime();
    Simulation sim = new Simulation(s, mode, p, sharedFileSystem);
    Metrics m = sim.run();
    double wall = (System.nanoTime() - t0) / 1e9;
    Row r = new Row(experiment, variable, value, mode.label(), m, wall, sim.eventsFired());
    all.add(r);
    progress.accept(String.join(" ", r.cells()));
    return r;
  }

  List<Row> fractions() {
    List<Row> rows = new ArrayList<>();
    for (double f : FRACTIONS) {
      for (Mode m : compared) {
        rows.add(run("fraction", "slow share", f, base.with(FaultPlan.mix(f)), m,
            Policy.defaults()));
      }
    }
    return rows;
  }

  List<Row> slowRack() {
    List<Row> rows = new ArrayList<>();
    for (Mode m : compared) {
      rows.add(run("slow-rack", "racks slow", 1, base.with(FaultPlan.mix(0).rack()), m,
          Policy.defaults()));
    }
    return rows;
  }

  /** 10% slow from a third of the run to two thirds: all at once, or onsets spread over it. */
  List<Row> onsets() {
    List<Row> rows = new ArrayList<>();
    long d = base.durationNanos();
    for (int spread = 0; spread <= 1; spread++) {
      FaultPlan f = FaultPlan.mix(0.1).withOnset(d / 3, spread * d / 6, 2 * d / 3);
      for (Mode m : compared) {
        rows.add(run("onsets", "spread (share of run)", spread / 6.0, base.with(f), m,
            Policy.defaults()));
      }
    }
    return rows;
  }

  /** One threshold at a time over its values, the rest at the client's defaults. */
  List<Row> sensitivity(String name, double[] values, double fraction, Mode mode) {
    List<Row> rows = new ArrayList<>();
    for (double v : values) {
      rows.add(run("sensitivity", name, v, base.with(FaultPlan.mix(fraction)), mode,
          Policy.defaults().with(name, v)));
    }
    return rows;
  }

  List<Row> all() {
    return all;
  }

  /** Every experiment, written as a report in {@code out}. */
  void everything(Report r, double sensitivityFraction) throws IOException {
    if (parts.contains("fraction")) {
      fractionSection(r);
    }
    if (parts.contains("rack")) {
      r.text("## A slow rack\n\nEvery DataNode of the first rack has one of the three faults.");
      r.rows(slowRack());
    }
    if (parts.contains("onsets")) {
      r.text("## Correlated onsets\n\n10% of DataNodes turn slow a third into the run and heal"
          + " at two thirds: all at once (spread 0), or their onsets spread over a sixth of the"
          + " run.");
      r.rows(onsets());
    }
    if (parts.contains("sensitivity")) {
      sensitivitySection(r, sensitivityFraction);
    }
    if (parts.contains("budget")) {
      budgetSection(r);
    }
  }

  private void fractionSection(Report r) throws IOException {
    r.text("## p99 and extra load against the share of slow DataNodes\n\nThe benchmark's three"
        + " faults in equal parts (slow disk, throttled, stalls) on a random share of"
        + " DataNodes for the whole run.");
    List<Row> f = fractions();
    r.rows(f);
    r.plot("fraction-read-p99", "read p99 vs slow share", "share of DataNodes slow", "ms", f,
        x -> x.m().quantileMs(Metrics.Op.READ, 0.99));
    r.plot("fraction-pread-p99", "pread p99 vs slow share", "share of DataNodes slow", "ms", f,
        x -> x.m().quantileMs(Metrics.Op.PREAD, 0.99));
    r.plot("fraction-write-p99", "write p99 vs slow share", "share of DataNodes slow", "ms", f,
        x -> x.m().quantileMs(Metrics.Op.WRITE, 0.99));
    r.plot("fraction-hedged", "hedged bytes vs slow share", "share of DataNodes slow",
        "% of bytes read", f, x -> 100 * x.m().hedgedShare());
    r.plot("fraction-rebuild", "rebuild bytes vs slow share", "share of DataNodes slow",
        "% of bytes written", f, x -> 100 * x.m().rebuildShare());
    r.plot("fraction-replacements", "replacements per block vs slow share",
        "share of DataNodes slow", "replacements per block", f,
        x -> x.m().replacementsPerBlock());
  }

  private void sensitivitySection(Report r, double sensitivityFraction) throws IOException {
    r.text("## Sensitivity to each threshold\n\nCurtail at " + (int) (100 * sensitivityFraction)
        + "% slow, one threshold varied at a time, the others at the client's defaults.");
    double[][] values = {{0.9, 0.95, 0.99}, {1.5, 2, 3, 5, 8}, {10, 20, 50, 100},
        {5, 10, 25, 50, 100}, {2, 16, 64}, {0.01, 0.03, 0.1, 0.3, 1}, {0, 1.5, 2, 4}};
    String[] names = {"percentile", "factor", "window", "floor-ms", "backoff", "budget",
        "load-factor"};
    for (int i = 0; i < names.length; i++) {
      List<Row> s = sensitivity(names[i], values[i], sensitivityFraction, Mode.CURTAIL);
      r.rows(s);
      r.plot("sens-" + names[i] + "-p99", "p99 vs " + names[i], names[i], "ms", s,
          x -> x.m().quantileMs(Metrics.Op.READ, 0.99));
      r.plot("sens-" + names[i] + "-load", "hedged bytes vs " + names[i], names[i],
          "% of bytes read", s, x -> 100 * x.m().hedgedShare());
    }
    List<Row> sb = sensitivity("stock-threshold-ms", new double[] {10, 50, 200, 500},
        sensitivityFraction, Mode.STOCK_BEST);
    r.text("stock-best's static hedging threshold (Hadoop's hedged reads, positional reads only):");
    r.rows(sb);
  }

  private void budgetSection(Report r) throws IOException {
    r.text("## The hedge budget where many DataNodes are slow\n\nCurtail at 30% slow.");
    List<Row> b = sensitivity("budget", new double[] {0.01, 0.03, 0.1, 0.3, 1}, 0.3,
        Mode.CURTAIL);
    r.rows(b);
    r.plot("budget-30pct-p99", "p99 vs hedge budget, 30% slow", "budget ratio", "ms", b,
        x -> x.m().quantileMs(Metrics.Op.READ, 0.99));
    r.plot("budget-30pct-load", "hedged bytes vs hedge budget, 30% slow", "budget ratio",
        "% of bytes read", b, x -> 100 * x.m().hedgedShare());
  }
}
