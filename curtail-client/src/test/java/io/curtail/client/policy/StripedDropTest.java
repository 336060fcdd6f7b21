package io.curtail.client.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.policy.StripedDrop.Decision;
import io.curtail.client.policy.StripedDrop.Reason;
import io.curtail.client.track.LatencyStats;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every branch of the rule that lets a lagging streamer of a block group go, worked by hand. */
class StripedDropTest {
  private static final long MS = 1_000_000L;
  /** The pipelines' rule: 3× the fastest and 5 ms more, on at least 20 samples. */
  private final StripedDrop policy = new StripedDrop(new Slowness(3.0, 5 * MS, 20));

  /** A streamer with a full window whose p95 and mean are both {@code ms}. */
  private static LatencyStats streamer(long ms) {
    return LatencyStats.of(100, ms * MS, ms * MS);
  }

  /** An RS-3-2 group: three data streamers, then two parity ones. */
  private static List<LatencyStats> group(LatencyStats... streamers) {
    return Arrays.asList(streamers);
  }

  @Test
  void dropsTheOneSlowStreamerOfAWholeGroup() {
    // 100 packets to go. Keep: 40 ms × 100 = 4 s. Drop: 50 ms of recovery, then the next
    // slowest's 3 ms × 100 = 300 ms; 350 ms in all.
    Decision d = policy.decide(group(streamer(2), streamer(3), streamer(40), streamer(2),
        streamer(1)), 2, 0, 100, 50 * MS);
    assertTrue(d.drop(), d.toString());
    assertEquals(2, d.dropIndex());
    assertEquals(4_000 * MS, d.predictedKeepNanos());
    assertEquals(350 * MS, d.predictedDropNanos());
  }

  @Test
  void neverLeavesAGroupWithoutRedundancy() {
    // XOR-2-1: one parity unit; letting the slow streamer go would leave two data blocks alone.
    assertSame(Reason.NO_REDUNDANCY_LEFT, policy.decide(group(streamer(2), streamer(40),
        streamer(2)), 1, 0, 100, 50 * MS).reason());
  }

  @Test
  void atMostOneDropPerGroup() {
    assertSame(Reason.ALREADY_DROPPED, policy.decide(group(streamer(2), streamer(3),
        streamer(40), streamer(2), streamer(1)), 2, 1, 100, 50 * MS).reason());
  }

  @Test
  void aGroupAlreadyShortKeepsTheRest() {
    // A parity streamer failed (or had no DataNode): dropping the slow one would leave k + m − 2.
    Decision d = policy.decide(group(streamer(2), streamer(3), streamer(40), streamer(2), null), 2,
        0, 100, 50 * MS);
    assertSame(Reason.GROUP_ALREADY_SHORT, d.reason());
    assertEquals(-1, d.dropIndex());
  }

  @Test
  void unjudgedStreamersAreNeitherBlamedNorComparedWith() {
    LatencyStats fresh = LatencyStats.of(19, 400 * MS, 400 * MS); // one sample short of judged
    assertSame(Reason.WARMING_UP, policy.decide(group(fresh, fresh, fresh, fresh,
        streamer(40)), 2, 0, 100, 50 * MS).reason());
    // The fresh one's 400 ms is not blamed: the slowest judged (40) is dropped, judged against
    // the judged others.
    assertEquals(4, policy.decide(group(streamer(2), fresh, streamer(2), streamer(2),
        streamer(40)), 2, 0, 100, 50 * MS).dropIndex());
  }

  @Test
  void withinTheFactorOrTheMarginIsNotSlow() {
    // 5 ms against 2 ms: 2.5×, under the factor of 3.
    assertSame(Reason.NOT_SLOW, policy.decide(group(streamer(2), streamer(2), streamer(5),
        streamer(2), streamer(2)), 2, 0, 100, 0).reason());
    // 4 ms against 1 ms: 4×, but only 3 ms slower, under the 5 ms margin (jitter).
    assertSame(Reason.NOT_SLOW, policy.decide(group(streamer(1), streamer(1), streamer(4),
        streamer(1), streamer(1)), 2, 0, 100, 0).reason());
  }

  @Test
  void twoEquallySlowStreamersDropNeither() {
    // The slowest (40) is 40× the fastest, but the next (35) would set the group's pace anyway.
    assertSame(Reason.NOT_ALONE, policy.decide(group(streamer(1), streamer(35), streamer(40),
        streamer(1), streamer(1)), 2, 0, 100, 0).reason());
  }

  @Test
  void aTailAloneIsNotEnough() {
    // p95 of 40 ms from a pause or two, mean 3 ms: as fast as the next slowest on average.
    assertSame(Reason.NOT_ALONE, policy.decide(group(streamer(2), streamer(3),
        LatencyStats.of(100, 40 * MS, 3 * MS), streamer(2), streamer(2)), 2, 0, 100, 0).reason());
  }

  @Test
  void nearTheEndOfTheGroupRecoveryCostsMore() {
    // 2 packets to go. Keep: 40 × 2 = 80 ms. Drop: 100 ms of recovery + 3 × 2 = 106 ms.
    assertSame(Reason.NOT_WORTH_IT, policy.decide(group(streamer(2), streamer(3), streamer(40),
        streamer(2), streamer(1)), 2, 0, 2, 100 * MS).reason());
    // 3 packets: keep 120 ms, drop 109 ms.
    assertTrue(policy.decide(group(streamer(2), streamer(3), streamer(40), streamer(2),
        streamer(1)), 2, 0, 3, 100 * MS).drop());
  }

  @Test
  void keepingAllocatesNothing() {
    List<LatencyStats> g = group(streamer(2), streamer(2), streamer(2), streamer(2), streamer(2));
    assertSame(policy.decide(g, 2, 0, 100, 0), policy.decide(g, 2, 0, 5, 0));
    assertFalse(policy.decide(g, 2, 0, 100, 0).drop());
  }

  @Test
  void refusesNegativeNumbersNamingThem() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> policy.decide(group(streamer(1), streamer(1)), 1, 0, -1, 0));
    assertTrue(e.getMessage().contains("packetsRemaining"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> policy.decide(group(streamer(1), streamer(1)), 2, 0, 1, 0));
    assertTrue(e.getMessage().contains("parityUnits"), e.getMessage());
  }
}
