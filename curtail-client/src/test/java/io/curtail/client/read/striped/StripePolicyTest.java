package io.curtail.client.read.striped;

import static io.curtail.client.read.striped.StripePolicy.Cell.ARRIVED;
import static io.curtail.client.read.striped.StripePolicy.Cell.EMPTY;
import static io.curtail.client.read.striped.StripePolicy.Cell.FAILED;
import static io.curtail.client.read.striped.StripePolicy.Cell.IDLE;
import static io.curtail.client.read.striped.StripePolicy.Cell.LATE;
import static io.curtail.client.read.striped.StripePolicy.Cell.READING;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.curtail.client.read.striped.StripePolicy.Cell;
import io.curtail.client.read.striped.StripePolicy.Decision;
import io.curtail.client.read.striped.StripePolicy.Outcome;
import org.junit.jupiter.api.Test;

/** RS-3-2 stripes (cells 0..2 data, 3..4 parity), worked by hand. */
class StripePolicyTest {
  private static final int K = 3;
  private static final boolean[] ALL = {true, true, true, false, false};
  private static final boolean[] NONE_SLOW = new boolean[5];

  private static Decision decide(boolean[] asked, boolean[] avoid, Cell... cells) {
    return StripePolicy.decide(K, cells, asked, avoid);
  }

  @Test
  void healthyStripeReadsOnlyTheCellsAskedFor() {
    Decision d = decide(new boolean[] {false, true, false, false, false}, NONE_SLOW,
        IDLE, IDLE, IDLE, IDLE, IDLE);
    assertEquals(Outcome.WAIT, d.outcome);
    assertArrayEquals(new int[] {1}, d.direct);
    assertArrayEquals(new int[0], d.around, "nothing late: no parity read");
  }

  @Test
  void cellsOnTimeAreWaitedFor() {
    Decision d = decide(ALL, NONE_SLOW, ARRIVED, READING, ARRIVED, IDLE, IDLE);
    assertEquals(Outcome.WAIT, d.outcome);
    assertEquals(0, d.direct.length + d.around.length);
  }

  @Test
  void aLateCellIsReadAroundWithOneParityCellUnderTheBudget() {
    // Two arrived, one late: one more cell makes k = 3.
    Decision d = decide(ALL, NONE_SLOW, ARRIVED, LATE, ARRIVED, IDLE, IDLE);
    assertArrayEquals(new int[] {3}, d.around);
    assertEquals(0, d.free, "a late cell is a hedge: it pays the budget");
  }

  @Test
  void aSmallReadAroundReadsTheUnaskedDataCellsFirst() {
    // Only cell 1 asked for, late: cells 0 and 2 (data) make k with... 0, 2 and one parity.
    Decision d = decide(new boolean[] {false, true, false, false, false}, NONE_SLOW,
        IDLE, LATE, IDLE, IDLE, IDLE);
    assertArrayEquals(new int[] {0, 2, 3}, d.around);
  }

  @Test
  void aKnownSlowDataNodeIsReadAroundFromTheStart() {
    boolean[] slow = {true, false, false, false, false};
    Decision d = decide(ALL, slow, IDLE, IDLE, IDLE, IDLE, IDLE);
    assertArrayEquals(new int[] {1, 2}, d.direct);
    assertArrayEquals(new int[] {3}, d.around, "parity first, in place of slow cell 0");
  }

  @Test
  void aFailedCellIsReplacedFreely() {
    Decision d = decide(ALL, NONE_SLOW, ARRIVED, FAILED, READING, IDLE, IDLE);
    assertArrayEquals(new int[] {3}, d.around);
    assertEquals(1, d.free, "recovery from a failure is no hedge");
  }

  @Test
  void anyKArrivedDecodes() {
    assertEquals(Outcome.DECODE, decide(ALL, NONE_SLOW, ARRIVED, LATE, ARRIVED, ARRIVED, READING)
        .outcome);
    assertEquals(Outcome.READ, decide(ALL, NONE_SLOW, ARRIVED, ARRIVED, ARRIVED, READING, IDLE)
        .outcome);
  }

  @Test
  void emptyCellsOfAShortStripeCountAsArrived() {
    Decision d = decide(ALL, NONE_SLOW, ARRIVED, EMPTY, EMPTY, IDLE, IDLE);
    assertEquals(Outcome.READ, d.outcome);
  }

  @Test
  void tooManyFailuresLoseTheStripe() {
    Decision d = decide(ALL, NONE_SLOW, ARRIVED, FAILED, FAILED, FAILED, ARRIVED);
    assertEquals(Outcome.LOST, d.outcome);
  }

  private static final long MS = 1_000_000;

  @Test
  void aCellIsLateOnlyPastItsThresholdWhileAnotherMoves() {
    Cell[] cells = {READING, READING, READING, IDLE, IDLE};
    long[] threshold = {25 * MS, 25 * MS, 25 * MS, 0, 0};
    // Cell 1 silent 25 ms, exactly its threshold: on time. One tick more: late, as cell 0 moves.
    assertArrayEquals(cells, StripePolicy.judge(cells, new long[] {1 * MS, 25 * MS, 2 * MS, 0, 0},
        threshold));
    assertArrayEquals(new Cell[] {READING, LATE, READING, IDLE, IDLE},
        StripePolicy.judge(cells, new long[] {1 * MS, 25 * MS + 1, 2 * MS, 0, 0}, threshold));
  }

  @Test
  void everyCellSilentIsTheClientsPauseNotADataNodes() {
    Cell[] cells = {READING, READING, READING, IDLE, IDLE};
    long[] threshold = {25 * MS, 25 * MS, 25 * MS, 0, 0};
    assertArrayEquals(cells, StripePolicy.judge(cells, new long[] {40 * MS, 30 * MS, 26 * MS, 0,
        0}, threshold), "all silent together: nobody is late");
  }

  @Test
  void aCellArrivedShowsTheOthersLateness() {
    Cell[] cells = {ARRIVED, READING, IDLE, IDLE, IDLE};
    assertArrayEquals(new Cell[] {ARRIVED, LATE, IDLE, IDLE, IDLE}, StripePolicy.judge(cells,
        new long[] {0, 30 * MS, 0, 0, 0}, new long[] {0, 25 * MS, 0, 0, 0}));
  }
}
