package io.curtail.client.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.track.LatencyStats;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every branch of smart hedging (paper §4.3): threshold, backoff, target choice. */
class HedgingTest {
  private static final long MS = 1_000_000L;
  private final Hedging smart = new Hedging(500 * MS, 0, true, 3.0, 20, 3, 16);
  private final Hedging fixed = new Hedging(500 * MS, 0, false, 3.0, 20, 3, 16);

  @Test
  void staticThresholdIgnoresWhatOthersDo() {
    assertEquals(500 * MS, fixed.thresholdNanos(LatencyStats.of(1000, 2 * MS, MS)));
  }

  @Test
  void smartThresholdBootstrapsThenAdaptsToOtherNodes() {
    assertEquals(500 * MS, smart.thresholdNanos(LatencyStats.EMPTY));
    assertEquals(500 * MS, smart.thresholdNanos(LatencyStats.of(19, 2 * MS, MS)));
    assertEquals(6 * MS, smart.thresholdNanos(LatencyStats.of(20, 2 * MS, MS)));
    // Under load everyone is slower, and so is the threshold: no bouncing between replicas.
    assertEquals(1200 * MS, smart.thresholdNanos(LatencyStats.of(20, 400 * MS, 300 * MS)));
    assertEquals(1, smart.thresholdNanos(LatencyStats.of(20, 0, 0)));
  }

  @Test
  void smartThresholdNeverDropsBelowItsFloor() {
    Hedging floored = new Hedging(500 * MS, 50 * MS, true, 3.0, 20, 3, 16);
    assertEquals(50 * MS, floored.thresholdNanos(LatencyStats.of(20, 2 * MS, MS)));
    assertEquals(60 * MS, floored.thresholdNanos(LatencyStats.of(20, 20 * MS, MS)));
    assertEquals(500 * MS, floored.thresholdNanos(LatencyStats.EMPTY)); // bootstrap unchanged
  }

  @Test
  void aColdClientHedgesAReplicaReportedLoadedAtTheFloor() {
    Hedging floored = new Hedging(500 * MS, 25 * MS, true, 3.0, 20, 3, 16);
    // Cold (19 samples of other DataNodes, fewer than 20): the bootstrap, 500 ms, unless the
    // NameNode reports the replica loaded: then the floor, 25 ms.
    assertEquals(500 * MS, floored.thresholdNanos(19, MS, false));
    assertEquals(25 * MS, floored.thresholdNanos(19, MS, true));
    // Warm, the client's own measurements decide alone: 3 x 20 ms = 60 ms, loaded or not.
    assertEquals(60 * MS, floored.thresholdNanos(20, 20 * MS, true));
    assertEquals(60 * MS, floored.thresholdNanos(20, 20 * MS, false));
    // Static hedging keeps its one threshold; a floor above the bootstrap leaves the bootstrap.
    assertEquals(500 * MS, fixed.thresholdNanos(0, 0, true));
    Hedging high = new Hedging(10 * MS, 25 * MS, true, 3.0, 20, 3, 16);
    assertEquals(10 * MS, high.thresholdNanos(0, 0, true));
  }

  @Test
  void lostHedgesBackOffExponentiallyInPacketsThenGiveUp() {
    HedgeBackoff b = HedgeBackoff.NONE;
    assertTrue(b.allows(0));
    b = smart.afterLoss(b, 100);
    assertEquals(1, b.losses());
    assertFalse(b.allows(115));
    assertTrue(b.allows(116)); // 16 packets
    b = smart.afterLoss(b, 200);
    assertFalse(b.allows(231));
    assertTrue(b.allows(232)); // 32 packets
    b = smart.afterLoss(b, 300);
    assertEquals(364, b.resumeAtPacket()); // 64 packets: the third and last retry
    assertFalse(b.givenUp());
    b = smart.afterLoss(b, 400);
    assertTrue(b.givenUp());
    assertFalse(b.allows(Long.MAX_VALUE - 1));
  }

