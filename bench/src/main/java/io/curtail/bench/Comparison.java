package io.curtail.bench;

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
 * A scenario's modes compared with their uncertainty: each mode's per-file p99 with a 95%
 * {@link Bootstrap} interval, and the ratios Curtail is judged by ({@code curtail} over
 * {@code stock-best} at its best threshold here and at the {@link OneThreshold} of the run, over
 * {@code oracle}; {@code curtail-best-cluster} over {@code stock-best}), each over four sets of
 * files: all of them, the first files (where a cold start shows), and those started while
 * stock's NameNode was not acting and while it was ({@link Phases}). Computed once per scenario,
 * then rendered.
 */
final class Comparison {
  /** The sets of a mode's files a figure is taken over. */
  enum Subset {
    ALL("all files"),
    FIRST("first files"),
    NOT_ACTING("NN not acting"),
    ACTING("NN acting");

    final String title;

    Subset(String title) {
      this.title = title;
    }
  }

  /** One row: a mode's p99 (bottom null) or a ratio of two modes' p99s, per subset. */
  static final class Row {
    final String name;
    final String top;
    final String bottom;
    final Map<Subset, Bootstrap.Interval> figures = new LinkedHashMap<>();
    final Map<Subset, int[]> files = new LinkedHashMap<>();

    Row(String name, String top, String bottom) {
      this.name = name;
      this.top = top;
      this.bottom = bottom;
    }
  }

  final List<Subset> subsets = new ArrayList<>();
  final List<Row> p99s = new ArrayList<>();
  final List<Row> ratios = new ArrayList<>();
  final String phases;

  private Comparison(RunResult.ScenarioResult sr, String oneThreshold) {
    subsets.add(Subset.ALL);
    subsets.add(Subset.FIRST);
    boolean phased = sr.scenario.hasFault() && sr.phases.known();
    if (phased) {
      subsets.add(Subset.NOT_ACTING);
      subsets.add(Subset.ACTING);
    }
    for (Summary s : sr.summaries) {
      p99s.add(row(sr, s.mode, s.mode, null));
    }
    phases = phased ? "Stock-best's NameNode named a slow DataNode: " + sr.phases.when()
        + missing(Subset.NOT_ACTING) + missing(Subset.ACTING) : null;
    Summary best = Summary.bestStockBest(sr.summaries);
    String bestLabel = best == null ? null : best.mode;
    boolean swept = bestLabel != null && OneThreshold.isSweptStockBest(bestLabel);
    String one = swept && sr.batchesByMode.containsKey(oneThreshold) ? oneThreshold : null;
    for (String top : new String[] {Mode.CURTAIL.label(), Mode.CURTAIL_BEST_CLUSTER.label()}) {
      if (!sr.batchesByMode.containsKey(top)) {
        continue;
      }
      if (bestLabel != null) {
        String which = !swept ? "" : bestLabel.equals(oneThreshold) ? " (best here and for the run)"
            : " (best here)";
        ratios.add(row(sr, top + " / " + bestLabel + which, top, bestLabel));
      }
      if (one != null && !one.equals(bestLabel)) {
        ratios.add(row(sr, top + " / " + one + " (one for the run)", top, one));
      }
      if (top.equals(Mode.CURTAIL.label())
          && sr.batchesByMode.containsKey(Mode.ORACLE.label())) {
        ratios.add(row(sr, top + " / oracle", top, Mode.ORACLE.label()));
      }
    }
  }

  /** What the report says where no mode ran a file in {@code subset}: no figure is invented. */
  private String missing(Subset subset) {
    if (!subsets.contains(subset)) {
      return "";
    }
    for (Row row : p99s) {
      if (row.files.get(subset)[0] > 0) {
        return "";
      }
    }
    return "; no file of this run started with the " + subset.title.replace("NN", "NameNode")
        + ": that phase is not shown";
  }

  /**
   * The comparison of each scenario of {@code r}, in the run's order: computed once, as their
   * bootstraps take a while, for the console and the files alike.
   */
  static Map<RunResult.ScenarioResult, Comparison> all(RunResult r) {
    Map<RunResult.ScenarioResult, Comparison> out = new LinkedHashMap<>();
    String oneThreshold = OneThreshold.of(r);
    for (RunResult.ScenarioResult sr : r.scenarios) {
      out.put(sr, new Comparison(sr, oneThreshold));
    }
    return out;
  }

  private Row row(RunResult.ScenarioResult sr, String name, String top, String bottom) {
    Row row = new Row(name, top, bottom);
    for (Subset subset : subsets) {
      long[] t = nanos(files(sr, top, subset));
      long[] b = bottom == null ? null : nanos(files(sr, bottom, subset));
      row.files.put(subset, b == null ? new int[] {t.length} : new int[] {t.length, b.length});
      row.figures.put(subset, b == null ? Bootstrap.p99(t) : Bootstrap.p99Ratio(t, b));
    }
    return row;
  }

  /** The files of {@code mode} in {@code subset}. */
  static List<FileSample> files(RunResult.ScenarioResult sr, String mode, Subset subset) {
    List<FileSample> all = sr.samples(mode);
    switch (subset) {
      case FIRST:
        return firstFiles(all);
      case NOT_ACTING:
        return sr.phases.notActing(all);
      case ACTING:
        return sr.phases.acting(all);
      default:
        return all;
    }
  }

