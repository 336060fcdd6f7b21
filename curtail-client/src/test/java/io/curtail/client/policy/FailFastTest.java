package io.curtail.client.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.policy.FailFastDecision.Reason;
import io.curtail.client.track.LatencyStats;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every branch of the fail-fast rule (paper §4.2), with numbers worked out by hand. */
class FailFastTest {
  private static final long MS = 1_000_000L;
  private static final int PACKET = 64 * 1024;
  private static final long TIMEOUT_FLOOR = 1000 * MS;
  private final FailFast policy = new FailFast(3.0, 100, 5, TIMEOUT_FLOOR, 0);

  /** A DataNode with a full window whose p95 and mean are both {@code ms}. */
  private static LatencyStats node(long ms) {
    return LatencyStats.of(100, ms * MS, ms * MS);
  }

  private static List<LatencyStats> pipeline(LatencyStats... nodes) {
    return Arrays.asList(nodes);
  }

  @Test
  void replacesASlowNodeEarlyInTheBlock() {
    // 10 packets written, 1000 to go. Keep: 30ms × 1000 = 30s.
    // Replace: rebuild 10 packets from the last (not slow: 2ms) = 20ms, then 1000 × mean(1, 2)
    // = 1.5ms = 1.5s.
    FailFastDecision d = policy.decide(pipeline(node(1), node(30), node(2)), 10L * PACKET,
        PACKET, 1000, 0);
    assertTrue(d.replace(), d.toString());
    assertEquals(1, d.replaceIndex());
    assertEquals(2, d.sourceIndex());
    assertEquals(30_000 * MS, d.predictedKeepNanos());
    assertEquals(1_520 * MS, d.predictedReplaceNanos());
    assertEquals(TIMEOUT_FLOOR, d.rebuildTimeoutNanos()); // 20ms expected, floored
  }

  @Test
  void aMiddleDataNodeIsNoYardstickForTheMean() {
    // Equally slow disks: the middle one's writes overlap the first's, so its share is tiny.
    // The ends cost alike: nobody is slow.
    assertEquals(Reason.NOT_SLOW,
        policy.decide(pipeline(node(10), node(1), node(10)), 0, PACKET, 1000, 0).reason());
    // A slow end is still judged against the other end, and a slow middle against the ends.
    assertEquals(0, policy.decide(pipeline(node(30), node(1), node(1)), 0, PACKET, 1000, 0)
        .replaceIndex());
    assertEquals(1, policy.decide(pipeline(node(1), node(30), node(2)), 0, PACKET, 1000, 0)
        .replaceIndex());
    assertEquals(Reason.WARMING_UP, policy.decide(pipeline(node(30), node(1),
        LatencyStats.of(1, MS, MS)), 0, PACKET, 1000, 0).reason(), "the other end unjudged");
    // The percentile is compared with the fastest of all: the last's tail is long (its acks'
    // scheduling), but the first costs over 3× the last per packet, and its tail is 4× the middle's.
    assertEquals(0, policy.decide(pipeline(LatencyStats.of(100, 20 * MS, 12 * MS),
        LatencyStats.of(100, 5 * MS, 2 * MS), LatencyStats.of(100, 8 * MS, 3 * MS)), 0, PACKET,
        1000, 0).replaceIndex());
  }

  @Test
  void jitterWithinTheMinimumSlowdownIsNotSlow() {
    // 4 ms against 0.5 ms is 8× slower but only 3.5 ms more: below a 5 ms margin, not slow.
    FailFast withMargin = new FailFast(3.0, 100, 5, TIMEOUT_FLOOR, 5 * MS);
    LatencyStats fast = LatencyStats.of(100, MS / 2, MS / 2);
    assertEquals(Reason.NOT_SLOW,
        withMargin.decide(pipeline(fast, node(4)), 0, PACKET, 1000, 0).reason());
    assertTrue(withMargin.decide(pipeline(fast, node(6)), 0, PACKET, 1000, 0).replace());
  }

  @Test
  void aLongTailAloneIsNotSlow() {
    // p95 10× the fastest's, but the mean only 2×: a burst of jitter, not a slow DataNode.
    LatencyStats tail = LatencyStats.of(100, 30 * MS, 2 * MS);
    assertEquals(Reason.NOT_SLOW,
        policy.decide(pipeline(node(1), tail, node(1)), 0, PACKET, 1000, 0).reason());
  }

