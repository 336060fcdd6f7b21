package io.curtail.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a run prints and writes: a table per scenario on the console, and in the results directory
 * {@code results.json}, {@code summary.csv}, {@code samples.csv} (one row per file), two PNG plots
 * per scenario and {@code report.md} tying them together.
 */
final class Report {
  private static final String HEADER = String.format(Locale.ROOT,
      "%-14s %6s %9s %9s %9s %9s %9s %8s %8s %7s %5s %7s %11s %9s %10s %11s",
      "mode", "files", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "MiB/s", "cpu/MiB",
      "hedges",
      "won", "repl/blk", "verified", "all ok", "p99/stock", "p99/oracle");

  private Report() {}

  static void printTables(RunResult r, PrintStream out) {
    for (RunResult.ScenarioResult sr : r.scenarios) {
      Scenario s = sr.scenario;
      out.println();
      out.println("== " + s.name() + ": " + s.description());
      out.println("   fault: " + s.faultDescription() + "; workload: " + s.workload());
      out.println(HEADER);
      for (Summary m : sr.summaries) {
        out.println(row(m));
      }
    }
  }

  private static String row(Summary m) {
    return String.format(Locale.ROOT,
        "%-14s %6d %9.1f %9.1f %9.1f %9.1f %9.1f %8.1f %8.1f %7d %5d %7s %11s %9s %10s %11s",
        m.mode, m.files, m.p50Ms, m.p90Ms, m.p99Ms, m.p999Ms, m.maxMs, m.mibPerSec, m.cpuMsPerMib,
        m.hedgesTried, m.hedgesWon, m.replacementsPerBlocks(), mib(m.bytesVerified),
        m.bytesVerified == m.bytes ? "yes" : "NO", ratio(m.p99VsStock), ratio(m.p99VsOracle));
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.0f MiB", bytes / (1024.0 * 1024));
  }

  private static String ratio(double x) {
    return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%.2fx", x);
  }

  /** Writes every result file under {@code dir}. */
  static void write(RunResult r, File dir) throws IOException {
    File plots = new File(dir, "plots");
    if (!plots.mkdirs() && !plots.isDirectory()) {
      throw new IOException("cannot create " + plots);
    }
    writeJson(r, new File(dir, "results.json"));
    writeSummaryCsv(r, new File(dir, "summary.csv"));
    writeSamplesCsv(r, new File(dir, "samples.csv"));
    for (RunResult.ScenarioResult sr : r.scenarios) {
      List<String> modes = new ArrayList<>();
      List<List<Double>> latencies = new ArrayList<>();
      List<List<double[]>> timeline = new ArrayList<>();
      for (Summary m : sr.summaries) {
        modes.add(m.mode);
        List<Double> l = new ArrayList<>();
        List<double[]> t = new ArrayList<>();
        for (FileSample f : sr.samples(m.mode)) {
          l.add(f.latencyNanos / 1e6);
          t.add(new double[] {f.startNanos / 1e9, f.latencyNanos / 1e6});
        }
        latencies.add(l);
        timeline.add(t);
      }
      String name = sr.scenario.name();
      Plots.cdf(name + ": per-file latency CDF", modes, latencies,
          new File(plots, name + "-cdf.png"));
      Plots.timeline(name + ": per-file latency over time", modes, timeline,
          new File(plots, name + "-timeline.png"));
    }
    writeMarkdown(r, new File(dir, "report.md"));
  }

