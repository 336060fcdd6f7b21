package io.curtail.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import io.curtail.testcluster.FaultyCluster;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI end to end on an embedded cluster: a small scenario, the stock modes, a report. */
class BenchEndToEndTest {
  @TempDir
  File results;
  /** What the last {@link #run} printed on stdout. */
  private String stdout;

  /** Runs the CLI with {@code args} and checks it exits 0; its stdout is then {@link #stdout}. */
  private Main run(String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Main main = new Main(new PrintStream(out, true, "UTF-8"), new PrintStream(err, true, "UTF-8"),
        false);
    int code = new picocli.CommandLine(main).execute(args);
    stdout = out.toString("UTF-8");
    assertEquals(0, code, stdout + err.toString("UTF-8"));
    return main;
  }

  @Test
  void smallPreadScenarioWithTheStockModesWritesAFullReport() throws Exception {
    Main main = run("--scenario", "pread-throttled",
        "--mode", "stock,stock-hedged,stock-best", "--stock-best-thresholds", "20,100",
        "--scale", "0.34", "--rounds", "2", "--out", results.getPath());
    assertTrue(stdout.contains("== pread-throttled"), stdout);

    RunResult r = main.result();
    assertEquals(1, r.scenarios().size());
    for (Summary s : r.scenarios().get(0).summaries()) {
      assertTrue(s.bytes() > 0, s.mode());
      assertEquals(s.bytes(), s.bytesVerified(), s.mode() + ": every byte read is verified");
    }
    // Round 2 runs stock after the hedging modes: stock HDFS's JVM-wide hedged pool must not leak.
    List<Summary> modes = r.scenarios().get(0).summaries();
    assertEquals(List.of("stock", "stock-hedged", "stock-best@20ms", "stock-best@100ms"),
        modes.stream().map(Summary::mode).collect(java.util.stream.Collectors.toList()),
        "stock-best runs once per threshold swept");
    Summary stock = modes.get(0);
    assertEquals(0, stock.hedgesTried(), "stock hedged: the JVM-wide pool leaked into it");
    assertTrue(stdout.contains("stock-best's best hedge threshold: "), stdout);

    File dir = main.resultsDir();
    for (String f : new String[] {"report.md", "results.json", "summary.csv", "samples.csv",
        "batches.csv", "intervals.csv", "plots/pread-throttled-cdf.png",
        "plots/pread-throttled-timeline.png"}) {
      assertTrue(new File(dir, f).length() > 0, f + " missing in " + dir);
    }
    List<String> batches = Files.readAllLines(new File(dir, "batches.csv").toPath());
    assertTrue(batches.stream().anyMatch(l -> l.startsWith("pread-throttled,stock,0,")),
        "a row per mode and round: " + batches);
    String md = new String(Files.readAllBytes(new File(dir, "report.md").toPath()),
        StandardCharsets.UTF_8);
    assertTrue(md.contains("![pread-throttled CDF](plots/pread-throttled-cdf.png)"), md);
    // The comparison with intervals: the run's one threshold, the four sets of files, and when
    // (if ever) stock-best's NameNode acted.
    assertTrue(md.contains("stock-best at one threshold for the whole run: stock-best@"), md);
    assertTrue(md.contains("| p99 | all files | first files | NN not acting | NN acting |"), md);
    assertTrue(md.contains("Stock-best's NameNode named a slow DataNode: "), md);
    List<String> intervals = Files.readAllLines(new File(dir, "intervals.csv").toPath());
    assertTrue(intervals.stream()
        .anyMatch(l -> l.startsWith("pread-throttled,p99_ms_first,stock,")),
        "each mode's first files' p99: " + intervals);
    assertTrue(stdout.contains("Results: " + dir.getAbsolutePath()), stdout);
  }

