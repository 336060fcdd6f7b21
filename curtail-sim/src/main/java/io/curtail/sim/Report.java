package io.curtail.sim;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * Writes what the benchmark writes: a Markdown report, a CSV of every row, and PNG plots (with
 * the plotting library the benchmark uses).
 */
final class Report {
  private final File dir;
  private final StringBuilder md = new StringBuilder();
  private final List<String[]> csv = new ArrayList<>();
  private String[] csvHeader = Row.HEADER;

  Report(File dir) {
    this.dir = dir;
    if (!new File(dir, "plots").mkdirs() && !new File(dir, "plots").isDirectory()) {
      throw new IllegalStateException("cannot create " + new File(dir, "plots"));
    }
  }

  void text(String s) {
    md.append(s).append("\n\n");
  }

  void table(String[] header, List<String[]> rows) {
    md.append("| ").append(String.join(" | ", header)).append(" |\n|");
    for (int i = 0; i < header.length; i++) {
      md.append("---|");
    }
    md.append('\n');
    for (String[] r : rows) {
      md.append("| ").append(String.join(" | ", r)).append(" |\n");
    }
    md.append('\n');
  }

  /** {@code rows} under {@code header} as the CSV, in place of the simulation rows. */
  void csv(String[] header, List<String[]> rows) {
    csvHeader = header;
    csv.clear();
    csv.addAll(rows);
  }

  void rows(List<Row> rows) {
    List<String[]> cells = new ArrayList<>();
    for (Row r : rows) {
      cells.add(r.cells());
      csv.add(r.cells());
    }
    table(Row.HEADER, cells);
  }

  /**
   * A plot of {@code y} against the rows' value, one series per mode, embedded in the report.
   */
  void plot(String name, String title, String xLabel, String yLabel, List<Row> rows,
      ToDoubleFunction<Row> y) throws IOException {
    Map<String, List<double[]>> series = new LinkedHashMap<>();
    for (Row r : rows) {
      double v = y.applyAsDouble(r);
      if (!Double.isNaN(v)) {
        series.computeIfAbsent(r.mode(), k -> new ArrayList<>()).add(new double[] {r.value(), v});
      }
    }
    if (series.isEmpty()) {
      return;
    }
    XYChart chart = new XYChartBuilder().width(800).height(500).title(title).xAxisTitle(xLabel)
        .yAxisTitle(yLabel).build();
    for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
      double[] xs = new double[e.getValue().size()];
      double[] ys = new double[xs.length];
      for (int i = 0; i < xs.length; i++) {
        xs[i] = e.getValue().get(i)[0];
        ys[i] = e.getValue().get(i)[1];
      }
      chart.addSeries(e.getKey(), xs, ys);
    }
    File png = new File(dir, "plots/" + name + ".png");
    BitmapEncoder.saveBitmap(chart, png.getPath(), BitmapEncoder.BitmapFormat.PNG);
    md.append("![").append(title).append("](plots/").append(name).append(".png)\n\n");
  }

  void write() throws IOException {
    try (PrintWriter w = new PrintWriter(new File(dir, "report.md"), StandardCharsets.UTF_8)) {
      w.print(md);
    }
    try (PrintWriter w = new PrintWriter(new File(dir, "results.csv"), StandardCharsets.UTF_8)) {
      w.println(String.join(",", csvHeader));
      for (String[] r : csv) {
        w.println(String.join(",", r));
      }
    }
  }
}
