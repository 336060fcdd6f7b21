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
    LatencyStats s = LatencyStats.of(new long[] {20, 10, 999}, 2, 0.95);
    assertEquals(LatencyStats.of(2, 20, 15), s);
    assertEquals(10, s.medianNanos());
  }

  @Test
  void selectionAgreesWithSortingOnManyShapes() {
    java.util.SplittableRandom r = new java.util.SplittableRandom(3);
    for (int trial = 0; trial < 2000; trial++) {
      int n = 1 + r.nextInt(300);
      long[] v = new long[n];
      int distinct = 1 + r.nextInt(n); // from all-equal to all-different
      for (int i = 0; i < n; i++) {
        v[i] = r.nextInt(distinct);
      }
      if (trial % 3 == 0) {
        java.util.Arrays.sort(v); // already sorted input
      }
      long[] sorted = v.clone();
      java.util.Arrays.sort(sorted);
      double p = (1 + r.nextInt(100)) / 100.0;
      int rank = Math.max(1, (int) Math.ceil(p * n));
      assertEquals(sorted[rank - 1], LatencyStats.of(v, n, p).percentileNanos(),
          "n=" + n + " p=" + p);
    }
  }

  @Test
  void rejectsNonsense() {
    assertThrows(IllegalArgumentException.class, () -> LatencyStats.of(new long[1], 1, 0));
    assertThrows(IllegalArgumentException.class, () -> LatencyStats.of(new long[1], 1, 1.5));
    assertThrows(IllegalArgumentException.class, () -> LatencyStats.of(-1, 0, 0));
    assertEquals(LatencyStats.EMPTY, LatencyStats.of(0, 0, 0));
  }
}
