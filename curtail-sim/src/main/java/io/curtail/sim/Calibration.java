package io.curtail.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark's own cluster and scenarios, simulated, beside what the benchmark measured: a
 * simulator that cannot reproduce what the machine measures predicts nothing.
 *
 * <p>The benchmark's embedded cluster runs its 5 DataNodes and its clients in one process on one
 * host, so healthy work (a packet read from the page cache, checksummed and sent; received and
 * written) queues for the host's cores, shared by all: {@link Setup#hostCores}. Its faults
 * are queues of their own (the slow disk's FIFO sleeps, the throttle sleeps; neither uses a
 * core). Its {@code oracle} is the stock client with the fault not injected, here stock on a
 * healthy cluster ({@code healthy}). The service times were fitted on that healthy mode alone
 * (its p50 per scenario: 86 and 209 ms simulated against 91 and 202 measured), so the fault
 * modes' figures are predictions, not fits. The JVM's pauses (one every 0.5 s on average, of
 * 40 ms on average) stand for what makes the benchmark's healthy files vary; they were set by
 * eye from three tries, and the simulated healthy tail is still shorter than the measured one.
 * Each figure is the median over seeds of one simulated run's (as many files as the benchmark's).
 */
public final class Calibration {
  /**
   * What the benchmark measured: {@code java -jar bench/target/curtail-bench.jar -m
   * stock,curtail,oracle -s read-throttled,write-slow-disk --rounds 1}, 2026-11-25 09:42 UTC,
   * two shared cores. Per scenario: p50 and p99 ms of stock, curtail, oracle.
   */
  static final double[][] MEASURED = {
      {52.9, 6979.2, 80.0, 176.4, 91.4, 176.1}, // read-throttled, 36 files
      {1748.8, 4184.0, 159.2, 620.2, 201.8, 1227.0}, // write-slow-disk, 24 files
  };
  static final String SOURCE = "`java -jar bench/target/curtail-bench.jar -m stock,curtail,oracle"
      + " -s read-throttled,write-slow-disk --rounds 1`, 2026-11-25 09:42 UTC, two shared cores";
  static final String[] SCENARIOS = {"read-throttled", "write-slow-disk"};

  /** The calibrated service times of the benchmark's host (see the class comment). */
  public static Hardware benchHost() {
    return new Hardware(2_500_000_000L, 64_000L, 625_000_000L, 64_000L, 20_000L, 190_000L, 1.0,
        50_000L);
  }

  static Setup setup(int scenario, Hardware hw, long seed, int cores) {
    boolean reads = scenario == 0;
    Workload w = reads ? Workload.reads(6) : Workload.writes(4);
    FaultPlan f = FaultPlan.dn0(reads ? Fault.Kind.THROTTLED : Fault.Kind.SLOW_DISK);
    return new Setup(5, 1, 6, 6, false, 36, w, f, hw, 600_000_000_000L, 0, seed, cores);
  }

  /** One row per scenario and mode: simulated and measured p50 and p99 ratios to healthy. */
  /** The shared JVM's pauses (see {@link Simulation#pauses}): one every, of mean. */
  static long pauseEvery = 500_000_000L;
  static long pauseMean = 40_000_000L;

  public static List<String[]> table(Hardware hw, int seeds, int cores) {
    List<String[]> rows = new ArrayList<>();
    between.clear();
    for (int sc = 0; sc < SCENARIOS.length; sc++) {
      Metrics.Op op = sc == 0 ? Metrics.Op.READ : Metrics.Op.WRITE;
      double[][] sim = new double[3][];
      for (int m = 0; m < 3; m++) {
        double[] p50 = new double[seeds];
        double[] p99 = new double[seeds];
        for (int s = 0; s < seeds; s++) {
          Setup setup = setup(sc, hw, 1000 + s, cores);
          if (m == 2) {
            setup = setup.with(FaultPlan.none());
          }
          Simulation run = new Simulation(setup, m == 1 ? Mode.CURTAIL : Mode.STOCK,
              Policy.defaults());
          if (pauseEvery > 0) {
            run.pauses(pauseEvery, pauseMean);
          }
          Metrics r = run.run();
          p50[s] = r.quantileMs(op, 0.5);
          p99[s] = r.quantileMs(op, 0.99);
        }
        sim[m] = new double[] {median(p50), median(p99)};
      }
      double[] meas = MEASURED[sc];
      between.add(new String[] {SCENARIOS[sc], "curtail / stock", r(sim[1][0] / sim[0][0]),
          r(meas[2] / meas[0]), pct(sim[1][0] / sim[0][0] / (meas[2] / meas[0])),
          r(sim[1][1] / sim[0][1]), r(meas[3] / meas[1]),
          pct(sim[1][1] / sim[0][1] / (meas[3] / meas[1]))});
      String[] modes = {"stock", "curtail", "healthy (bench: oracle)"};
      for (int m = 0; m < 3; m++) {
        double sp50 = sim[m][0] / sim[2][0];
        double sp99 = sim[m][1] / sim[2][1];
        double mp50 = meas[2 * m] / meas[4];
        double mp99 = meas[2 * m + 1] / meas[5];
        rows.add(new String[] {SCENARIOS[sc], modes[m], f(sim[m][0]), f(meas[2 * m]),
            f(sim[m][1]), f(meas[2 * m + 1]), pct(sim[m][1] / meas[2 * m + 1]), r(sp50), r(mp50),
            pct(sp50 / mp50), r(sp99), r(mp99), pct(sp99 / mp99)});
      }
    }
    return rows;
  }

  /** Curtail's figures as ratios to stock's, simulated and measured: filled by {@link #table}. */
  static final List<String[]> between = new ArrayList<>();
  static final String[] BETWEEN_HEADER = {"scenario", "ratio", "sim p50", "bench p50",
      "p50 off by", "sim p99", "bench p99", "p99 off by"};

  static final String[] HEADER = {"scenario", "mode", "sim p50 ms", "bench p50 ms",
      "sim p99 ms", "bench p99 ms", "p99 off by", "sim p50/healthy", "bench p50/healthy", "p50 off by",
      "sim p99/healthy", "bench p99/healthy", "p99 off by"};

  private static String f(double v) {
    return String.format("%.1f", v);
  }

  private static String r(double v) {
    return String.format("%.2fx", v);
  }

  private static String pct(double v) {
    return String.format("%+.0f%%", (v - 1) * 100);
  }

  /**
   * The median over seeds of a statistic of one run: the benchmark's figures are one run's (36
   * or 24 files, so its p99 is its slowest file), and so is each simulated run's.
   */
  static double median(double[] v) {
    double[] s = v.clone();
    java.util.Arrays.sort(s);
    return s[s.length / 2];
  }
}
