package io.curtail.client.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LatencyStatsTest {

  @Test
  void nearestRankPercentile() {
    long[] v = {50, 10, 40, 30, 20};
    LatencyStats s = LatencyStats.of(v, 5, 0.95);
    assertEquals(50, s.percentileNanos()); // ceil(4.75)=5th
    assertEquals(30, s.meanNanos());
    assertEquals(30, LatencyStats.of(new long[] {50, 10, 40, 30, 20}, 5, 0.5).percentileNanos());
    assertEquals(10, LatencyStats.of(new long[] {50, 10, 40, 30, 20}, 5, 0.01).percentileNanos());
  }

  @Test
  void onlyTheFirstNValuesCount() {
    assertEquals(LatencyStats.of(2, 20, 15), LatencyStats.of(new long[] {20, 10, 999}, 2, 0.95));
  }

  @Test
  void rejectsNonsense() {
    assertThrows(IllegalArgumentException.class, () -> LatencyStats.of(new long[1], 1, 0));
    assertThrows(IllegalArgumentException.class, () -> LatencyStats.of(new long[1], 1, 1.5));
    assertThrows(IllegalArgumentException.class, () -> LatencyStats.of(-1, 0, 0));
    assertEquals(LatencyStats.EMPTY, LatencyStats.of(0, 0, 0));
  }
}