  /**
   * A paced run: each client's files are timed from when they were due, a pace apart, the
   * clients staggered within it; and the report says the run was paced.
   */
  /**
   * With warm knowledge a Curtail mode's batches share what they learnt: the warm-up batch finds
   * the slow local disk (the NameNode lists dn0 first to most reads here), so the measured ones
   * read it last from their first file and hedge nothing. Cold, every batch's first reads start
   * there and are hedged (6 to 8 hedges in two rounds at full scale).
   */
  @Test
  void warmKnowledgeCarriesWhatEachBatchLearntToTheNext() throws Exception {
    Main main = run("--scenario", "read-slow-local-disk", "--mode", "curtail",
        "--warm-knowledge", "--scale", "0.34", "--rounds", "2", "--out", results.getPath());
    Summary curtail = main.result().scenarios().get(0).summaries().get(0);
    assertEquals(curtail.bytes(), curtail.bytesVerified(), "every byte verified");
    assertTrue(curtail.hedgesTried() <= 1, "measured batches hedged " + curtail.hedgesTried()
        + " times: they did not start from what the warm-up batch learnt");
  }

  @Test
  void pacedRunTimesEachFileFromWhenItWasDue() throws Exception {
    Main main = run("--scenario", "healthy-hflush",
        "--mode", "stock,curtail", "--pace", "300", "--rounds", "1", "--out", results.getPath());
    RunResult.ScenarioResult sr = main.result().scenarios().get(0);
    int clients = sr.scenario().workload().clients();
    for (String mode : List.of("stock", "curtail")) {
      List<FileSample> samples = sr.samples(mode);
      assertEquals(clients * sr.scenario().workload().filesPerClient(), samples.size(), mode);
      for (FileSample a : samples) {
        for (FileSample b : samples) {
          long dueApart = 300_000_000L * (b.file - a.file)
              + 300_000_000L * b.client / clients - 300_000_000L * a.client / clients;
          assertEquals(dueApart, b.startNanos - a.startNanos, mode + ": " + a.client + "/"
              + a.file + " and " + b.client + "/" + b.file + " not a schedule apart");
        }
      }
      for (Summary s : sr.summaries()) {
        assertEquals(s.bytes(), s.bytesVerified(), s.mode() + ": every byte verified");
      }
    }
    String md = new String(Files.readAllBytes(new File(main.resultsDir(), "report.md").toPath()),
        StandardCharsets.UTF_8);
    assertTrue(md.contains("a file due every 300 ms per client (paced"), md);
  }

  /**
   * Two A/B cohorts in one run, each emulated as a host the cohorts place in it, writing
   * per-block statistics (the control through stock's streams): the analyzer finds both, with
   * as many records and bytes as the benchmark read in each.
   */
  @Test
  void cohortsInOneRunAndTheAnalyzerAgreesOnWhatEachRead() throws Exception {
    Main main = run("--scenario", "healthy-read",
        "--mode", "curtail-ab", "--cohorts", "control=50:none,all=50:failfast+smart",
        "--scale", "0.2", "--rounds", "1", "--out", results.getPath());
    List<Summary> modes = main.result().scenarios().get(0).summaries();
    assertEquals(List.of("curtail-ab@control", "curtail-ab@all"),
        modes.stream().map(Summary::mode).collect(java.util.stream.Collectors.toList()));
    ByteArrayOutputStream table = new ByteArrayOutputStream();
    assertEquals(0, Main.run(new String[] {"stats", new File(main.resultsDir(), "stats").getPath(),
        "--out", new File(results, "stats-report").getPath()},
        new PrintStream(table, true, "UTF-8"), System.err, false));
    for (Summary s : modes) {
      String cohort = s.mode().substring("curtail-ab@".length());
      String row = java.util.Arrays.stream(table.toString("UTF-8").split("\n"))
          .filter(l -> l.startsWith("| " + cohort + " | read |")).findFirst()
          .orElseThrow(() -> new AssertionError(cohort + " missing: " + table));
      double mib = Double.parseDouble(row.split("\\|")[4].trim());
      assertEquals(s.bytes() / 1048576.0, mib, 0.05, row);
    }
  }

