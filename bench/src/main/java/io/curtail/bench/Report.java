package io.curtail.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.curtail.tools.blame.Blame;
import io.curtail.tools.stats.Plots;
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
 * {@code results.json}, {@code summary.csv}, {@code samples.csv} (one row per file),
 * {@code batches.csv} (one row per mode and round: what paired per-round comparisons need),
 * {@code intervals.csv} (p99s and their ratios with 95% intervals: {@link Comparison}), two
 * PNG plots per scenario and {@code report.md} tying them together.
 */
final class Report {
  private Report() {}

  static void printTables(RunResult r, Map<RunResult.ScenarioResult, Comparison> comparisons,
      PrintStream out) {
    boolean blamed = false;
    for (RunResult.ScenarioResult sr : r.scenarios) {
      Scenario s = sr.scenario;
      out.println();
      out.println("== " + s.name() + ": " + s.description());
      out.println("   fault: " + sr.fault + "; workload: " + s.workload());
      StringBuilder header = new StringBuilder();
      for (Summary.Column c : Summary.Column.table()) {
        header.append(cell(c, c.title));
      }
      out.println(header.toString().trim());
      for (Summary m : sr.summaries) {
        StringBuilder row = new StringBuilder();
        for (Summary.Column c : Summary.Column.table()) {
          row.append(cell(c, c.text(m)));
        }
        out.println(row.toString().trim());
      }
      for (String note : notes(r, sr)) {
        out.println("   " + note);
      }
      comparisons.get(sr).print(out);
      for (String line : blame(sr)) {
        out.println("   " + line);
        blamed = true;
      }
    }
    if (blamed) {
      out.println();
      out.println("blame: " + Blame.legend());
    }
  }

  /**
   * The scenario's blame table: each Curtail mode's decisions labelled against the injected
   * faults, HDFS's rule beside them; empty if no mode's were labelled.
   */
  static List<String> blame(RunResult.ScenarioResult sr) {
    List<String> rows = new ArrayList<>();
    for (Summary m : sr.summaries) {
      Blame merged = null;
      for (Batch b : sr.batchesByMode.getOrDefault(m.mode, new ArrayList<>())) {
        if (b.blame != null) {
          if (merged == null) {
            merged = new Blame(List.of());
          }
          merged.add(b.blame);
        }
      }
      if (merged != null) {
        rows.add(merged.row(m.mode));
      }
    }
    if (rows.isEmpty()) {
      return rows;
    }
    List<String> out = new ArrayList<>(Blame.header("blame"));
    out.addAll(rows);
    return out;
  }

  /**
   * What a scenario's table does not say: interleaved, each mode's files' time against the first
   * mode's, paired by round; stock-best's best threshold; a long run's events.
   */
  private static List<String> notes(RunResult r, RunResult.ScenarioResult sr) {
    List<String> out = new ArrayList<>();
    if (r.interleaved && !sr.summaries.isEmpty()) {
      String first = sr.summaries.get(0).mode;
      for (Summary m : sr.summaries.subList(1, sr.summaries.size())) {
        double[] ratio = Summary.timeRatio(sr.batchesByMode.get(first),
            sr.batchesByMode.get(m.mode));
        out.add(String.format(Locale.ROOT, "%s: files' time %.3fx %s's (95%% CI %.3f-%.3f over"
            + " %d rounds)", m.mode, ratio[0], first, ratio[1], ratio[2],
            sr.batchesByMode.get(first).size()));
      }
    }
    Summary best = Summary.bestStockBest(sr.summaries);
    if (best != null && !best.mode.equals(Mode.STOCK_BEST.label())) {
      out.add("stock-best's best hedge threshold: " + best.mode.substring(
          best.mode.indexOf('@') + 1) + " (p99/best compares with it)");
    }
    synchronized (sr.events) {
      for (String e : sr.events) {
        out.add("NameNode slow-node reports at " + e);
      }
    }
    return out;
  }

  /** {@code text} padded to the column's width, with the space that separates columns. */
  private static String cell(Summary.Column c, String text) {
    return String.format(Locale.ROOT, "%" + c.width + "s ", text);
  }

