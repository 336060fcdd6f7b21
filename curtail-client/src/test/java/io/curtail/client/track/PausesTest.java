package io.curtail.client.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PausesTest {
  private static final long PERIOD = 5;

  @Test
  void aLookUpToTwoPeriodsLateIsNoPause() {
    Pauses p = new Pauses(PERIOD);
    assertFalse(p.look(100), "the first look has nothing to compare with");
    assertFalse(p.look(110), "two periods apart: a look one period late");
    assertEquals(0, p.within(0, 1_000));
  }

  @Test
  void aLookLaterFindsThePauseFromOnePeriodAfterTheLastLook() {
    Pauses p = new Pauses(PERIOD);
    p.look(100);
    assertTrue(p.look(111), "one tick past two periods");
    // Paused over [105, 111]: the look due at 105 came at 111.
    assertEquals(6, p.within(0, 200));
    assertEquals(6, p.within(105, 111));
    assertEquals(3, p.within(108, 200), "a wait begun in the pause counts the rest of it");
    assertEquals(2, p.within(100, 107), "a wait ended in the pause counts its start");
    assertEquals(0, p.within(111, 200), "a wait begun after it");
    assertEquals(0, p.within(0, 105), "a wait ended before it");
  }

  @Test
  void waitsSpanningSeveralPausesCountEach() {
    Pauses p = new Pauses(PERIOD);
    p.look(0);
    p.look(20); // [5, 20]
    p.look(25);
    p.look(40); // [30, 40]
    assertEquals(15 + 10, p.within(0, 100));
    assertEquals(5 + 10, p.within(15, 100));
  }

  @Test
  void keepsTheLastFewPausesOnly() {
    Pauses p = new Pauses(PERIOD);
    long now = 0;
    p.look(now);
    for (int i = 0; i <= Pauses.KEPT; i++) {
      now += 20; // each a pause of 15
      p.look(now);
    }
    assertEquals(Pauses.KEPT * 15, p.within(0, now), "the first pause is forgotten");
  }

  @Test
  void worksAcrossNegativeClockReadings() {
    Pauses p = new Pauses(PERIOD);
    assertEquals(0, p.within(-100, -1), "nothing kept: nothing paused");
    p.look(-50);
    p.look(-30); // [-45, -30]
    assertEquals(15, p.within(-100, 0));
  }

  @Test
  void refusesANonPositivePeriod() {
    assertThrows(IllegalArgumentException.class, () -> new Pauses(0));
  }
}
