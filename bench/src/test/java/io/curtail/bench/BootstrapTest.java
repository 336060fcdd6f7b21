package io.curtail.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The one bootstrap every interval of the report comes from. */
class BootstrapTest {
  private static final long MS = 1_000_000;

  /** {@code n} files of 100 ms each, then the slow ones given, in ms. */
  private static long[] files(int n, long... slowMs) {
    long[] out = new long[n + slowMs.length];
    for (int i = 0; i < n; i++) {
      out[i] = 100 * MS;
    }
    for (int i = 0; i < slowMs.length; i++) {
      out[n + i] = slowMs[i] * MS;
    }
    return out;
  }

  @Test
  void theSameSeedGivesTheSameIntervalTwice() {
    long[] x = new long[300];
    Random r = new Random(7);
    for (int i = 0; i < x.length; i++) {
      x[i] = (50 + r.nextInt(200)) * MS;
    }
    Bootstrap.Interval a = Bootstrap.p99(x);
    Bootstrap.Interval b = Bootstrap.p99(x);
    assertEquals(a.value, b.value);
    assertEquals(a.low, b.low);
    assertEquals(a.high, b.high);
    assertTrue(a.low <= a.value && a.value <= a.high, a.text("%.1f"));
  }

  @Test
  void aP99RestingOnFourSlowFilesOf300IsUncertainBetweenThem() {
    // 296 files of 100 ms, four of 1 to 4 s: p99 is the 297th of 300, the 1 s file. A resample
    // holds about four slow files, often three or fewer (its p99 then 100 ms), sometimes eight.
    Bootstrap.Interval p99 = Bootstrap.p99(files(296, 1000, 2000, 3000, 4000));
    assertEquals(1000, p99.value, 1e-9);
    assertEquals(100, p99.low, 1e-9, p99.text("%.0f"));
    assertTrue(p99.high >= 2000, p99.text("%.0f"));
  }

  @Test
  void aP99OfNoSlowFilesIsCertain() {
    Bootstrap.Interval p99 = Bootstrap.p99(files(300));
    assertEquals(100, p99.low, 1e-9);
    assertEquals(100, p99.high, 1e-9);
  }

  @Test
  void aRatioOfEqualModesIsATieAndOfDistantOnesIsNot() {
    long[] a = files(296, 1000, 2000, 3000, 4000);
    Bootstrap.Interval same = Bootstrap.p99Ratio(a, a.clone());
    assertEquals(1.0, same.value, 1e-9);
    assertTrue(same.reaches(1), same.text("%.2f"));

    // 300 files all ten times as fast: whatever the resample, under a tenth of the other's p99.
    long[] fast = files(300);
    for (int i = 0; i < fast.length; i++) {
      fast[i] /= 10;
    }
    Bootstrap.Interval ratio = Bootstrap.p99Ratio(fast, a);
    assertEquals(0.01, ratio.value, 1e-9);
    assertFalse(ratio.reaches(1), ratio.text("%.3f"));
    assertTrue(ratio.high <= 0.1, ratio.text("%.3f"));
  }

  @Test
  void noFilesGiveNoFigure() {
    assertTrue(Double.isNaN(Bootstrap.p99(new long[0]).value));
    assertTrue(Double.isNaN(Bootstrap.p99Ratio(files(3), new long[0]).value));
    assertEquals("-", Bootstrap.p99(new long[0]).text("%.1f"));
  }
}
