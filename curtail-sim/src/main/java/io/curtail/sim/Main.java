package io.curtail.sim;

import java.io.BufferedWriter;
import java.io.File;
import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The command line: {@code java -jar curtail-sim.jar simulate|study|calibrate [options]}. */
public final class Main {
  static final String HELP = """
      usage: java -jar curtail-sim.jar COMMAND [--option value ...]

      A discrete-event simulation of an HDFS cluster whose clients decide with Curtail's own
      policy classes (hedging, replica order, fail-fast, attribution) on a simulated clock.

      commands:
        simulate    one run per mode; prints each mode's row, wall time and packets/s
        study       the questions of issue 37: p99 and load vs the share of slow DataNodes,
                    a slow rack, correlated onsets, each threshold's sensitivity, the budget
        calibrate   the benchmark's cluster (5 DataNodes, one host) and scenarios, simulated,
                    beside the benchmark's measured figures
        --help      this text

      options (defaults in brackets):
        --datanodes N         DataNodes [1000]
        --racks N             racks [datanodes / 20]
        --clients N           clients [datanodes]
        --clients-per-jvm N   clients sharing a JVM's knowledge and hedge budget [50]
        --minutes M           simulated minutes [10]
        --warmup-s S          seconds of each run not counted [60]
        --pace-ms MS          each client starts an operation every MS (an open loop) [10000]
        --mix R,P,W           weights of sequential reads, 1 MiB preads, writes [2,1,1]
        --fraction F          share of DataNodes slow, for simulate [0.05]
        --faults D,T,S        weights of slow disks, throttled, stalls [1,1,1]
        --modes LIST          stock,stock-best,curtail,oracle [all]; calibrate: the
                              benchmark's modes stock,curtail,oracle [all three]
        --knowledge-nodes N   curtail.knowledge.max.nodes per JVM [1024, the client's]
        --sensitivity-fraction F  the slow share the sensitivity runs use [0.1]
        --parts LIST          study: fraction,rack,onsets,sensitivity,budget [all]
        --shared-file-system true   a JVM's clients share one file system's read state
                              (thresholds, backoffs), as threads sharing Hadoop's cached
                              FileSystem do [each client its own]
        --seed N              of every random choice; a run is a function of it [1]
        --seeds N             calibrate: seeds per scenario and mode [21]
        --measured PATH       calibrate: the benchmark's results directory (or its summary.csv)
                              to compare with [the run the simulator was fitted on]
        --samples FILE        calibrate: every simulated file's row written to FILE, as the
                              benchmark's samples.csv (with the seed) [none]
        --cost-scale F, --client-cost F, --write-cost F, --report-us US,
        --spell-every-ms MS, --spell-mean-ms MS, --spell-speed F
                              calibrate: the host's fitted per-packet costs (times F; the
                              client's alone times F; a DataNode's write costs F times its
                              read's), block-report delay and slow spells, to fit them again
                              on a new healthy run
        --out DIR             where report.md, results.csv and plots/ go [sim-results/<time>]
      """;

  public static void main(String[] args) throws IOException {
    System.exit(run(args, System.out));
  }

