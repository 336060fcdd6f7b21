package io.curtail.client.read.striped;

import java.util.Arrays;

/**
 * Which cells of one stripe to read next, and when the stripe is ready: the rule of reading
 * around a slow DataNode, apart from the reads that carry it out. Pure: states in, a decision
 * out, no clock, no I/O.
 *
 * <p>The rule (EC-Cache, OSDI '16 §4; Ceph's {@code fast_read}): a stripe of {@code k} data and
 * {@code m} parity cells can be decoded from any {@code k} of them. The cells the read asks for
 * are read from their DataNodes; while every one of them is on time, nothing else is read. A cell
 * late by the hedge rule, one whose DataNode the JVM knows slow (avoided: read around from the
 * start), or one that failed, is read around: enough other cells, data first, then parity, are
 * started to make {@code k} cells that are arrived or on their way, and the stripe is decoded as
 * soon as any {@code k} have arrived. Cells of the range that lie past the end of a short last
 * stripe are empty: zeros, arrived from the start.
 *
 * <p>A read around of a cell that failed is recovery, as stock's, and free; any other is a hedge,
 * which the caller puts through the hedge budget and bounds ({@link Decision#free}).
 */
final class StripePolicy {
  /** What one cell of the stripe is doing. */
  enum Cell {
    /** Not asked for yet. */
    IDLE,
    /** Being read, on time. */
    READING,
    /** Being read, but its packet is later than the hedge threshold. */
    LATE,
    ARRIVED,
    /** Its read failed, or it has no location. */
    FAILED,
    /** Holds no bytes of the range: zeros. */
    EMPTY
  }

  /** What to do now. */
  enum Outcome {
    /** Every cell asked for arrived: copy them out. */
    READ,
    /** {@code k} cells arrived though one asked for did not: decode. */
    DECODE,
    /** Start the cells given, then wait. */
    WAIT,
    /** Fewer than {@code k} cells can still arrive: the stripe cannot be read. */
    LOST
  }

  /** A decision: the outcome, and the cells to start (their reads around last). */
  static final class Decision {
    final Outcome outcome;
    /** Cells asked for, to read from their DataNodes: no budget. */
    final int[] direct;
    /** Cells to read around the slow or failed ones, in order of preference. */
    final int[] around;
    /** How many of {@link #around}'s first cells replace failed cells: no budget for those. */
    final int free;

    Decision(Outcome outcome, int[] direct, int[] around, int free) {
      this.outcome = outcome;
      this.direct = direct;
      this.around = around;
      this.free = free;
    }

    @Override
    public String toString() {
      return outcome + "{direct=" + Arrays.toString(direct) + ", around=" + Arrays.toString(around)
          + ", free=" + free + '}';
    }
  }

  private static final int[] NONE = new int[0];

  private StripePolicy() {}

  /**
   * {@code cells} with those in flight judged: a cell being read is late when its packet is
   * later than its DataNode's hedge threshold while the stripe shows the lateness is its own, not
   * the client's or every DataNode's: another cell of the stripe arrived, or got a packet within
   * that threshold. A cell alone in flight is judged by the threshold alone, which is itself
   * relative to the other DataNodes the client reads from (paper §4.3).
   *
   * @param sinceProgressNanos how long ago each cell in flight started or got its last packet
   * @param thresholdNanos each cell in flight's hedge threshold
   */
  static Cell[] judge(Cell[] cells, long[] sinceProgressNanos, long[] thresholdNanos) {
    Cell[] judged = cells.clone();
    int inFlight = 0;
    boolean anyArrived = false;
    for (Cell c : cells) {
      inFlight += c == Cell.READING ? 1 : 0;
      anyArrived |= c == Cell.ARRIVED;
    }
    for (int i = 0; i < cells.length; i++) {
      if (cells[i] != Cell.READING || sinceProgressNanos[i] <= thresholdNanos[i]) {
        continue;
      }
      boolean othersMove = anyArrived || inFlight == 1;
      for (int j = 0; j < cells.length && !othersMove; j++) {
        othersMove = j != i && cells[j] == Cell.READING
            && sinceProgressNanos[j] <= thresholdNanos[i];
      }
      if (othersMove) {
        judged[i] = Cell.LATE;
      }
    }
    return judged;
  }

  /**
   * @param k data cells per stripe; {@code cells} holds those first, then the parity cells
   * @param asked which data cells hold bytes the read asked for
   * @param avoid which cells' DataNodes are known slow (read only when nothing else will do)
   */
  static Decision decide(int k, Cell[] cells, boolean[] asked, boolean[] avoid) {
    int arrived = 0;
    int onTheirWay = 0;
    int failed = 0;
    boolean allAskedIn = true;
    boolean blocked = false;
    int[] direct = new int[cells.length];
    int directs = 0;
    for (int i = 0; i < cells.length; i++) {
      Cell c = cells[i];
      arrived += c == Cell.ARRIVED || c == Cell.EMPTY ? 1 : 0;
      onTheirWay += c == Cell.READING ? 1 : 0;
      failed += c == Cell.FAILED ? 1 : 0;
      if (i < k && asked[i]) {
        allAskedIn &= c == Cell.ARRIVED || c == Cell.EMPTY;
        if (c == Cell.IDLE && !avoid[i]) {
          direct[directs++] = i;
        }
        blocked |= c == Cell.LATE || c == Cell.FAILED || c == Cell.IDLE && avoid[i];
      }
    }
    if (allAskedIn) {
      return new Decision(Outcome.READ, NONE, NONE, 0);
    }
    if (arrived >= k) {
      return new Decision(Outcome.DECODE, NONE, NONE, 0);
    }
    onTheirWay += directs;
    int wanted = blocked ? k - arrived - onTheirWay : 0;
    int[] around = new int[Math.max(0, wanted)];
    int arounds = 0;
    // Healthy cells first, data before parity (a data cell read is one the decode need not
    // make); known-slow ones only when nothing else is left.
    for (int pass = 0; pass < 2 && arounds < wanted; pass++) {
      for (int i = 0; i < cells.length && arounds < wanted; i++) {
        boolean unasked = i >= k || !asked[i];
        if (cells[i] == Cell.IDLE && unasked && avoid[i] == (pass == 1)) {
          around[arounds++] = i;
        }
      }
    }
    // Cells asked for but avoided: read from their slow DataNodes after all if too few others.
    for (int i = 0; i < k && arounds < wanted; i++) {
      if (asked[i] && cells[i] == Cell.IDLE && avoid[i]) {
        direct[directs++] = i;
        wanted--;
      }
    }
    int late = 0;
    for (Cell c : cells) {
      late += c == Cell.LATE ? 1 : 0;
    }
    if (onTheirWay + arounds + late == 0) { // nothing started, nothing in flight
      return new Decision(Outcome.LOST, NONE, NONE, 0);
    }
    return new Decision(Outcome.WAIT, Arrays.copyOf(direct, directs),
        Arrays.copyOf(around, arounds), Math.min(arounds, failed));
  }
}
