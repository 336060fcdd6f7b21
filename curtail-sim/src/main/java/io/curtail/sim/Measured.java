package io.curtail.sim;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the benchmark measured, per scenario and mode: files, p50 and p99 per file. Read from the
 * benchmark's {@code summary.csv} (a results directory or the file itself), or the figures of the
 * calibration run this build was fitted on ({@link #fitted}).
 *
 * @param source where the figures come from, for the report
 */
record Measured(String source, Map<String, Figures> byScenarioAndMode,
    Map<String, double[]> p99RatioIntervals) {
  /**
   * One mode's figures in one scenario; {@code over400} the share of its files that took 400 ms
   * or more (stock's first wait at a close: where files are written by stock's client on a
   * healthy cluster, the share whose close asked again), NaN where unknown.
   */
  record Figures(int files, double p50Ms, double p99Ms, double over400) {
  }

  /**
   * The run the calibration was fitted on: {@code java -jar bench/target/curtail-bench.jar -m
   * stock,curtail,oracle -s read-throttled,write-slow-disk,pread-throttled --rounds 9}, 2026-11-29
   * 01:18 UTC, two cores (load average 2.5 at the start); its summary.csv is
   * {@code curtail-sim/runs/2026-11-29/bench-calibration/summary.csv}.
   */
  static Measured fitted() {
    Map<String, Figures> m = new LinkedHashMap<>();
    m.put(key("read-throttled", "stock"), new Figures(324, 11.84, 11996.947, 65 / 324.0));
    m.put(key("read-throttled", "curtail"), new Figures(324, 18.903, 60.38, 0));
    m.put(key("read-throttled", "oracle"), new Figures(324, 20.129, 46.106, 0));
    m.put(key("write-slow-disk", "stock"), new Figures(216, 2630.283, 4013.923, 163 / 216.0));
    m.put(key("write-slow-disk", "curtail"), new Figures(216, 94.066, 300.522, 0));
    m.put(key("write-slow-disk", "oracle"), new Figures(216, 76.093, 531.34, 69 / 216.0));
    m.put(key("pread-throttled", "stock"), new Figures(324, 15.328, 13945.048, 69 / 324.0));
    m.put(key("pread-throttled", "curtail"), new Figures(324, 20.215, 77.198, 0));
    m.put(key("pread-throttled", "oracle"), new Figures(324, 20.448, 40.713, 0));
    Map<String, double[]> intervals = new LinkedHashMap<>();
    intervals.put(ratioKey("read-throttled", "curtail", "oracle"), new double[] {1.1873, 1.6386});
    intervals.put(ratioKey("write-slow-disk", "curtail", "oracle"), new double[] {0.5442, 0.6154});
    intervals.put(ratioKey("pread-throttled", "curtail", "oracle"), new double[] {1.1702, 2.4223});
    return new Measured("`java -jar bench/target/curtail-bench.jar -m stock,curtail,oracle -s"
        + " read-throttled,write-slow-disk,pread-throttled --rounds 9`, 2026-11-29 01:18 UTC,"
        + " two cores (curtail-sim/runs/2026-11-29/bench-calibration/)", m, intervals);
  }

  /**
   * The figures of a benchmark run: {@code path} is its results directory or its
   * {@code summary.csv} (columns {@code scenario,mode,files,p50_ms,...,p99_ms,...}); the share of
   * files over 400 ms from the {@code samples.csv} beside it, if there is one.
   */
  static Measured read(File path) throws IOException {
    File csv = path.isDirectory() ? new File(path, "summary.csv") : path;
    Map<String, double[]> over400 = over400(new File(csv.getAbsoluteFile().getParentFile(),
        "samples.csv"));
    List<String> lines = Files.readAllLines(csv.toPath(), StandardCharsets.UTF_8);
    if (lines.isEmpty()) {
      throw new IOException(csv + " is empty: expected the benchmark's summary.csv");
    }
    List<String> header = List.of(lines.get(0).split(","));
    int scenario = column(header, "scenario", csv);
    int mode = column(header, "mode", csv);
    int files = column(header, "files", csv);
    int p50 = column(header, "p50_ms", csv);
    int p99 = column(header, "p99_ms", csv);
    Map<String, Figures> m = new LinkedHashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      if (f.length < header.size() || f[p50].isEmpty() || f[p99].isEmpty()) {
        continue; // a mode without files
      }
      double[] slow = over400.get(key(f[scenario], f[mode]));
      m.put(key(f[scenario], f[mode]), new Figures(Integer.parseInt(f[files]),
          Double.parseDouble(f[p50]), Double.parseDouble(f[p99]),
          slow == null ? Double.NaN : slow[0] / slow[1]));
    }
    return new Measured("the benchmark's " + csv, m,
        intervals(new File(csv.getAbsoluteFile().getParentFile(), "intervals.csv")));
  }

  /** The 95% intervals of p99 ratios from the benchmark's intervals.csv, if any. */
  private static Map<String, double[]> intervals(File csv) throws IOException {
    Map<String, double[]> m = new LinkedHashMap<>();
    if (!csv.isFile()) {
      return m;
    }
    List<String> lines = Files.readAllLines(csv.toPath(), StandardCharsets.UTF_8);
    List<String> header = List.of(lines.get(0).split(","));
    int scenario = column(header, "scenario", csv);
    int figure = column(header, "figure", csv);
    int mode = column(header, "mode", csv);
    int vs = column(header, "vs", csv);
    int low = column(header, "low", csv);
    int high = column(header, "high", csv);
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      if (f[figure].equals("p99_ratio_all") && !f[low].isEmpty() && !f[high].isEmpty()) {
        m.put(ratioKey(f[scenario], f[mode], f[vs]),
            new double[] {Double.parseDouble(f[low]), Double.parseDouble(f[high])});
      }
    }
    return m;
  }

  /** The measured 95% interval of {@code mode}'s p99 over {@code vs}'s, or null if unknown. */
  double[] p99RatioInterval(String scenario, String mode, String vs) {
    return p99RatioIntervals.get(ratioKey(scenario, mode, vs));
  }

  private static String ratioKey(String scenario, String mode, String vs) {
    return scenario + "/" + mode + "/" + vs;
  }

  /** Per scenario and mode, {files of 400 ms or more, files}, from a samples.csv if any. */
  private static Map<String, double[]> over400(File samples) throws IOException {
    Map<String, double[]> m = new LinkedHashMap<>();
    if (!samples.isFile()) {
      return m;
    }
    List<String> lines = Files.readAllLines(samples.toPath(), StandardCharsets.UTF_8);
    List<String> header = List.of(lines.get(0).split(","));
    int scenario = column(header, "scenario", samples);
    int mode = column(header, "mode", samples);
    int latency = column(header, "latency_ms", samples);
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      double[] c = m.computeIfAbsent(key(f[scenario], f[mode]), k -> new double[2]);
      c[0] += Double.parseDouble(f[latency]) >= 400 ? 1 : 0;
      c[1]++;
    }
    return m;
  }

  private static int column(List<String> header, String name, File csv) throws IOException {
    int i = header.indexOf(name);
    if (i < 0) {
      throw new IOException(csv + " has no column '" + name + "': expected the benchmark's"
          + " summary.csv, whose header is scenario,mode,files,p50_ms,...; got " + header);
    }
    return i;
  }

  /** The figures of {@code mode} in {@code scenario}, or null if the run has none. */
  Figures get(String scenario, String mode) {
    return byScenarioAndMode.get(key(scenario, mode));
  }

  private static String key(String scenario, String mode) {
    return scenario + "/" + mode;
  }
}