  static int run(String[] args, PrintStream out) throws IOException {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      out.print(HELP);
      return args.length == 0 ? 2 : 0;
    }
    String command = args[0];
    Map<String, String> o = options(args);
    if (o.containsKey("help")) {
      out.print(HELP);
      return 0;
    }
    File dir = new File(o.getOrDefault("out",
        "sim-results/" + Instant.now().toString().replace(':', '-').substring(0, 19)));
    Report report = new Report(dir);
    switch (command) {
      case "calibrate" -> calibrate(report, o, out);
      case "simulate" -> simulate(setup(o), o, report, out);
      case "study" -> {
        Study s = new Study(setup(o), out::println)
            .sharedFileSystem(o.containsKey("shared-file-system"));
        if (o.containsKey("modes")) {
          s.modes(java.util.Arrays.stream(o.get("modes").split(",")).map(Mode::of)
              .toArray(Mode[]::new));
        }
        if (o.containsKey("parts")) {
          s.parts(java.util.Set.of(o.get("parts").split(",")));
        }
        report.text("# Curtail simulated: " + describe(setup(o)));
        s.everything(report, Double.parseDouble(o.getOrDefault("sensitivity-fraction", "0.1")));
      }
      default -> {
        out.println("unknown command '" + command + "': simulate, study or calibrate (--help)");
        return 2;
      }
    }
    report.write();
    out.println("Results: " + dir + " (report.md, results.csv, plots/)");
    return 0;
  }

  private static void calibrate(Report r, Map<String, String> o, PrintStream out)
      throws IOException {
    int seeds = Integer.parseInt(o.getOrDefault("seeds", "21"));
    Measured measured = o.containsKey("measured") ? Measured.read(new File(o.get("measured")))
        : Measured.fitted();
    Hardware hw = Calibration.benchHost();
    if (o.containsKey("cost-scale")) {
      hw = hw.scaled(Double.parseDouble(o.get("cost-scale")));
    }
    if (o.containsKey("client-cost")) {
      hw = hw.withClientCost(Double.parseDouble(o.get("client-cost")));
    }
    if (o.containsKey("write-cost")) {
      hw = hw.withWriteCost(Double.parseDouble(o.get("write-cost")));
    }
    if (o.containsKey("report-us")) {
      hw = hw.withReportNanos(Long.parseLong(o.get("report-us")) * 1_000L);
    }
    Calibration.Spells p = Calibration.benchSpells();
    p = new Calibration.Spells(
        (long) (Double.parseDouble(o.getOrDefault("spell-every-ms",
            Double.toString(p.everyNanos() / 1e6))) * 1e6),
        (long) (Double.parseDouble(o.getOrDefault("spell-mean-ms",
            Double.toString(p.meanNanos() / 1e6))) * 1e6),
        Double.parseDouble(o.getOrDefault("spell-speed", Double.toString(p.speed()))));
    PrintWriter samples = o.containsKey("samples")
        ? new PrintWriter(new BufferedWriter(new FileWriter(
            o.get("samples"), StandardCharsets.UTF_8))) : null;
    Calibration.Result t = Calibration.table(measured, hw, p, seeds,
        List.of(o.getOrDefault("modes", "stock,curtail,oracle").split(",")), samples);
    if (samples != null) {
      samples.close();
    }
    r.text("# Calibration: the benchmark's cluster and scenarios, simulated and measured\n\n"
        + "Simulated: the median over " + seeds + " seeds of the p50 and p99 of as many files as"
        + " the benchmark's (its rounds each a cold run, pooled, all of a seed's rounds and modes"
        + " reading the same files, placed once); host " + hw + "; slow spells"
        + " one every " + p.everyNanos() / 1e6 + " ms on average, of mean " + p.meanNanos() / 1e6
        + " ms, at " + p.speed() + " of the cores' speed."
        + " Measured: " + measured.source() + ".");
    r.table(Calibration.HEADER, t.rows());
    r.text("The ratios between modes, the bar (within ±25%): " + t.met() + " of " + t.compared()
        + " met.");
    r.table(Calibration.RATIO_HEADER, t.ratios());
    r.csv(Calibration.HEADER, t.rows());
    for (String[] row : t.rows()) {
      out.println(String.join(" | ", row));
    }
    for (String[] row : t.ratios()) {
      out.println(String.join(" | ", row));
    }
    out.println("ratios within ±25%: " + t.met() + " of " + t.compared());
  }

  private static void simulate(Setup s, Map<String, String> o, Report r, PrintStream out) {
    List<Row> rows = new ArrayList<>();
    Study study = new Study(s, out::println)
        .sharedFileSystem(o.containsKey("shared-file-system"));
    double f = Double.parseDouble(o.getOrDefault("fraction", "0.05"));
    FaultPlan faults = faults(o, f);
    for (String m : o.getOrDefault("modes", "stock,stock-best,curtail,oracle").split(",")) {
      Policy p = Policy.defaults().with("knowledge-nodes",
          Integer.parseInt(o.getOrDefault("knowledge-nodes", "1024")));
      Row row = study.run("simulate", "slow share", f, s.with(faults), Mode.of(m), p);
      rows.add(row);
      out.printf("%s: %.1f s wall, %d packets, %.0f packets/s, %d events, %d MiB heap used%n",
          m, row.wallSeconds(), row.m().packets(), row.m().packets() / row.wallSeconds(),
          row.events(), (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory())
              >> 20);
    }
    r.text("# Curtail simulated: " + describe(s) + ", " + (int) Math.round(100 * f)
        + "% of DataNodes slow");
    r.rows(rows);
  }

  static FaultPlan faults(Map<String, String> o, double fraction) {
    String[] w = o.getOrDefault("faults", "1,1,1").split(",");
    return new FaultPlan(fraction, 0, false, Integer.parseInt(w[0]), Integer.parseInt(w[1]),
        Integer.parseInt(w[2]), 0, 0, Long.MAX_VALUE);
  }

  static Setup setup(Map<String, String> o) {
    int dns = Integer.parseInt(o.getOrDefault("datanodes", "1000"));
    int racks = Integer.parseInt(o.getOrDefault("racks", Integer.toString(Math.max(1, dns / 20))));
    int clients = Integer.parseInt(o.getOrDefault("clients", Integer.toString(dns)));
    int perJvm = Integer.parseInt(o.getOrDefault("clients-per-jvm", "50"));
    long minutes = Long.parseLong(o.getOrDefault("minutes", "10"));
    long warmup = Long.parseLong(o.getOrDefault("warmup-s", "60"));
    long pace = Long.parseLong(o.getOrDefault("pace-ms", "10000"));
    String[] mix = o.getOrDefault("mix", "2,1,1").split(",");
    Workload w = new Workload(Integer.parseInt(mix[0]), Integer.parseInt(mix[1]),
        Integer.parseInt(mix[2]), 4 * Workload.MIB, Workload.MIB, 16 * Workload.MIB,
        pace * 1_000_000L, 0);
    return new Setup(dns, racks, clients, perJvm, true, 2 * clients, w,
        faults(o, Double.parseDouble(o.getOrDefault("fraction", "0.05"))),
        Hardware.datacentre(), minutes * 60_000_000_000L, warmup * 1_000_000_000L,
        Long.parseLong(o.getOrDefault("seed", "1")), 0);
  }

  static String describe(Setup s) {
    return s.datanodes() + " DataNodes in " + s.racks() + " racks, " + s.clients()
        + " clients (" + s.clientsPerJvm() + " a JVM), " + s.durationNanos() / 60_000_000_000L
        + " simulated minutes, an operation every " + s.workload().paceNanos() / 1_000_000
        + " ms per client (reads:preads:writes " + s.workload().reads() + ":"
        + s.workload().preads() + ":" + s.workload().writes() + "), seed " + s.seed();
  }

  /** Every option {@link #HELP} names: a misspelt one is refused, not silently ignored. */
  private static final Set<String> OPTIONS = Set.of("datanodes", "racks", "clients",
      "clients-per-jvm", "minutes", "warmup-s", "pace-ms", "mix", "fraction", "faults", "modes",
      "knowledge-nodes", "sensitivity-fraction", "parts", "shared-file-system", "seed", "seeds",
      "measured", "samples", "cost-scale", "client-cost", "write-cost", "report-us",
      "spell-every-ms", "spell-mean-ms", "spell-speed", "out", "help");

  private static Map<String, String> options(String[] args) {
    Map<String, String> o = new HashMap<>();
    for (int i = 1; i < args.length; i++) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected an --option, got '" + args[i] + "'");
      }
      String key = args[i].substring(2);
      if (!OPTIONS.contains(key)) {
        throw new IllegalArgumentException("unknown option '" + args[i] + "' (--help lists them)");
      }
      if (key.equals("help")) {
        o.put(key, "");
      } else if (i + 1 < args.length) {
        o.put(key, args[++i]);
      } else {
        throw new IllegalArgumentException("--" + key + " needs a value");
      }
    }
    return o;
  }
}