  @Test
  void keepsWhenTheBlockIsNearlyDone() {
    // 2000 packets written, 5 to go. Keep: 30ms × 5 = 150ms. Replace: rebuild 2000 × 1ms = 2s.
    FailFastDecision d = policy.decide(pipeline(node(1), node(30), node(2)), 2000L * PACKET,
        PACKET, 5, 0);
    assertFalse(d.replace());
    assertEquals(Reason.NOT_WORTH_IT, d.reason());
  }

  @Test
  void breakEvenKeeps() {
    // Keep: 4ms × 10 = 40ms. Replace: rebuild 30 packets × 1ms = 30ms + 10 × 1ms = 40ms.
    FailFastDecision d = policy.decide(pipeline(node(1), node(4)), 30L * PACKET, PACKET, 10, 0);
    assertEquals(Reason.NOT_WORTH_IT, d.reason());
    FailFastDecision justWorth = policy.decide(pipeline(node(1), node(4)), 29L * PACKET, PACKET,
        10, 0);
    assertTrue(justWorth.replace());
  }

  @Test
  void slownessIsRelativeToTheFastestNotAFixedNumber() {
    // Every node at 3 seconds per packet: all equally slow, nothing to gain.
    assertEquals(Reason.NOT_SLOW,
        policy.decide(pipeline(node(3000), node(3000), node(3000)), 0, PACKET, 1000, 0).reason());
    // Exactly 3× is within the factor; just over is slow.
    assertEquals(Reason.NOT_SLOW,
        policy.decide(pipeline(node(10), node(30)), 0, PACKET, 1000, 0).reason());
    assertTrue(policy.decide(pipeline(node(10), LatencyStats.of(100, 30 * MS + 1, 30 * MS + 1)),
        0, PACKET, 1000, 0).replace());
  }

  @Test
  void olderButWithinTheFactorIsLeftAlone() {
    assertEquals(Reason.NOT_SLOW,
        policy.decide(pipeline(node(10), node(25), node(12)), 0, PACKET, 1000, 0).reason());
  }

  @Test
  void blamesNobodyWhileItsYoungerFeederLooksSlowerStill() {
    // A DataNode slow sending makes the one it feeds look slow, and gathers samples slowest.
    LatencyStats young = LatencyStats.of(9, 300 * MS, 200 * MS);
    assertEquals(Reason.WARMING_UP,
        policy.decide(pipeline(young, node(40), node(1)), 0, PACKET, 1000, 0).reason());
    // A young one it feeds, or a feeder that looks faster, does not stop it being blamed.
    FailFastDecision d = policy.decide(pipeline(node(1), node(40), young), 0, PACKET, 1000, 0);
    assertTrue(d.replace(), d.toString());
    assertEquals(1, d.replaceIndex());
    LatencyStats newcomer = LatencyStats.of(9, 2 * MS, 2 * MS);
    d = policy.decide(pipeline(newcomer, node(40), node(1)), 0, PACKET, 1000, 0);
    assertTrue(d.replace(), d.toString());
    assertEquals(1, d.replaceIndex());
  }