  /**
   * Each client's first file of each batch: each batch's clients start with a new file system
   * and, except in a long run, with Curtail's knowledge of the DataNodes cold.
   */
  static List<FileSample> firstFiles(List<FileSample> files) {
    List<FileSample> out = new ArrayList<>();
    for (FileSample f : files) {
      if (f.file == 0) {
        out.add(f);
      }
    }
    return out;
  }

  private static long[] nanos(List<FileSample> files) {
    long[] out = new long[files.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = files.get(i).latencyNanos;
    }
    return out;
  }

  /** What the report's tables mean, said once before them. */
  static List<String> definitions(RunResult r) {
    List<String> out = new ArrayList<>();
    out.add("p99 per file with a 95% interval from a percentile bootstrap (" + Bootstrap.RESAMPLES
        + " resamples, seeded; each mode's files resampled on their own, as modes ran apart)."
        + " Under 100 files a p99 is the maximum, and its interval cannot reach above it.");
    out.add("First files: each client's first file of each batch (a new file system; Curtail's"
        + " knowledge of the DataNodes cold but in a long run): where a cold start shows.");
    out.add("Phases (scenarios with a fault): files started while stock-best's NameNode named no"
        + " slow DataNode (NN not acting) and while it named one in its slow-peers or slow-disks"
        + " report (NN acting: it may keep it out of pipelines and sort it last for reads),"
        + " looked at every 5 s. Only writes through the slow DataNode teach it (the faults are"
        + " injected where stock's disk profiling cannot see them), so a read fault run alone"
        + " shows no acting phase, and one after write faults may show no other. The NameNode"
        + " takes a reported slow peer to a DataNode by its address alone, so on a cluster whose"
        + " DataNodes share one (the embedded cluster's 127.0.0.1) it acts on any of them: there"
        + " the acting phase is not stock-best's; it is on separate processes with addresses of"
        + " their own (docker/local-cluster as root).");
    String one = OneThreshold.of(r);
    out.add(one == null ? "stock-best was swept over no hedge threshold in this run."
        : "stock-best at one threshold for the whole run: " + one + ", the threshold whose p99 over"
            + " oracle's has the smallest geometric mean over the scenarios that swept it (what"
            + " an operator must pick); \"best here\" is the best threshold of each scenario.");
    return out;
  }

  /** The tables as console lines. */
  void print(PrintStream out) {
    if (phases != null) {
      out.println("   " + phases);
    }
    StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "   %-52s", "p99 ms"));
    for (Subset s : subsets) {
      header.append(String.format(Locale.ROOT, " %-28s", s.title));
    }
    out.println(header.toString().stripTrailing());
    for (Row row : rows()) {
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "   %-52s", row.name));
      for (Subset s : subsets) {
        line.append(String.format(Locale.ROOT, " %-28s", cell(row, s)));
      }
      out.println(line.toString().stripTrailing());
    }
  }

  /** The tables as Markdown. */
  void writeMarkdown(PrintWriter w) {
    w.println("p99 per file, ms, and ratios of p99s, each with its 95% interval; n: files"
        + (phases == null ? "." : ". " + phases + "."));
    w.println();
    StringBuilder header = new StringBuilder("| p99 |");
    StringBuilder rule = new StringBuilder("|---|");
    for (Subset s : subsets) {
      header.append(' ').append(s.title).append(" |");
      rule.append("---:|");
    }
    w.println(header);
    w.println(rule);
    for (Row row : rows()) {
      StringBuilder line = new StringBuilder("| " + row.name + " |");
      for (Subset s : subsets) {
        line.append(' ').append(cell(row, s)).append(" |");
      }
      w.println(line);
    }
  }

  private List<Row> rows() {
    List<Row> all = new ArrayList<>(p99s);
    all.addAll(ratios);
    return all;
  }

  private static String cell(Row row, Subset s) {
    Bootstrap.Interval i = row.figures.get(s);
    int[] n = row.files.get(s);
    if (Double.isNaN(i.value)) {
      return "-";
    }
    return row.bottom == null ? i.text("%.1f") + " n=" + n[0]
        : i.text("%.2f") + " n=" + n[0] + "/" + n[1];
  }

  /** {@code intervals.csv}: every figure of every scenario, one per row. */
  static void writeCsv(Map<RunResult.ScenarioResult, Comparison> comparisons, File file)
      throws IOException {
    try (PrintWriter w = new PrintWriter(file, StandardCharsets.UTF_8.name())) {
      w.println("scenario,figure,mode,vs,files,files_vs,value,low,high");
      for (Map.Entry<RunResult.ScenarioResult, Comparison> e : comparisons.entrySet()) {
        RunResult.ScenarioResult sr = e.getKey();
        Comparison c = e.getValue();
        for (Row row : c.rows()) {
          for (Subset s : c.subsets) {
            Bootstrap.Interval i = row.figures.get(s);
            int[] n = row.files.get(s);
            w.println(String.join(",", sr.scenario.name(),
                (row.bottom == null ? "p99_ms_" : "p99_ratio_") + s.name().toLowerCase(Locale.ROOT),
                row.top, row.bottom == null ? "" : row.bottom, Integer.toString(n[0]),
                n.length > 1 ? Integer.toString(n[1]) : "", csv(i.value), csv(i.low),
                csv(i.high)));
          }
        }
      }
    }
  }

  private static String csv(double x) {
    return Double.isNaN(x) || Double.isInfinite(x) ? "" : String.format(Locale.ROOT, "%.4f", x);
  }
}
