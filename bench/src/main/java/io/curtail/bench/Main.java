package io.curtail.bench;

import io.curtail.bench.soak.Soak;
import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.conf.InvalidConfigException;
import io.curtail.tools.stats.StatsAnalyzer;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The tail-latency benchmark: {@code java -jar bench/target/curtail-bench.jar [options]}.
 *
 * <p>By default it starts an embedded fault-injecting cluster, runs every scenario with every
 * mode, prints a table per scenario and writes JSON, CSV, plots and a Markdown report under
 * {@code results/<time>/}. {@code --fs hdfs://host:port} runs the same workload against a real
 * cluster instead. A mistake on the command line gets one line saying what was wrong.
 */
@Command(name = "curtail-bench", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Compares stock HDFS clients and Curtail on per-file latency under injected"
        + " DataNode faults.")
public final class Main implements Callable<Integer> {
  @Option(names = {"-s", "--scenario"}, split = ",", paramLabel = "NAME",
      description = "Scenarios or groups of them to run: default, kinds (of slow, for blame),"
          + " ec (erasure-coded), all (default: default; --list shows them).")
  List<String> scenarioNames = new ArrayList<>();

  @Option(names = {"-m", "--mode"}, paramLabel = "MODES",
      description = "Comma-separated modes to compare, or 'all' (default: all that apply but"
          + " the ablations stock-hedged and curtail-static).")
  String modes;

  @Option(names = "--scale", defaultValue = "1.0",
      description = "Multiplies the files each client handles (default: ${DEFAULT-VALUE}).")
  double scale;

  @Option(names = "--rounds", defaultValue = "2",
      description = "Rounds per scenario; modes alternate within each (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--duration", paramLabel = "MINUTES", defaultValue = "0",
      description = "Run each scenario at least this long, rounds after rounds, watching the"
          + " NameNode's slow-node reports; Curtail modes keep what they learn across batches"
          + " (default: 0, exactly --rounds).")
  double durationMinutes;

  @Option(names = "--warm-knowledge", description = "Each Curtail mode keeps what it learnt of the"
      + " DataNodes from one batch to the next, as a long-lived JVM's file systems share it;"
      + " by default every batch starts cold (--duration implies it).")
  boolean warmKnowledge;

  @Option(names = "--stock-best-thresholds", paramLabel = "MS", split = ",",
      defaultValue = "10,50,200",
      description = "Hedge thresholds stock-best runs at where positional reads use them, a"
          + " batch each; the best is reported (default: ${DEFAULT-VALUE}).")
  List<Long> stockBestThresholds;

  @Option(names = "--background", paramLabel = "STREAMS",
      description = "Background streams kept open during every scenario (default: the"
          + " scenario's own, 2 in mixed, else 0).")
  Integer background;

  @Option(names = "--pace", paramLabel = "MS", defaultValue = "0",
      description = "Start each client's files this many ms apart instead of back to back, and"
          + " time each from when it was due: modes compared at the same load (default:"
          + " ${DEFAULT-VALUE}, back to back).")
  long paceMs;

  @Option(names = "--interleave", description = "Run the modes of a scenario in the same batches,"
      + " each client alternating its files between them: overheads of a percent, which"
      + " batches apart cannot resolve on a shared machine. Scenarios without a fault; CPU time is"
      + " then not told apart per mode.")
  boolean interleave;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of all file contents.")
  long seed;

  @Option(names = "--fs", paramLabel = "URI",
      description = "Run against this cluster (hdfs://host:port) instead of an embedded one.")
  String fs;

  @Option(names = "--fault-on", paramLabel = "COMMAND", description = "With --fs: a shell command"
      + " that injects the scenario's fault (its name in $CURTAIL_SCENARIO) before each faulty"
      + " mode's batch, e.g. 'docker/local-cluster shape 2 16mbit'; oracle runs without it.")
  String faultOn;

  @Option(names = "--fault-off", paramLabel = "COMMAND",
      description = "With --fault-on: the shell command that lifts the fault after the batch.")
  String faultOff;

  @Option(names = "--datanodes", paramLabel = "HOST:PORT,...", split = ",",
      description = "With --fs: the DataNodes' transfer addresses in the benchmark's numbering,"
          + " dn0 (the one --fault-on slows) first and dn1 (the far end of a slow link) next:"
          + " scenarios that place pipelines then run, and decisions are labelled.")
  List<String> dataNodes;

  @Option(names = "--out", defaultValue = "results",
      description = "Directory under which each run's results go (default: ${DEFAULT-VALUE}).")
  File out;

  @Option(names = "--hedge-threshold-ms", defaultValue = "100",
      description = "Static hedging threshold of stock-hedged (default: ${DEFAULT-VALUE},"
          + " the paper's §6.2 setting).")
  long hedgeThresholdMs;

  @Option(names = "--cohorts", paramLabel = "COHORTS", defaultValue = "",
      description = "A/B cohorts for the curtail-ab mode, as curtail.ab.cohorts (e.g."
          + " control=50:none,all=50:failfast+smart): a batch per cohort, each as a host the"
          + " cohorts place in it, writing per-block statistics under the results.")
  String cohorts;

  @Option(names = "-D", paramLabel = "KEY=VALUE",
      description = "A client setting (curtail.* or Hadoop), applied under every mode.")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(names = "--list", description = "List the scenarios and modes, and exit.")
  boolean list;

  private final PrintStream stdout;
  private final PrintStream stderr;
  private final boolean terminal;
  private File resultsDir;
  private RunResult result;

  Main(PrintStream stdout, PrintStream stderr, boolean terminal) {
    this.stdout = stdout;
    this.stderr = stderr;
    this.terminal = terminal;
  }

  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    System.exit(run(args, System.out, System.err, System.console() != null));
  }

  /**
   * Runs the benchmark with {@code args}, with {@code stats PATH…} the analyzer of per-block
   * statistics ({@link StatsAnalyzer}), or with {@code soak} the soak under rotating faults
   * ({@link Soak}); returns the exit code (0 ok, 1 failed, 2 usage).
   */
  static int run(String[] args, PrintStream stdout, PrintStream stderr, boolean terminal) {
    Main main = new Main(stdout, stderr, terminal);
    return new CommandLine(main)
        .addSubcommand("stats", new StatsAnalyzer(stdout))
        .addSubcommand("soak", new Soak(stdout))
        .setOut(new java.io.PrintWriter(stdout, true))
        .setErr(new java.io.PrintWriter(stderr, true))
        .setParameterExceptionHandler((e, a) -> {
          stderr.println("curtail-bench: " + e.getMessage() + " (see --help)");
          return 2;
        })
        .setExecutionExceptionHandler((e, cmd, parsed) -> {
          stderr.println("curtail-bench: " + oneLine(e));
          return e instanceof IllegalArgumentException ? 2 : 1;
        })
        .execute(args);
  }

  private static String oneLine(Throwable e) {
    String m = e.getMessage();
    return (m == null ? e.getClass().getSimpleName() : m).split("\n")[0];
  }

  @Override
  public Integer call() throws Exception {
    if (list) {
      for (Map.Entry<String, List<Scenario>> g : Scenarios.groups().entrySet()) {
        stdout.println("group " + g.getKey() + ":");
        for (Scenario s : g.getValue()) {
          stdout.printf("%-16s %s%n%16s fault: %s; workload: %s%n", s.name(), s.description(), "",
              s.faultDescription(), s.workload());
        }
      }
      stdout.println("modes: " + Mode.parse("all") + " (by default: " + Mode.parse(null) + ")");
      return 0;
    }
    List<Scenario> scenarios = scenarios();
    List<Mode> chosen = Mode.parse(modes);
    if (!(scale > 0)) {
      throw new IllegalArgumentException("--scale must be > 0, was " + scale);
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds must be >= 1, was " + rounds);
    }
    if (!(durationMinutes >= 0)) {
      throw new IllegalArgumentException("--duration must be >= 0 minutes, was "
          + durationMinutes);
    }
    for (long t : stockBestThresholds) {
      if (t <= 0) {
        throw new IllegalArgumentException("--stock-best-thresholds must each be > 0 ms, was "
            + t);
      }
    }
    if (!cohorts.isEmpty()) {
      Mode.cohortHosts(cohorts); // a bad definition fails here, before any cluster starts
    }
    if (interleave) {
      Benchmark.checkInterleaved(scenarios, chosen);
    }
    Duration duration = Duration.ofMillis((long) (durationMinutes * 60_000));
    try {
      CurtailConfig.from(settings); // a bad curtail.* value fails here, before any cluster starts
    } catch (InvalidConfigException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    String started = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss"));
    resultsDir = new File(out, started);
    long epoch = System.nanoTime();
    try (Target target = target()) {
      result = new RunResult(target.describe(), scale, seed, rounds, duration, started,
          interleave);
      stdout.println("curtail-bench: " + target.describe() + "; results will be in " + resultsDir);
      Mode.Options options = new Mode.Options(hedgeThresholdMs, stockBestThresholds,
          new File(resultsDir, "stats").getPath(), cohorts);
      try (Runner runner = new Runner(target, settings, seed, epoch,
          warmKnowledge || !duration.isZero())) {
        new Benchmark(target, scenarios, chosen, options, rounds, duration, runner,
            new Progress(stderr, terminal), interleave).run(result);
      }
    }
    Map<RunResult.ScenarioResult, Comparison> comparisons = Comparison.all(result);
    Report.printTables(result, comparisons, stdout);
    Report.write(result, comparisons, resultsDir);
    stdout.println();
    stdout.println("Results: " + resultsDir.getAbsolutePath() + " (report.md, results.json,"
        + " summary.csv, samples.csv, batches.csv, intervals.csv, plots/)");
    return 0;
  }

  private List<Scenario> scenarios() {
    if (background != null && background < 0) {
      throw new IllegalArgumentException("--background must be >= 0, was " + background);
    }
    if (paceMs < 0) {
      throw new IllegalArgumentException("--pace must be >= 0 ms, was " + paceMs);
    }
    List<Scenario> named = new ArrayList<>();
    if (scenarioNames.isEmpty()) {
      named.addAll(Scenarios.group("default"));
    } else {
      for (String n : scenarioNames) {
        named.addAll(Scenarios.named(n.trim()));
      }
    }
    List<Scenario> out = new ArrayList<>();
    for (Scenario s : named) {
      Scenario scaled = s.scaled(scale).withPace(TimeUnit.MILLISECONDS.toNanos(paceMs));
      out.add(background == null ? scaled : scaled.withBackground(background));
    }
    return out;
  }

  private Target target() throws IOException {
    if (fs == null && (faultOn != null || dataNodes != null)) {
      throw new IllegalArgumentException((faultOn != null ? "--fault-on" : "--datanodes")
          + " needs --fs: the embedded cluster injects each scenario's own fault");
    }
    if (dataNodes != null && dataNodes.size() < 3) {
      throw new IllegalArgumentException("--datanodes must name at least 3 DataNodes (a"
          + " pipeline's), was " + dataNodes);
    }
    if (fs == null) {
      stderr.println("curtail-bench: starting an embedded cluster of " + Scenario.DATANODES
          + " DataNodes…");
      return new Target.Embedded();
    }
    URI uri;
    try {
      uri = new URI(fs);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("--fs must be an hdfs://host:port URI, was '" + fs + "'");
    }
    if (!"hdfs".equals(uri.getScheme()) || uri.getHost() == null) {
      throw new IllegalArgumentException("--fs must be an hdfs://host:port URI, was '" + fs + "'");
    }
    if ((faultOn == null) != (faultOff == null)) {
      throw new IllegalArgumentException("--fault-on and --fault-off go together");
    }
    Target.Remote remote = new Target.Remote(uri,
        faultOn == null ? null : new Target.FaultCommands(faultOn, faultOff), dataNodes);
    Configuration probe = remote.conf();
    probe.setInt("ipc.client.connect.max.retries", 1);
    probe.setInt("ipc.client.connect.max.retries.on.timeouts", 1);
    probe.setInt("ipc.client.connect.timeout", 5000);
    try (FileSystem f = FileSystem.newInstance(uri, probe)) {
      f.getFileStatus(new Path("/"));
    } catch (IOException e) {
      throw new IOException("cannot reach " + uri + ": " + oneLine(e), e);
    }
    return remote;
  }

  /** The results directory of the last run. */
  File resultsDir() {
    return resultsDir;
  }

  /** What the last run measured. */
  RunResult result() {
    return result;
  }
}