  @Test
  void aDataNodeSlowAtEveryOtherPacketIsJudgedEarlyOnItsMedian() {
    // 20 samples to judge a p95, 5 to be found slow early on a median.
    FailFast early = new FailFast(new Slowness(3.0, 0, 20).withEarlyJudgement(), 5,
        TIMEOUT_FLOOR);
    LatencyStats slowFive = LatencyStats.of(5, 500 * MS, 300 * MS, 200 * MS);
    FailFastDecision d = early.decide(pipeline(node(1), node(2), slowFive), 0, PACKET, 1000, 0);
    assertTrue(d.replace(), d.toString());
    assertEquals(2, d.replaceIndex());
    // Behind a slow DataNode the others gather samples no faster: their medians are the
    // yardstick, and the rebuild's source is one of them.
    LatencyStats fastFive = LatencyStats.of(5, 9 * MS, 3 * MS, 2 * MS);
    d = early.decide(pipeline(fastFive, slowFive, LatencyStats.EMPTY), 0, PACKET, 1000, 0);
    assertTrue(d.replace(), d.toString());
    assertEquals(1, d.replaceIndex());
    assertEquals(0, d.sourceIndex());
    // A stall or two is no median; four samples are too few; and without the rule, none is.
    LatencyStats stalledTwice = LatencyStats.of(5, 500 * MS, 200 * MS, 1 * MS);
    assertFalse(early.decide(pipeline(node(1), node(2), stalledTwice), 0, PACKET, 1000, 0)
        .replace());
    LatencyStats slowFour = LatencyStats.of(4, 500 * MS, 300 * MS, 200 * MS);
    assertFalse(early.decide(pipeline(fastFive, node(2), slowFour), 0, PACKET, 1000, 0)
        .replace());
    FailFast late = new FailFast(new Slowness(3.0, 0, 20), 5, TIMEOUT_FLOOR);
    assertFalse(late.decide(pipeline(node(1), node(2), slowFive), 0, PACKET, 1000, 0).replace());
    // Of two found early in a row, the feeder: its sending may be what the other's stages hold.
    LatencyStats slowerFive = LatencyStats.of(5, 900 * MS, 500 * MS, 400 * MS);
    d = early.decide(pipeline(slowFive, slowerFive, node(1)), 0, PACKET, 1000, 0);
    assertTrue(d.replace(), d.toString());
    assertEquals(0, d.replaceIndex());
    // So too a judged feeder, slow on its median (or its mean, where so many samples have no
    // median kept): on separate processes, a shaped NIC's 583 ms p95 on 20 samples fed a
    // healthy DataNode whose 9 samples, all behind it, had it found slow early.
    LatencyStats judgedSlow = LatencyStats.of(20, 600 * MS, 250 * MS, 300 * MS);
    LatencyStats behindIt = LatencyStats.of(9, 400 * MS, 150 * MS, 150 * MS);
    d = early.decide(pipeline(judgedSlow, behindIt, node(2)), 0, PACKET, 1000, 0);
    assertTrue(d.replace(), d.toString());
    assertEquals(0, d.replaceIndex());
    d = early.decide(pipeline(LatencyStats.of(100, 600 * MS, 250 * MS), behindIt, node(2)), 0,
        PACKET, 1000, 0);
    assertTrue(d.replace(), d.toString());
    assertEquals(0, d.replaceIndex());
    // A judged feeder slow only in its tail is not: the one found early is still replaced.
    d = early.decide(pipeline(LatencyStats.of(100, 40 * MS, 2 * MS), behindIt, node(2)), 0,
        PACKET, 1000, 0);
    assertTrue(d.replace(), d.toString());
    assertEquals(1, d.replaceIndex());
    // One found early whose mean then says it is not slow does not hide the judged slowest.
    LatencyStats noisyFive = LatencyStats.of(5, 9 * MS, 1 * MS, 8 * MS);
    d = early.decide(pipeline(node(1), noisyFive, node(40)), 0, PACKET, 1000, 0);
    assertTrue(d.replace(), d.toString());
    assertEquals(2, d.replaceIndex());
  }

  @Test
  void judgesOnlyTheNodesWithAFullWindow() {
    LatencyStats young = LatencyStats.of(99, 500 * MS, 500 * MS);
    // The young node is neither blamed nor compared: the other two are alike.
    assertEquals(Reason.NOT_SLOW,
        policy.decide(pipeline(node(1), young, node(1)), 0, PACKET, 1000, 0).reason());
    // A node nothing is known of does not stop the others from being judged.
    FailFastDecision d = policy.decide(pipeline(node(1), node(500), LatencyStats.EMPTY), 0,
        PACKET, 1000, 0);
    assertTrue(d.replace(), d.toString());
    assertEquals(1, d.replaceIndex());
    assertEquals(0, d.sourceIndex());
    // With one judged node there is nothing to compare.
    assertEquals(Reason.WARMING_UP,
        policy.decide(pipeline(young, node(500), LatencyStats.EMPTY), 0, PACKET, 1000, 0)
            .reason());
  }

  @Test
  void aSingleNodePipelineHasNothingToCompare() {
    assertEquals(Reason.NOTHING_TO_COMPARE,
        policy.decide(pipeline(node(500)), 0, PACKET, 1000, 0).reason());
    assertEquals(Reason.NOTHING_TO_COMPARE,
        policy.decide(pipeline(), 0, PACKET, 1000, 0).reason());
  }

