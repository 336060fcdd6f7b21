package io.curtail.tools.stats;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Latency plots drawn with XChart: a CDF per group (the analyzer's cohorts, the benchmark's
 * modes), and, for the benchmark's scenarios, latency and its p99 over time.
 */
public final class Plots {
  private static final int WIDTH = 960;
  private static final int HEIGHT = 560;

  private Plots() {}

  /** Per-file latency CDF, one line per mode, latency on a log axis. */
  public static void cdf(String title, List<String> modes, List<List<Double>> latenciesMs,
      File png) throws IOException {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .xAxisTitle("per-file latency (ms, log scale)").yAxisTitle("fraction of files").build();
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setYAxisMax(1.0);
    // Two decimals: XChart places ticks by spacing, not at round values, and one decimal
    // labelled a tick at 0.96 "1.0", so every line seemed to end above 1.
    chart.getStyler().setYAxisDecimalPattern("0.00");
    chart.getStyler().setYAxisTickMarkSpacingHint(80);
    for (int i = 0; i < modes.size(); i++) {
      List<Double> sorted = new ArrayList<>(latenciesMs.get(i));
      if (sorted.isEmpty()) {
        continue;
      }
      sorted.sort(null);
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (int k = 0; k < sorted.size(); k++) {
        double x = Math.max(sorted.get(k), 0.001);
        xs.add(x); // a step: up at each sample
        ys.add((double) k / sorted.size());
        xs.add(x);
        ys.add((double) (k + 1) / sorted.size());
      }
      XYSeries s = chart.addSeries(modes.get(i), xs, ys);
      s.setMarker(SeriesMarkers.NONE);
    }
    BitmapEncoder.saveBitmap(chart, png.getPath(), BitmapEncoder.BitmapFormat.PNG);
  }

  /** Each file's latency against when it started, one colour per mode, latency on a log axis. */
  public static void timeline(String title, List<String> modes,
      List<List<double[]>> startAndLatency, File png) throws IOException {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .xAxisTitle("start of the file's operation (s since the benchmark started)")
        .yAxisTitle("per-file latency (ms, log scale)").build();
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setMarkerSize(5);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    for (int i = 0; i < modes.size(); i++) {
      List<double[]> points = startAndLatency.get(i);
      if (points.isEmpty()) {
        continue;
      }
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (double[] p : points) {
        xs.add(p[0]);
        ys.add(Math.max(p[1], 0.001));
      }
      chart.addSeries(modes.get(i), xs, ys);
    }
    BitmapEncoder.saveBitmap(chart, png.getPath(), BitmapEncoder.BitmapFormat.PNG);
  }

  /**
   * The p99 of per-file latency in each {@code windowSeconds} of the run, one line per mode, by
   * when the files started: whether a mode's tail changes as the run goes on (as stock's
   * NameNode-driven features would make it, once they act).
   */
  public static void p99OverTime(String title, List<String> modes,
      List<List<double[]>> startAndLatency, int windowSeconds, File png) throws IOException {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .xAxisTitle("minutes since the benchmark started")
        .yAxisTitle("p99 of files started in each minute (ms, log scale)").build();
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    for (int i = 0; i < modes.size(); i++) {
      java.util.TreeMap<Long, List<Double>> byWindow = new java.util.TreeMap<>();
      for (double[] p : startAndLatency.get(i)) {
        byWindow.computeIfAbsent((long) (p[0] / windowSeconds), k -> new ArrayList<>()).add(p[1]);
      }
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (java.util.Map.Entry<Long, List<Double>> e : byWindow.entrySet()) {
        List<Double> l = e.getValue();
        l.sort(null);
        xs.add((e.getKey() + 0.5) * windowSeconds / 60.0);
        ys.add(Math.max(l.get((int) Math.ceil(0.99 * l.size()) - 1), 0.001));
      }
      if (!xs.isEmpty()) {
        chart.addSeries(modes.get(i), xs, ys);
      }
    }
    BitmapEncoder.saveBitmap(chart, png.getPath(), BitmapEncoder.BitmapFormat.PNG);
  }
}