  private static void writeJson(RunResult r, File file) throws IOException {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("started", r.started);
    root.put("target", r.target);
    root.put("scale", r.scale);
    root.put("seed", r.seed);
    root.put("rounds", r.rounds);
    List<Object> scenarios = new ArrayList<>();
    for (RunResult.ScenarioResult sr : r.scenarios) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("name", sr.scenario.name());
      s.put("description", sr.scenario.description());
      s.put("fault", sr.scenario.faultDescription());
      s.put("workload", sr.scenario.workload().toString());
      List<Object> modes = new ArrayList<>();
      for (Summary m : sr.summaries) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("mode", m.mode);
        j.put("files", m.files);
        j.put("p50_ms", num(m.p50Ms));
        j.put("p90_ms", num(m.p90Ms));
        j.put("p99_ms", num(m.p99Ms));
        j.put("p999_ms", num(m.p999Ms));
        j.put("max_ms", num(m.maxMs));
        j.put("throughput_mib_s", num(m.mibPerSec));
        j.put("cpu_ms_per_mib", num(m.cpuMsPerMib));
        j.put("hedges_tried", m.hedgesTried);
        j.put("hedges_won", m.hedgesWon);
        j.put("replacements", m.replacements);
        j.put("blocks_written", m.blocksWritten);
        j.put("bytes", m.bytes);
        j.put("bytes_verified", m.bytesVerified);
        j.put("background_bytes", m.backgroundBytes);
        j.put("p99_vs_stock", num(m.p99VsStock));
        j.put("p99_vs_oracle", num(m.p99VsOracle));
        modes.add(j);
      }
      s.put("modes", modes);
      scenarios.add(s);
    }
    root.put("scenarios", scenarios);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file, root);
  }

  private static Object num(double x) {
    return Double.isNaN(x) || Double.isInfinite(x) ? null : Math.round(x * 1000) / 1000.0;
  }

  private static void writeSummaryCsv(RunResult r, File file) throws IOException {
    try (PrintWriter w = new PrintWriter(file, StandardCharsets.UTF_8.name())) {
      w.println("scenario,mode,files,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,throughput_mib_s,"
          + "cpu_ms_per_mib,hedges_tried,hedges_won,replacements,bytes,bytes_verified,p99_vs_stock,p99_vs_oracle");
      for (RunResult.ScenarioResult sr : r.scenarios) {
        for (Summary m : sr.summaries) {
          w.println(String.join(",", sr.scenario.name(), m.mode, Integer.toString(m.files),
              csv(m.p50Ms), csv(m.p90Ms), csv(m.p99Ms), csv(m.p999Ms), csv(m.maxMs),
              csv(m.mibPerSec), csv(m.cpuMsPerMib), Long.toString(m.hedgesTried), Long.toString(m.hedgesWon),
              Long.toString(m.replacements), Long.toString(m.bytes),
              Long.toString(m.bytesVerified), csv(m.p99VsStock), csv(m.p99VsOracle)));
        }
      }
    }
  }

  private static void writeSamplesCsv(RunResult r, File file) throws IOException {
    try (PrintWriter w = new PrintWriter(file, StandardCharsets.UTF_8.name())) {
      w.println("scenario,mode,round,client,file,op,start_s,latency_ms,bytes");
      for (RunResult.ScenarioResult sr : r.scenarios) {
        for (Summary m : sr.summaries) {
          for (FileSample f : sr.samples(m.mode)) {
            w.println(String.join(",", f.scenario, f.mode, Integer.toString(f.round),
                Integer.toString(f.client), Integer.toString(f.file), f.op,
                csv(f.startNanos / 1e9), csv(f.latencyNanos / 1e6), Long.toString(f.bytes)));
          }
        }
      }
    }
  }

  private static String csv(double x) {
    return Double.isNaN(x) ? "" : String.format(Locale.ROOT, "%.3f", x);
  }

  private static void writeMarkdown(RunResult r, File file) throws IOException {
    try (PrintWriter w = new PrintWriter(file, StandardCharsets.UTF_8.name())) {
      w.println("# Curtail tail-latency benchmark");
      w.println();
      w.println("Started " + r.started + " against " + r.target + "; scale " + r.scale
          + ", seed " + r.seed + ", " + r.rounds + " rounds with the modes alternating.");
      w.println("Latency is per whole file. `verified` counts bytes read back and compared;"
          + " `all ok` says it equals every byte the mode wrote or read.");
      w.println("Raw numbers: `results.json`, `summary.csv`, `samples.csv` (one row per file).");
      for (RunResult.ScenarioResult sr : r.scenarios) {
        Scenario s = sr.scenario;
        w.println();
        w.println("## " + s.name());
        w.println();
        w.println(s.description() + ". Fault: " + s.faultDescription() + ". Workload: "
            + s.workload() + ".");
        w.println();
        w.println("| mode | files | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | MiB/s"
            + " | CPU ms/MiB | hedges | won | replaced/blocks | verified | all ok | p99/stock"
            + " | p99/oracle |");
        w.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|");
        for (Summary m : sr.summaries) {
          w.println(String.format(Locale.ROOT,
              "| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %d | %d | %s | %s | %s"
                  + " | %s | %s |",
              m.mode, m.files, m.p50Ms, m.p90Ms, m.p99Ms, m.p999Ms, m.maxMs, m.mibPerSec,
              m.cpuMsPerMib,
              m.hedgesTried, m.hedgesWon, m.replacementsPerBlocks(), mib(m.bytesVerified),
              m.bytesVerified == m.bytes ? "yes" : "**NO**", ratio(m.p99VsStock),
              ratio(m.p99VsOracle)));
        }
        w.println();
        w.println("![" + s.name() + " CDF](plots/" + s.name() + "-cdf.png)");
        w.println("![" + s.name() + " over time](plots/" + s.name() + "-timeline.png)");
      }
    }
  }
}