  @Test
  void aWinClearsTheRecord() {
    HedgeBackoff b = smart.afterLoss(smart.afterLoss(HedgeBackoff.NONE, 0), 16);
    assertEquals(HedgeBackoff.NONE, smart.afterWin());
    assertTrue(smart.afterWin().allows(b.resumeAtPacket() - 1));
  }

  @Test
  void zeroRetriesNeverHedgesToALoserAgain() {
    Hedging never = new Hedging(500 * MS, 0, true, 3.0, 20, 0, 16);
    assertTrue(never.afterLoss(HedgeBackoff.NONE, 5).givenUp());
  }

  @Test
  void backoffSaturatesInsteadOfOverflowing() {
    Hedging huge = new Hedging(MS, 0, true, 3.0, 1, 70, 1 << 20);
    HedgeBackoff b = HedgeBackoff.NONE;
    for (int i = 0; i < 70; i++) {
      b = huge.afterLoss(b, Long.MAX_VALUE / 2);
      assertTrue(b.resumeAtPacket() > 0, b.toString());
    }
  }

  @Test
  void targetIsTheNextReplicaInOrderSkippingBackedOffAndBusy() {
    HedgeBackoff lost = smart.afterLoss(HedgeBackoff.NONE, 0); // until packet 16
    List<HedgeBackoff> none = Arrays.asList(HedgeBackoff.NONE, HedgeBackoff.NONE,
        HedgeBackoff.NONE);
    boolean[] idle = {false, false, false};
    assertEquals(1, smart.nextTarget(0, none, idle, 0));
    assertEquals(0, smart.nextTarget(2, none, idle, 0)); // wraps around
    List<HedgeBackoff> secondLost = Arrays.asList(HedgeBackoff.NONE, lost, HedgeBackoff.NONE);
    assertEquals(2, smart.nextTarget(0, secondLost, idle, 15));
    assertEquals(1, smart.nextTarget(0, secondLost, idle, 16));
    assertEquals(2, smart.nextTarget(0, none, new boolean[] {false, true, false}, 0));
    assertEquals(-1, smart.nextTarget(0, none, new boolean[] {false, true, true}, 0));
    assertEquals(-1, smart.nextTarget(0, Arrays.asList(HedgeBackoff.NONE), new boolean[1], 0));
  }

  @Test
  void rejectsImpossibleInputs() {
    assertThrows(IllegalArgumentException.class, () -> new Hedging(0, 0, true, 3, 20, 3, 16));
    assertThrows(IllegalArgumentException.class, () -> new Hedging(1, -1, true, 3, 20, 3, 16));
    assertThrows(IllegalArgumentException.class, () -> new Hedging(1, 0, true, 1, 20, 3, 16));
    assertThrows(IllegalArgumentException.class, () -> new Hedging(1, 0, true, 3, 0, 3, 16));
    assertThrows(IllegalArgumentException.class, () -> new Hedging(1, 0, true, 3, 20, -1, 16));
    assertThrows(IllegalArgumentException.class, () -> new Hedging(1, 0, true, 3, 20, 3, 0));
    List<HedgeBackoff> one = Arrays.asList(HedgeBackoff.NONE);
    assertThrows(IllegalArgumentException.class,
        () -> smart.nextTarget(0, one, new boolean[2], 0));
    assertThrows(IllegalArgumentException.class,
        () -> smart.nextTarget(1, one, new boolean[1], 0));
  }

  @Test
  void aReplicaKnownToTakeLongerThanTheThresholdIsNotWorthAHedge() {
    assertTrue(Hedging.worthHedgingTo(0, 50), "unknown: worth trying");
    assertTrue(Hedging.worthHedgingTo(50, 50));
    assertFalse(Hedging.worthHedgingTo(51, 50), "it would only join a slow queue");
  }
}
