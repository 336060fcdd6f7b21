package io.curtail.tools.blame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** HDFS's outlier rule on hand-worked numbers (microseconds; low threshold 5 ms). */
class OutlierRuleTest {
  @Test
  void oneSlowDiskOfThreeIsAnOutlier() {
    // median 1200; deviations 0, 200, 38800: MAD 200 × 1.4826 = 296.52;
    // limit max(5000, 3 × 1200, 1200 + 3 × 296.52) = 5000
    double[] p = {1000, 1200, 40000};
    assertEquals(5000, OutlierRule.ON_PIPELINE.limit(p), 1e-9);
    assertArrayEquals(new boolean[] {false, false, true}, OutlierRule.ON_PIPELINE.outliers(p));
  }

  @Test
  void twoSlowOfThreeHideEachOther() {
    // a slow link's upstream neighbour looks as slow as the culprit: median 30000, limit
    // max(5000, 90000, 30000 + 3 × 2000 × 1.4826) = 90000, so nobody
    double[] p = {30000, 32000, 1000};
    assertEquals(90000, OutlierRule.ON_PIPELINE.limit(p), 1e-9);
    assertArrayEquals(new boolean[3], OutlierRule.ON_PIPELINE.outliers(p));
  }

  @Test
  void anEvenCountTakesTheMeanOfTheMiddleTwo() {
    // median (4000 + 6000) / 2 = 5000; deviations 1000, 1000, 3000, 25000: MAD 2000 × 1.4826;
    // limit max(5000, 15000, 5000 + 8895.6) = 15000
    double[] p = {2000, 4000, 6000, 30000};
    assertEquals(15000, OutlierRule.ON_PIPELINE.limit(p), 1e-9);
    assertArrayEquals(new boolean[] {false, false, false, true},
        OutlierRule.ON_PIPELINE.outliers(p));
  }

  @Test
  void aWideSpreadRaisesTheLimitAboveThreeMedians() {
    // median 9000; deviations 0, 7000, 7000, 8000, 21000: MAD 7000 × 1.4826 = 10378.2;
    // limit max(0, 27000, 9000 + 31134.6) = 40134.6: 30000, over 3 medians, is not an outlier
    OutlierRule rule = new OutlierRule(3, 0);
    double[] p = {1000, 2000, 9000, 16000, 30000};
    assertEquals(40134.6, rule.limit(p), 1e-6);
    assertArrayEquals(new boolean[5], rule.outliers(p));
  }

  @Test
  void nothingBelowTheLowThresholdIsSlow() {
    // 1 ms is over 8 medians of 120 µs, but under HDFS's 5 ms
    assertArrayEquals(new boolean[3], OutlierRule.ON_PIPELINE.outliers(new double[] {100, 120,
        1000}));
  }

  @Test
  void hdfsDefaultsJudgeNoFewerThanTenPeers() {
    double[] three = {1000, 1200, 40000};
    assertEquals(Double.POSITIVE_INFINITY, OutlierRule.HDFS_PEERS.limit(three));
    assertArrayEquals(new boolean[3], OutlierRule.HDFS_PEERS.outliers(three));
    double[] ten = {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 20000};
    // median 1000, MAD 0: limit max(5000, 3000, 1000) = 5000
    assertEquals(5000, OutlierRule.HDFS_PEERS.limit(ten), 1e-9);
    assertEquals(true, OutlierRule.HDFS_PEERS.outliers(ten)[9]);
  }

  @Test
  void aRuleWithoutPeersIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new OutlierRule(0, 5000));
    assertEquals("an outlier rule needs minPeers >= 1 and lowThreshold >= 0, was 0 and 5000.0",
        e.getMessage());
  }
}
