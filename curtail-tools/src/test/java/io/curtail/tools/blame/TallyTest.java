package io.curtail.tools.blame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Precision's and recall's intervals, worked by hand from Wilson's formula (z = 1.96). */
class TallyTest {
  @Test
  void aFewDozenDecisionsSayLittle() {
    // 12 of 16: centre (0.75 + 0.1200) / 1.2401, half 1.96 √(0.011719 + 0.003752) / 1.2401.
    assertArrayEquals(new double[] {0.505, 0.898}, Tally.wilson(12, 16), 0.001);
    // 12 of 12: every replacement right, and still not shown to be 0.95 or better.
    assertArrayEquals(new double[] {0.758, 1.0}, Tally.wilson(12, 12), 0.001);
    assertArrayEquals(new double[] {0.0, 0.242}, Tally.wilson(0, 12), 0.001);
  }

  @Test
  void noDecisionsHaveNoInterval() {
    double[] none = Tally.wilson(0, 0);
    assertTrue(Double.isNaN(none[0]) && Double.isNaN(none[1]));
  }

  @Test
  void aTallysIntervalsAreOfItsOwnCounts() {
    Tally t = new Tally();
    for (int i = 0; i < 12; i++) {
      t.decided(true, 100, 0);
      t.exposed(true, true);
    }
    assertArrayEquals(Tally.wilson(12, 12), t.precisionInterval(), 0);
    t.exposed(false, true); // a miss
    assertArrayEquals(Tally.wilson(12, 13), t.recallInterval(), 0);
  }
}