  /** Writes every result file under {@code dir}. */
  static void write(RunResult r, Map<RunResult.ScenarioResult, Comparison> comparisons,
      File dir) throws IOException {
    File plots = new File(dir, "plots");
    if (!plots.mkdirs() && !plots.isDirectory()) {
      throw new IOException("cannot create " + plots);
    }
    writeJson(r, new File(dir, "results.json"));
    writeSummaryCsv(r, new File(dir, "summary.csv"));
    writeSamplesCsv(r, new File(dir, "samples.csv"));
    writeBatchesCsv(r, new File(dir, "batches.csv"));
    Comparison.writeCsv(comparisons, new File(dir, "intervals.csv"));
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
      if (!r.duration.isZero()) {
        Plots.p99OverTime(name + ": p99 per minute", modes, timeline, 60,
            new File(plots, name + "-p99.png"));
      }
    }
    writeMarkdown(r, comparisons, new File(dir, "report.md"));
  }

  private static void writeJson(RunResult r, File file) throws IOException {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("started", r.started);
    root.put("target", r.target);
    root.put("scale", r.scale);
    root.put("seed", r.seed);
    root.put("rounds", r.rounds);
    root.put("duration_s", r.duration.getSeconds());
    List<Object> scenarios = new ArrayList<>();
    for (RunResult.ScenarioResult sr : r.scenarios) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("name", sr.scenario.name());
      s.put("description", sr.scenario.description());
      s.put("fault", sr.fault);
      s.put("workload", sr.scenario.workload().toString());
      List<Object> modes = new ArrayList<>();
      for (Summary m : sr.summaries) {
        Map<String, Object> j = new LinkedHashMap<>();
        for (Summary.Column c : Summary.Column.data()) {
          j.put(c.key, c.number(m));
        }
        modes.add(j);
      }
      s.put("modes", modes);
      s.put("notes", notes(r, sr));
      scenarios.add(s);
    }
    root.put("scenarios", scenarios);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file, root);
  }

  private static void writeSummaryCsv(RunResult r, File file) throws IOException {
    try (PrintWriter w = new PrintWriter(file, StandardCharsets.UTF_8.name())) {
      StringBuilder header = new StringBuilder("scenario");
      for (Summary.Column c : Summary.Column.data()) {
        header.append(',').append(c.key);
      }
      w.println(header);
      for (RunResult.ScenarioResult sr : r.scenarios) {
        for (Summary m : sr.summaries) {
          StringBuilder row = new StringBuilder(sr.scenario.name());
          for (Summary.Column c : Summary.Column.data()) {
            Object v = c.number(m);
            row.append(',').append(v == null ? "" : v);
          }
          w.println(row);
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

  private static void writeBatchesCsv(RunResult r, File file) throws IOException {
    try (PrintWriter w = new PrintWriter(file, StandardCharsets.UTF_8.name())) {
      w.println("scenario,mode,round,wall_ms,cpu_ms,bytes,alloc_kib");
      for (RunResult.ScenarioResult sr : r.scenarios) {
        sr.batchesByMode.forEach((mode, batches) -> {
          for (int round = 0; round < batches.size(); round++) {
            Batch b = batches.get(round);
            long bytes = b.samples.stream().mapToLong(f -> f.bytes).sum();
            w.println(String.join(",", sr.scenario.name(), mode, Integer.toString(round),
                csv(b.wallNanos / 1e6), b.cpuNanos < 0 ? "" : csv(b.cpuNanos / 1e6),
                Long.toString(bytes),
                b.allocatedBytes < 0 ? "" : Long.toString(b.allocatedBytes >> 10)));
          }
        });
      }
    }
  }

  private static String csv(double x) {
    return Double.isNaN(x) ? "" : String.format(Locale.ROOT, "%.3f", x);
  }

  private static void writeMarkdown(RunResult r,
      Map<RunResult.ScenarioResult, Comparison> comparisons, File file) throws IOException {
    try (PrintWriter w = new PrintWriter(file, StandardCharsets.UTF_8.name())) {
      w.println("# Curtail tail-latency benchmark");
      w.println();
      w.println("Started " + r.started + " against " + r.target + "; scale " + r.scale
          + ", seed " + r.seed + ", " + (r.duration.isZero() ? r.rounds + " rounds"
              : "rounds for " + r.duration.toMinutes() + " minutes per scenario")
          + (r.interleaved ? " with the modes interleaved file by file in every batch (so CPU"
              + " and allocation are not told apart per mode)." : " with the modes alternating."));
      w.println("Latency is per whole file. `verified` counts bytes read back and compared;"
          + " `all ok` says it equals every byte the mode wrote or read.");
      w.println("Raw numbers: `results.json`, `summary.csv`, `samples.csv` (one row per file),"
          + " `batches.csv` (one row per mode and round), `intervals.csv` (each p99 and ratio"
          + " with its interval).");
      w.println();
      for (String d : Comparison.definitions(r)) {
        w.println("- " + d);
      }
      for (RunResult.ScenarioResult sr : r.scenarios) {
        Scenario s = sr.scenario;
        w.println();
        w.println("## " + s.name());
        w.println();
        w.println(s.description() + ". Fault: " + sr.fault + ". Workload: "
            + s.workload() + ".");
        w.println();
        StringBuilder header = new StringBuilder("|");
        StringBuilder rule = new StringBuilder("|");
        for (Summary.Column c : Summary.Column.table()) {
          header.append(' ').append(c.title).append(" |");
          rule.append(c.kind == Summary.Kind.TEXT ? "---|" : "---:|");
        }
        w.println(header);
        w.println(rule);
        for (Summary m : sr.summaries) {
          StringBuilder row = new StringBuilder("|");
          for (Summary.Column c : Summary.Column.table()) {
            String text = c.text(m);
            row.append(' ').append(text.equals("NO") ? "**NO**" : text).append(" |");
          }
          w.println(row);
        }
        w.println();
        for (String note : notes(r, sr)) {
          w.println("- " + note);
        }
        w.println();
        comparisons.get(sr).writeMarkdown(w);
        List<String> blame = blame(sr);
        for (String line : blame) {
          w.println(line);
        }
        if (!blame.isEmpty()) {
          w.println();
          w.println(Blame.legend());
        }
        w.println();
        w.println("![" + s.name() + " CDF](plots/" + s.name() + "-cdf.png)");
        w.println("![" + s.name() + " over time](plots/" + s.name() + "-timeline.png)");
        if (!r.duration.isZero()) {
          w.println("![" + s.name() + " p99 per minute](plots/" + s.name() + "-p99.png)");
        }
      }
    }
  }
}