  /**
   * Modes interleaved in every batch: each client does every file once per mode, alternating
   * which goes first; every byte is verified per mode; CPU is not told apart per mode.
   */
  @Test
  void interleavedModesShareEachBatchFileByFile() throws Exception {
    Main main = run("--interleave", "--scenario", "healthy-hflush", "--mode", "curtail,stock",
        "--scale", "0.5", "--rounds", "1", "--out", results.getPath());
    RunResult.ScenarioResult sr = main.result().scenarios().get(0);
    List<FileSample> stock = sr.samples("stock");
    List<FileSample> curtail = sr.samples("curtail");
    assertEquals(stock.size(), curtail.size());
    int stockFirst = 0;
    for (FileSample a : stock) {
      FileSample b = curtail.stream().filter(f -> f.client == a.client && f.file == a.file)
          .findFirst().orElseThrow(() -> new AssertionError(a.client + "/" + a.file));
      boolean first = a.startNanos < b.startNanos;
      assertTrue(first ? a.startNanos + a.latencyNanos <= b.startNanos
          : b.startNanos + b.latencyNanos <= a.startNanos, "one client's files overlap");
      stockFirst += first ? 1 : 0;
    }
    assertTrue(stockFirst > 0 && stockFirst < stock.size(), "one mode always went first");
    for (Summary s : sr.summaries()) {
      assertTrue(s.bytes() > 0, s.mode());
      assertEquals(s.bytes(), s.bytesVerified(), s.mode());
      assertTrue(Double.isNaN(s.cpuMsPerMib), s.mode() + ": CPU is the batch's, not the mode's");
    }
    String md = new String(Files.readAllBytes(new File(main.resultsDir(), "report.md").toPath()),
        StandardCharsets.UTF_8);
    assertTrue(md.contains("interleaved file by file"), md);
  }

  @Test
  void runsAgainstARunningClusterGivenItsUri() throws Exception {
    try (FaultyCluster running = FaultyCluster.builder().dataNodes(3).build()) {
      Main main = run("--fs", running.uri().toString(),
          "--scenario", "healthy", "--scale", "0.2", "--rounds", "1", "--background", "1",
          "--out", results.getPath());
      List<Summary> modes = main.result().scenarios().get(0).summaries();
      assertEquals(List.of("stock", "stock-best", "curtail", "curtail-stats"),
          modes.stream().map(Summary::mode).collect(java.util.stream.Collectors.toList()),
          "the default modes but those that need faults or DataNodes the benchmark controls");
      for (Summary s : modes) {
        assertEquals(s.bytes(), s.bytesVerified(), s.mode());
      }
    }
  }

  /**
   * A small slow-disk write scenario: Curtail's decisions labelled against the fault the cluster
   * noted, and the statistics analyzer, given the batch's records and its incidents file, gives
   * the very row the benchmark printed.
   */
  @Test
  void slowDiskWritesGetABlameTableTheAnalyzerReproduces() throws Exception {
    Main main = run("--scenario", "write-slow-disk", "--mode", "curtail", "--scale", "0.5",
        "--rounds", "1", "--out", results.getPath());
    assertEquals(main.result().scenarios().get(0).summaries().get(0).bytes(),
        main.result().scenarios().get(0).summaries().get(0).bytesVerified());
    String row = null;
    for (String line : stdout.split("\n")) {
      if (line.trim().startsWith("| curtail |")) {
        row = line.trim();
      }
    }
    assertTrue(row != null, "no blame row in\n" + stdout);
    File batch = new File(main.resultsDir(), "blame/write-slow-disk/curtail-r0");
    File incidents = new File(batch, "incidents.txt");
    List<String> labels = Files.readAllLines(incidents.toPath(), StandardCharsets.UTF_8);
    assertTrue(labels.stream().anyMatch(l -> l.startsWith("datanode 127.0.0.1:")),
        "the injected slow disk is an incident: " + labels);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, Main.run(new String[] {"stats", batch.getPath(), "--labels",
        incidents.getPath(), "--out", new File(results, "stats").getPath()},
        new PrintStream(out, true, "UTF-8"), System.err, false));
    String again = out.toString("UTF-8");
    assertTrue(again.contains(row.replace("| curtail |", "| (no cohort) |")),
        row + " not in\n" + again);
  }
}