  @Test
  void abortedRebuildsGrowTheExpectedTimeLinearlyAndRotateTheSource() {
    // 1000 packets written, 1000 to go; first 2ms, slow 30ms, last 1ms.
    List<LatencyStats> p = pipeline(node(2), node(30), node(1));
    FailFastDecision first = policy.decide(p, 1000L * PACKET, PACKET, 1000, 0);
    assertEquals(2, first.sourceIndex()); // the furthest down
    assertEquals(1000 * MS, first.rebuildTimeoutNanos()); // 1000 × 1ms × 1
    FailFastDecision second = policy.decide(p, 1000L * PACKET, PACKET, 1000, 1);
    assertEquals(0, second.sourceIndex()); // the next
    assertEquals(4000 * MS, second.rebuildTimeoutNanos()); // 1000 × 2ms × 2
    FailFastDecision third = policy.decide(p, 1000L * PACKET, PACKET, 1000, 2);
    assertEquals(2, third.sourceIndex()); // back to the first choice
    assertEquals(3000 * MS, third.rebuildTimeoutNanos()); // 1000 × 1ms × 3
    assertEquals(1, third.replaceIndex());
  }

  @Test
  void linearGrowthEventuallyMakesReplacingNotWorthIt() {
    // Keep: 30ms × 100 = 3s. Replace: rebuild 500 × 1ms × k + 100 × 1ms.
    List<LatencyStats> p = pipeline(node(1), node(30));
    assertTrue(policy.decide(p, 500L * PACKET, PACKET, 100, 4).replace()); // 2.5s + .1s
    FailFast generous = new FailFast(3.0, 100, 10, TIMEOUT_FLOOR, 0);
    assertEquals(Reason.NOT_WORTH_IT, generous.decide(p, 500L * PACKET, PACKET, 100, 5).reason());
  }

  @Test
  void stopsAfterMaxAttempts() {
    List<LatencyStats> p = pipeline(node(1), node(300));
    assertTrue(policy.decide(p, 0, PACKET, 1000, 4).replace());
    assertEquals(Reason.ATTEMPTS_EXHAUSTED, policy.decide(p, 0, PACKET, 1000, 5).reason());
  }

  @Test
  void usesMeansForCostAndPercentilesForTheCheck() {
    // The slow node's p95 is 100ms but its mean only 3.5ms: keeping costs 3.5ms × 100 = 350ms,
    // replacing costs 200 packets × 1ms rebuild + 100 × 2ms = 400ms: keep.
    LatencyStats spiky = LatencyStats.of(100, 100 * MS, 3 * MS + MS / 2);
    LatencyStats fast = LatencyStats.of(100, 2 * MS, 1 * MS);
    LatencyStats other = LatencyStats.of(100, 3 * MS, 3 * MS);
    FailFastDecision d = policy.decide(pipeline(fast, spiky, other), 200L * PACKET, PACKET, 100, 0);
    assertEquals(Reason.NOT_WORTH_IT, d.reason());
  }

  @Test
  void tiesBreakByPipelinePosition() {
    FailFastDecision d = policy.decide(pipeline(node(1), node(1), node(90)), 0, PACKET, 10, 0);
    assertEquals(2, d.replaceIndex());
    assertEquals(1, d.sourceIndex(), "the further down");
    d = policy.decide(pipeline(node(1), node(1), node(90)), 0, PACKET, 10, 1);
    assertEquals(0, d.sourceIndex());
  }

  @Test
  void aSlowSurvivorIsTheLastSourceTried() {
    // The last survivor is 3× and 5 ms slower than the first: copying from it would be slow.
    List<LatencyStats> p = pipeline(node(1), node(300), node(9));
    assertEquals(0, policy.decide(p, 0, PACKET, 1000, 0).sourceIndex());
    assertEquals(2, policy.decide(p, 0, PACKET, 1000, 1).sourceIndex());
  }

  @Test
  void rejectsImpossibleInputs() {
    assertThrows(IllegalArgumentException.class, () -> new FailFast(1.0, 100, 5, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new FailFast(3.0, 0, 5, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new FailFast(3.0, 100, 0, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new FailFast(3.0, 100, 5, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new FailFast(3.0, 100, 5, 1, -1));
    List<LatencyStats> p = pipeline(node(1), node(30));
    assertThrows(IllegalArgumentException.class, () -> policy.decide(p, 0, 0, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> policy.decide(p, -1, PACKET, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> policy.decide(p, 0, PACKET, -1, 0));
    assertThrows(IllegalArgumentException.class, () -> policy.decide(p, 0, PACKET, 1, -1));
  }
}
