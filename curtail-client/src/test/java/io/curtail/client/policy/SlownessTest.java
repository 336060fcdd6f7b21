package io.curtail.client.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.track.LatencyStats;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The one rule of slowness, with its arithmetic worked by hand. */
class SlownessTest {
  private static final long MS = 1_000_000;
  private final Slowness rule = new Slowness(3.0, 5 * MS, 20);

  @Test
  void slowerByTheFactorAndTheMargin() {
    assertFalse(rule.slower(3 * MS, MS), "3 ms is not more than 3 × 1 ms");
    assertFalse(rule.slower(4 * MS, MS), "4 ms is 3× 1 ms but only 3 ms more, under the margin");
    assertTrue(rule.slower(6 * MS, MS), "6 ms: 6× and 5 ms more");
    assertTrue(new Slowness(3.0, 0, 1).slower(4 * MS, MS), "without a margin the factor alone");
  }

  @Test
  void onlyJudgedDataNodesCount() {
    LatencyStats fast = LatencyStats.of(20, MS, MS);
    LatencyStats young = LatencyStats.of(19, MS / 2, MS / 2);
    LatencyStats slow = LatencyStats.of(20, 10 * MS, 10 * MS);
    long fastest = rule.fastestPercentile(Arrays.asList(young, slow, fast));
    assertEquals(MS, fastest, "19 samples are too few to be the yardstick");
    assertTrue(rule.knownFast(fast, fastest));
    assertFalse(rule.knownFast(young, fastest), "not judged: not known either way");
    assertFalse(rule.knownFast(slow, fastest));
  }

  @Test
  void slowEarlyOnAQuarterOfTheSamplesAndTheMedianOnlyWhereAsked() {
    Slowness early = rule.withEarlyJudgement();
    LatencyStats fiveSlow = LatencyStats.of(5, 40 * MS, 30 * MS, 20 * MS);
    assertTrue(early.slowEarly(fiveSlow, MS), "5 samples, median 20 ms: 20× and 19 ms more");
    assertFalse(rule.slowEarly(fiveSlow, MS), "off unless asked for");
    assertFalse(early.withMinSamples(10).slowEarly(fiveSlow, MS),
        "a rule of fewer samples has no earlier one");
    assertFalse(early.slowEarly(LatencyStats.of(4, 40 * MS, 30 * MS, 20 * MS), MS), "too few");
    assertFalse(early.slowEarly(LatencyStats.of(5, 40 * MS, 30 * MS, 5 * MS), MS),
        "a median under the margin");
    assertFalse(early.slowEarly(LatencyStats.of(20, 40 * MS, 30 * MS, 20 * MS), MS),
        "judged already: its percentile says");
    assertFalse(early.slowEarly(LatencyStats.of(5, 40 * MS, 30 * MS), MS), "no median known");

    assertEquals(40 * MS, early.yardstickNanos(LatencyStats.of(20, 40 * MS, 30 * MS, 20 * MS)),
        "judged: the percentile");
    assertEquals(20 * MS, early.yardstickNanos(fiveSlow), "not yet: the median");
    assertEquals(Long.MAX_VALUE, rule.yardstickNanos(fiveSlow), "without early judgement: none");
    assertEquals(Long.MAX_VALUE,
        early.yardstickNanos(LatencyStats.of(4, 40 * MS, 30 * MS, 20 * MS)), "too few: none");
  }

  @Test
  void shownFastOnTheYardstickAndTypicallySlowOnTheMedianOrMean() {
    Slowness early = rule.withEarlyJudgement();
    assertTrue(early.shownFast(LatencyStats.of(5, 9 * MS, 3 * MS, 2 * MS), MS),
        "a median of 2 ms next to 1: not slower");
    assertFalse(early.shownFast(LatencyStats.of(5, 90 * MS, 40 * MS, 30 * MS), MS));
    assertFalse(early.shownFast(LatencyStats.of(1, MS, MS, MS), MS), "one sample shows nothing");
    assertFalse(early.shownFast(LatencyStats.EMPTY, MS));
    assertTrue(early.shownFast(LatencyStats.of(100, 3 * MS, MS), MS), "judged: its percentile");

    assertTrue(early.slowTypically(LatencyStats.of(20, 600 * MS, 250 * MS, 300 * MS), MS),
        "judged, and slow on its median too");
    assertTrue(early.slowTypically(LatencyStats.of(100, 600 * MS, 250 * MS), MS),
        "no median kept: its mean");
    assertFalse(early.slowTypically(LatencyStats.of(100, 40 * MS, 2 * MS), MS),
        "slow in its tail alone");
    assertFalse(rule.slowTypically(LatencyStats.of(100, 600 * MS, 250 * MS), MS),
        "off unless early judgement is asked for");
  }

