package io.curtail.sim;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The benchmark's own cluster and scenarios, simulated, beside what the benchmark measured: a
 * simulator that cannot reproduce what the machine measures predicts nothing.
 *
 * <p>The benchmark's embedded cluster runs its 5 DataNodes and its 6 clients in one process on
 * one host, so healthy work (a packet read from the page cache, checksummed and sent; received
 * and written) queues for the host's cores, shared by all: {@link Setup#hostCores}. Its faults
 * are queues of their own (the slow disk's FIFO sleeps, the read throttle's waits; neither uses
 * a core). A batch's clients share one file system, whose knowledge starts cold; the NameNode
 * places blocks without regard to load; each client reads files of its own, once each
 * ({@link Simulation#likeTheBenchmark}). Its {@code oracle} is the stock client with the fault
 * not injected: here stock on a healthy cluster ({@code healthy}). Stock-client modes wait 400 ms
 * and then 800 ms at a file's close while the NameNode has not heard of a finished replica
 * (Hadoop's {@code dfs.client.block.write.locateFollowingBlock.initial.delay.ms}), Curtail 25 ms
 * and doubling.
 *
 * <p>Everything the host adds is fitted on the healthy mode alone ({@link #benchHost}, its
 * slow spells {@link #benchSpells}): the fault modes' figures are predictions, never fits. Each
 * simulated figure is the median over seeds of the p50 or p99 of as many files as the
 * benchmark's (its rounds each a run of their own, cold, pooled; all of a seed's rounds and
 * modes read the same files, placed once, as the benchmark's read the files it wrote once).
 */
public final class Calibration {
  /** One of the benchmark's scenarios: its name, operation, fault on dn0 and workload. */
  record Scenario(String name, Metrics.Op op, Fault.Kind fault, Workload workload) {
    /** Files of one round: 6 clients, each its workload's operations. */
    int filesPerRound() {
      return CLIENTS * workload.opsPerClient();
    }
  }

  static final int CLIENTS = 6;
  /** Seeds the placement of a seed's files, the same in all its rounds and modes. */
  static final long FILES_SEED = 7_000L;
  static final Scenario[] SCENARIOS = {
      new Scenario("read-throttled", Metrics.Op.READ, Fault.Kind.THROTTLED, Workload.reads(6)),
      new Scenario("pread-throttled", Metrics.Op.PREAD, Fault.Kind.THROTTLED,
          Workload.preadFiles(6)),
      new Scenario("write-slow-disk", Metrics.Op.WRITE, Fault.Kind.SLOW_DISK, Workload.writes(4)),
  };
  /** The benchmark's modes, and the simulated one standing for each. */
  static final String[] MODES = {"stock", "curtail", "oracle"};

  /**
   * The spells in which the machine the benchmark shares with other sessions gives it less of
   * its cores: one every {@code everyNanos} on average, each an exponentially distributed time of
   * mean {@code meanNanos}, at {@code speed} of the usual ({@link Simulation#slowSpells}).
   */
  record Spells(long everyNanos, long meanNanos, double speed) {
  }

  /**
   * The calibrated service times of the benchmark's host, fitted on 2026-11-29 to a benchmark
   * run whose check of the bytes read costs 0.25 ms a MiB. Per 64 KiB packet: a DataNode's disk
   * 19 + 8 µs and wire 19 + 31 µs for a read, 1.2 times that to receive and write one, the
   * client 28 µs, each exponentially distributed (jitter 1); a DataNode tells the NameNode of a
   * finished block after an exponential time of mean 50 µs, so that a stock close asks again,
   * and waits 400 ms, for about a third of files (the benchmark's healthy writes: 32%). Fitted
   * on the healthy mode's p50 and p99 of each scenario and its share of writes over 400 ms
   * (curtail-sim/RESULTS.md, <i>Again, after the benchmark's check was made cheap</i>: two grids
   * of 144, the best ten again with more seeds), with {@link #benchSpells}: the earlier fit's
   * costs, all scaled by 0.35 and the client's by 0.5 more.
   */
  public static Hardware benchHost() {
    return new Hardware(2_500_000_000L, 64_000L, 625_000_000L, 64_000L, 20_000L, 190_000L, 1.0,
        50_000L).scaled(0.85).scaled(0.35).withClientCost(0.5).withWriteCost(1.2);
  }

  /**
   * The calibrated slow spells of the benchmark's host: one every 150 ms on average, of 30 ms on
   * average, at 0.3 of the cores' speed (fitted with {@link #benchHost}): a busy machine's
   * scheduler, six clients and five DataNodes on two cores, rather than another session's build.
   * They make the healthy files' tail (a p99 over twice the p50), which per-packet jitter alone,
   * averaged over a file's 64 packets, does not.
   */
  static Spells benchSpells() {
    return new Spells(150_000_000L, 30_000_000L, 0.3);
  }

  /**
   * One simulated scenario and mode: the median over seeds of its p50 and p99, and the share of
   * its files that took 400 ms or more, and of its closes that asked the NameNode again.
   */
  record Simulated(double p50Ms, double p99Ms, double over400, double closesRetried,
      double[] p50sMs, double[] p99sMs) {
  }

  /** The table: per scenario, each mode's simulated and measured figures. */
  record Result(List<String[]> rows, List<String[]> ratios, int met, int compared) {
  }

  static Setup setup(Scenario sc, Hardware hw, long seed, boolean faulty) {
    FaultPlan f = faulty ? FaultPlan.dn0(sc.fault()) : FaultPlan.none();
    return new Setup(5, 1, CLIENTS, CLIENTS, false, sc.filesPerRound(), sc.workload(), f, hw,
        600_000_000_000L, 0, seed, 2);
  }

  /**
   * {@code mode} in {@code sc}: for each of {@code seeds} seeds, {@code rounds} runs of a round
   * each (their files pooled, as the benchmark's rounds; each seed's files placed once, the same
   * in every round and mode), its p50 and p99; the median of each.
   */
  static Simulated simulate(Scenario sc, String mode, int rounds, Hardware hw, Spells spells,
      int seeds) {
    return simulate(sc, mode, rounds, hw, spells, seeds, null);
  }

  /**
   * The same, and each file's row written to {@code samples} (if not null) as the benchmark's
   * {@code samples.csv} has them, with the seed: {@link #SAMPLES_HEADER}.
   */
  static Simulated simulate(Scenario sc, String mode, int rounds, Hardware hw, Spells spells,
      int seeds, PrintWriter samples) {
    double[] p50 = new double[seeds];
    double[] p99 = new double[seeds];
    double[] over400 = new double[seeds];
    double[] retried = new double[seeds];
    for (int s = 0; s < seeds; s++) {
      List<double[]> runs = new ArrayList<>();
      int n = 0;
      long retries = 0;
      for (int r = 0; r < rounds; r++) {
        Setup setup = setup(sc, hw, 1000L + (long) s * rounds + r, !mode.equals("oracle"));
        // The benchmark writes a scenario's files once and reads them in every round and mode:
        // which of them the faulty DataNode holds is one draw per run (seed), not per round.
        Simulation run = new Simulation(setup, mode.equals("curtail") ? Mode.CURTAIL : Mode.STOCK,
            Policy.defaults(), true).likeTheBenchmark().filesPlacedBy(filesSeed(sc, s));
        if (spells.everyNanos() > 0 && spells.speed() < 1) {
          run.slowSpells(spells.everyNanos(), spells.meanNanos(), spells.speed());
        }
        if (samples != null) {
          run.metrics.keepFiles();
        }
        Metrics m = run.run();
        if (samples != null) {
          long bytes = sc.workload().fileBytes();
          for (Metrics.File f : m.files) {
            samples.printf(Locale.ROOT, "%s,%s,%d,%d,%d,%d,%s,%.3f,%.3f,%d%n",
                sc.name(), mode, s, r, f.client(), f.seq(),
                f.op().name().toLowerCase(Locale.ROOT), f.startNanos() / 1e9,
                f.latencyNanos() / 1e6, bytes);
          }
        }
        retries += m.closeRetries();
        double[] l = m.sortedMs(sc.op());
        runs.add(l);
        n += l.length;
      }
      double[] all = new double[n];
      int k = 0;
      for (double[] l : runs) {
        System.arraycopy(l, 0, all, k, l.length);
        k += l.length;
      }
      Arrays.sort(all);
      p50[s] = nearestRank(all, 0.5);
      p99[s] = nearestRank(all, 0.99);
      int slow = 0;
      for (double l : all) {
        slow += l >= 400 ? 1 : 0;
      }
      over400[s] = (double) slow / Math.max(1, n);
      retried[s] = (double) retries / Math.max(1, n);
    }
    return new Simulated(median(p50), median(p99), median(over400), median(retried), p50, p99);
  }

  /**
   * The seed of the placement of {@code sc}'s files in seed {@code s}'s run: the same in all its
   * rounds and modes, and another for each scenario, whose files are others (the benchmark's
   * {@code Runner.prepare} writes each scenario's own).
   */
  static long filesSeed(Scenario sc, int s) {
    return FILES_SEED + 1_000L * Arrays.asList(SCENARIOS).indexOf(sc) + s;
  }

  /** Every scenario and mode the measured run has, simulated beside it. */
  static Result table(Measured measured, Hardware hw, Spells spells, int seeds) {
    return table(measured, hw, spells, seeds, List.of(MODES));
  }

  /** The same for {@code modes} only (the healthy one alone, to fit the host on it). */
  static Result table(Measured measured, Hardware hw, Spells spells, int seeds,
      List<String> modes) {
    return table(measured, hw, spells, seeds, modes, null);
  }

  /** The same, each simulated file written to {@code samples} if not null. */
  static Result table(Measured measured, Hardware hw, Spells spells, int seeds,
      List<String> modes, PrintWriter samples) {
    if (samples != null) {
      samples.println(SAMPLES_HEADER);
    }
    List<String[]> rows = new ArrayList<>();
    List<String[]> ratios = new ArrayList<>();
    int met = 0;
    int compared = 0;
    for (Scenario sc : SCENARIOS) {
      Measured.Figures[] meas = new Measured.Figures[MODES.length];
      Simulated[] sim = new Simulated[MODES.length];
      for (int m = 0; m < MODES.length; m++) {
        meas[m] = modes.contains(MODES[m]) ? measured.get(sc.name(), MODES[m]) : null;
        if (meas[m] != null) {
          int rounds = Math.max(1, Math.round((float) meas[m].files() / sc.filesPerRound()));
          sim[m] = simulate(sc, MODES[m], rounds, hw, spells, seeds, samples);
          rows.add(new String[] {sc.name(), MODES[m].equals("oracle") ? "healthy (bench: oracle)"
              : MODES[m], f(sim[m].p50Ms()), f(meas[m].p50Ms()), pct(sim[m].p50Ms()
              / meas[m].p50Ms()), f(sim[m].p99Ms()), f(meas[m].p99Ms()), pct(sim[m].p99Ms()
              / meas[m].p99Ms()), share(sim[m].over400()), share(meas[m].over400()),
              sc.op() == Metrics.Op.WRITE ? share(sim[m].closesRetried()) : "-",
              Integer.toString(meas[m].files())});
        }
      }
      // The ratios between modes: each faulty mode to healthy, and Curtail to stock.
      int[][] pairs = {{0, 2}, {1, 2}, {1, 0}};
      for (int[] p : pairs) {
        if (meas[p[0]] == null || meas[p[1]] == null) {
          continue;
        }
        for (int q = 0; q < 2; q++) {
          double s = q == 0 ? sim[p[0]].p50Ms() / sim[p[1]].p50Ms()
              : sim[p[0]].p99Ms() / sim[p[1]].p99Ms();
          double b = q == 0 ? meas[p[0]].p50Ms() / meas[p[1]].p50Ms()
              : meas[p[0]].p99Ms() / meas[p[1]].p99Ms();
          boolean ok = Math.abs(s / b - 1) <= 0.25;
          met += ok ? 1 : 0;
          compared++;
          double[] perSeed = new double[seeds];
          for (int k = 0; k < seeds; k++) {
            perSeed[k] = q == 0 ? sim[p[0]].p50sMs()[k] / sim[p[1]].p50sMs()[k]
                : sim[p[0]].p99sMs()[k] / sim[p[1]].p99sMs()[k];
          }
          Arrays.sort(perSeed);
          double[] ci = q == 1 ? measured.p99RatioInterval(sc.name(), MODES[p[0]], MODES[p[1]])
              : null;
          ratios.add(new String[] {sc.name(), (q == 0 ? "p50 " : "p99 ") + label(p[0]) + " / "
              + label(p[1]), r(s), r(nearestRank(perSeed, 0.1)) + "–" + r(nearestRank(perSeed,
              0.9)), r(b), ci == null ? "-" : r(ci[0]) + "–" + r(ci[1]), pct(s / b),
              ok ? "met" : "not met"});
        }
      }
    }
    return new Result(rows, ratios, met, compared);
  }

  private static String label(int mode) {
    return MODES[mode].equals("oracle") ? "healthy" : MODES[mode];
  }

  /** The columns of {@code --samples}: the benchmark's {@code samples.csv}'s, and the seed. */
  static final String SAMPLES_HEADER =
      "scenario,mode,seed,round,client,file,op,start_s,latency_ms,bytes";
  static final String[] HEADER = {"scenario", "mode", "sim p50 ms", "bench p50 ms", "p50 off by",
      "sim p99 ms", "bench p99 ms", "p99 off by", "sim files >= 400 ms", "bench files >= 400 ms",
      "sim closes retried", "bench files"};
  static final String[] RATIO_HEADER = {"scenario", "ratio", "sim", "sim, 10–90% of seeds",
      "bench", "bench 95% interval", "off by", "within ±25%"};

  private static String f(double v) {
    return String.format("%.1f", v);
  }

  private static String share(double v) {
    return Double.isNaN(v) ? "-" : String.format("%.0f%%", 100 * v);
  }

  private static String r(double v) {
    return v < 0.1 ? String.format("%.3fx", v) : String.format("%.2fx", v);
  }

  private static String pct(double v) {
    return String.format("%+.0f%%", (v - 1) * 100);
  }

  /** The {@code q} quantile of sorted {@code v} by nearest rank, as the benchmark's. */
  static double nearestRank(double[] v, double q) {
    int rank = (int) Math.ceil(q * v.length);
    return v[Math.max(0, Math.min(v.length - 1, rank - 1))];
  }

  /** The median over seeds (the upper of two middles). */
  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
