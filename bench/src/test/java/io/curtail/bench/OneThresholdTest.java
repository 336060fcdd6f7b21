package io.curtail.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one stock-best hedge threshold an operator would pick for the whole run. */
class OneThresholdTest {
  private static Map<String, Double> scenario(double at10, double at50, double at200) {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("stock-best@10ms", at10);
    m.put("stock-best@50ms", at50);
    m.put("stock-best@200ms", at200);
    return m;
  }

  @Test
  void theSmallestGeometricMeanWinsNotTheMostScenariosWon() {
    // 10 ms is best in two scenarios of three, but by little; 50 ms loses those by a quarter
    // and wins the third by a factor of ten. Geometric means: 10 ms (100·100·2000)^(1/3) = 271,
    // 50 ms (125·125·200)^(1/3) = 146, 200 ms (150·150·3000)^(1/3) = 407.
    String one = OneThreshold.choose(List.of(scenario(100, 125, 150), scenario(100, 125, 150),
        scenario(2000, 200, 3000)));
    assertEquals("stock-best@50ms", one);
  }

  @Test
  void aThresholdMissingFromAScenarioIsNoCandidate() {
    Map<String, Double> partial = scenario(10, 500, 600);
    partial.remove("stock-best@10ms");
    assertEquals("stock-best@50ms",
        OneThreshold.choose(List.of(scenario(10, 500, 600), partial)));
  }

  @Test
  void equalMeansGoToTheFirstSwept() {
    assertEquals("stock-best@10ms", OneThreshold.choose(List.of(scenario(100, 100, 100))));
  }

  @Test
  void noSweptScenarioNoThreshold() {
    assertNull(OneThreshold.choose(List.of()));
  }
}