  @Test
  void slowEarlyOnlyBehindADataNodeNotShownFastTellsNothing() {
    Slowness early = rule.withEarlyJudgement();
    LatencyStats behind = LatencyStats.of(6, 280 * MS, 150 * MS, 200 * MS);
    LatencyStats fast = LatencyStats.of(5, 2 * MS, MS, MS); // the yardstick: a median of 1 ms
    LatencyStats unshown = LatencyStats.EMPTY;
    LatencyStats slowItself = LatencyStats.of(5, 90 * MS, 40 * MS, 30 * MS);
    LatencyStats shown = LatencyStats.of(5, 3 * MS, MS, MS);
    assertTrue(early.slowEarlyOnlyBehind(Arrays.asList(behind, unshown, fast), 0, 1, unshown),
        "behind one that has shown nothing");
    assertTrue(early.slowEarlyOnlyBehind(Arrays.asList(behind, slowItself, fast), 0, 1,
        slowItself), "behind one slow itself");
    assertTrue(early.slowEarlyOnlyBehind(Arrays.asList(behind, fast), 0, -1, slowItself),
        "behind one slow itself, not in this pipeline");
    assertFalse(early.slowEarlyOnlyBehind(Arrays.asList(behind, shown, fast), 0, 1, shown),
        "behind one shown fast: a slow disk's samples, which count");
    LatencyStats notSlow = LatencyStats.of(6, 3 * MS, MS, MS);
    assertFalse(early.slowEarlyOnlyBehind(Arrays.asList(notSlow, unshown, fast), 0, 1, unshown),
        "not slow early: it keeps its samples as a yardstick");
    assertFalse(early.slowEarlyOnlyBehind(Arrays.asList(behind, unshown), 0, 1, unshown),
        "nothing to compare with");
    assertFalse(early.slowEarlyOnlyBehind(Arrays.asList(behind, slowItself), 0, 1, slowItself),
        "nothing to show its feeder fast or not beside");
  }

  @Test
  void minSamplesKeepOneStallFromBeingThePercentile() {
    assertEquals(20, Slowness.minSamples(0.95, 100), "p95 of 20 is not the largest of 20");
    assertEquals(20, Slowness.minSamples(0.95, 20));
    assertEquals(10, Slowness.minSamples(0.95, 10), "never more than the window");
    assertEquals(51, Slowness.minSamples(0.5, 512), "a tenth of a large window");
  }

  @Test
  void bestSourceIsIdleThenNotSlowThenFurthestDownThePipeline() {
    LatencyStats unknown = LatencyStats.EMPTY;
    LatencyStats fast = LatencyStats.of(20, MS, MS);
    LatencyStats alsoFast = LatencyStats.of(20, 2 * MS, 2 * MS);
    LatencyStats slow = LatencyStats.of(20, 9 * MS, 9 * MS);
    assertEquals(1, rule.bestSource(Arrays.asList(fast, alsoFast, slow), new boolean[3]),
        "not slow, and further down than the fastest: it holds every byte the first showed");
    assertEquals(1, rule.bestSource(Arrays.asList(slow, fast, unknown), new boolean[3]),
        "one known not to be slow before one not judged");
    assertEquals(2, rule.bestSource(Arrays.asList(fast, slow, unknown),
        new boolean[] {true, false, false}), "one not judged before a slow one");
    assertEquals(0, rule.bestSource(Arrays.asList(slow, fast, unknown),
        new boolean[] {false, true, true}), "a busy DataNode is the last resort");
    assertEquals(1, rule.bestSource(Arrays.asList(fast, fast), new boolean[2]),
        "ties go to the later position");
  }

  @Test
  void badNumbersAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Slowness(1.0, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new Slowness(3.0, -1, 1));
    assertThrows(IllegalArgumentException.class, () -> new Slowness(3.0, 0, 0));
  }
}
