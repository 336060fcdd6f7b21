package io.curtail.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one hedge threshold an operator would pick for {@code stock-best} knowing the whole run: of
 * the thresholds swept in every scenario that swept them, the one whose p99 over oracle's has the
 * smallest geometric mean over those scenarios. Oracle's p99 is the same whatever the threshold,
 * so this is also the smallest geometric mean of the p99s themselves, and needs no oracle. The
 * per-scenario best ({@link Summary#bestStockBest}) is generous to stock: no operator can pick a
 * threshold per fault.
 */
final class OneThreshold {
  private OneThreshold() {}

  /**
   * The label (e.g. {@code stock-best@50ms}) with the smallest geometric mean of p99 over the
   * scenarios, each given as its p99 by label; a label missing from a scenario is not a
   * candidate; the first of equals wins. Null if there is no candidate.
   */
  static String choose(List<Map<String, Double>> p99ByLabelPerScenario) {
    if (p99ByLabelPerScenario.isEmpty()) {
      return null;
    }
    String best = null;
    double bestLogMean = Double.POSITIVE_INFINITY;
    for (String label : p99ByLabelPerScenario.get(0).keySet()) {
      double sum = 0;
      boolean everywhere = true;
      for (Map<String, Double> scenario : p99ByLabelPerScenario) {
        Double p99 = scenario.get(label);
        everywhere &= p99 != null && p99 > 0;
        sum += everywhere ? Math.log(p99) : 0;
      }
      double logMean = sum / p99ByLabelPerScenario.size();
      if (everywhere && logMean < bestLogMean) {
        best = label;
        bestLogMean = logMean;
      }
    }
    return best;
  }

  /** {@link #choose} over the scenarios of {@code r} where stock-best's thresholds were swept. */
  static String of(RunResult r) {
    List<Map<String, Double>> swept = new ArrayList<>();
    for (RunResult.ScenarioResult sr : r.scenarios) {
      Map<String, Double> p99s = new LinkedHashMap<>();
      for (Summary s : sr.summaries) {
        if (isSweptStockBest(s.mode)) {
          p99s.put(s.mode, s.p99Ms);
        }
      }
      if (!p99s.isEmpty()) {
        swept.add(p99s);
      }
    }
    return choose(swept);
  }

  /** Whether {@code label} is stock-best at one of the thresholds swept. */
  static boolean isSweptStockBest(String label) {
    return label.startsWith(Mode.STOCK_BEST.label() + "@");
  }
}
