package io.curtail.client.read;

import io.curtail.client.track.Pauses;
import io.curtail.client.wire.Abortable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Who delivers one packet first: the primary read or its hedge (paper §4.3). Exactly one side
 * wins and the other knows it lost: every transition is one compare-and-set.
 *
 * <pre>
 *   PENDING      → HEDGING       the packet is overdue and a hedge starts ({@link #startHedge})
 *   PENDING, HEDGING, HEDGE_FAILED
 *                → PRIMARY_WON   the primary finished first, with data or an error
 *   HEDGING      → HEDGE_WON     the hedge delivered first; the primary's connection is cut
 *   HEDGING      → HEDGE_FAILED  the hedge failed; the primary may still deliver
 * </pre>
 *
 * <p>A race no hedge ever joined is {@link #rearm}ed for the reader's next packet instead of
 * being made anew, so reading allocates nothing per packet. The state carries the packet's
 * generation, so a watchdog that looked at the previous packet can never start a hedge for the
 * next one on what it saw of the previous. A race a hedge joined is never rearmed.
 *
 * <p>Threads: the reader thread runs the primary, {@link #claimForPrimary} and {@link #rearm};
 * the watchdog {@link #overdue} and {@link #startHedge}; a hedge thread the hedge's side.
 *
 * @param <R> the hedge's connection
 */
final class Race<R extends Abortable> {
  enum State { PENDING, HEDGING, PRIMARY_WON, HEDGE_WON, HEDGE_FAILED }

  private static final State[] STATES = State.values();
  private static final int PHASE_BITS = 3;

  /** A hedge that delivered first: its reader carries on with the rest of the range. */
  static final class Winner<R> {
    final R reader;
    final int replica;
    final ByteBuffer data;

    Winner(R reader, int replica, ByteBuffer data) {
      this.reader = reader;
      this.replica = replica;
      this.data = data;
    }
  }

  /** The packet's generation and its {@link State}: {@code generation << 3 | ordinal}. */
  private final AtomicLong state = new AtomicLong();
  // Written by the reader before the state that publishes them; read after it.
  private long armedNanos;
  private long deadlineNanos;
  private R primary;
  private int primaryIndex;
  private long from;
  private volatile boolean hedged;
  private volatile CountDownLatch hedgeDone;
  private volatile R hedge;
  private volatile Winner<R> winner;
  /** The last state {@link #firstDenial} was told of; the watchdog's alone. */
  private long deniedSeen = -1;

  /**
   * One packet read from {@code primary} at {@code from}, begun at {@code armedNanos}, to hedge
   * once {@code thresholdNanos} have passed.
   */
  Race(long armedNanos, long thresholdNanos, R primary, int primaryIndex, long from) {
    arm(0, armedNanos, thresholdNanos, primary, primaryIndex, from);
  }

  /** For the reader's next packet, if no hedge ever joined this race; else false. */
  boolean rearm(long armedNanos, long thresholdNanos, R primary, int primaryIndex, long from) {
    long s = state.get();
    if (hedged || phase(s) != State.PRIMARY_WON) {
      return false;
    }
    arm((s >>> PHASE_BITS) + 1, armedNanos, thresholdNanos, primary, primaryIndex, from);
    return true;
  }

  private void arm(long generation, long armedNanos, long thresholdNanos, R primary,
      int primaryIndex, long from) {
    this.armedNanos = armedNanos;
    this.deadlineNanos = armedNanos + thresholdNanos;
    this.primary = primary;
    this.primaryIndex = primaryIndex;
    this.from = from;
    state.set(generation << PHASE_BITS | State.PENDING.ordinal());
  }

  private static State phase(long s) {
    return STATES[(int) (s & ((1 << PHASE_BITS) - 1))];
  }

  private boolean move(State from, State to) {
    long s = state.get();
    return phase(s) == from && state.compareAndSet(s, s - from.ordinal() + to.ordinal());
  }

  State state() {
    return phase(state.get());
  }

  /** Whether a hedge ever joined this race. */
  boolean wasHedged() {
    return hedged;
  }

  /**
   * The packet's state if no side has moved and {@code nowNanos} is at or past its deadline, to
   * pass to {@link #startHedge}; -1 otherwise.
   */
  long overdue(long nowNanos) {
    return overdue(nowNanos, Long.MAX_VALUE);
  }

  /**
   * As {@link #overdue(long)}, the deadline being the earlier of the one armed and the packet's
   * start plus {@code thresholdNowNanos}: a packet armed with the bootstrap threshold, before
   * the client knew the other DataNodes, is judged by what it knows now.
   */
  long overdue(long nowNanos, long thresholdNowNanos) {
    return overdue(nowNanos, thresholdNowNanos, null);
  }

  /**
   * As {@link #overdue(long, long)}, not counting the time the client was paused while the packet
   * waited ({@code pauses}, null for none): that wait was the client's, not the DataNode's.
   */
  long overdue(long nowNanos, long thresholdNowNanos, Pauses pauses) {
    long s = state.get();
    // Read after the state, which the reader set after them: they are this generation's.
    long live = pauses == null ? nowNanos : nowNanos - pauses.within(armedNanos, nowNanos);
    boolean late = live - deadlineNanos >= 0 || live - armedNanos >= thresholdNowNanos;
    return phase(s) == State.PENDING && late && state.get() == s ? s : -1;
  }

  /** The primary read, its replica's position in the read's order, and its offset in the block. */
  R primary() {
    return primary;
  }

  int primaryIndex() {
    return primaryIndex;
  }

  long from() {
    return from;
  }

  /**
   * The watchdog starts a hedge for the packet it saw {@link #overdue}; false if the primary
   * finished meanwhile (or the reader is on another packet, or a hedge started).
   */
  boolean startHedge(long seen) {
    if (phase(seen) != State.PENDING
        || !state.compareAndSet(seen, seen - State.PENDING.ordinal() + State.HEDGING.ordinal())) {
      return false;
    }
    hedged = true; // never rearmed from now on: the hedge's thread holds it
    // Made before the hedge's thread starts, so it and the reader (which waits only once the
    // hedge won) both find it.
    hedgeDone = new CountDownLatch(1);
    return true;
  }

  /**
   * Whether the budget refusing a hedge of the packet in state {@code seen} is news: the watchdog
   * looks at an overdue packet on every tick, and a refusal is counted once per packet.
   */
  boolean firstDenial(long seen) {
    boolean first = deniedSeen != seen;
    deniedSeen = seen;
    return first;
  }

  /** The primary finished, with data or an error; true unless a hedge already delivered. */
  boolean claimForPrimary() {
    return move(State.PENDING, State.PRIMARY_WON) || move(State.HEDGING, State.PRIMARY_WON)
        || move(State.HEDGE_FAILED, State.PRIMARY_WON);
  }

  /** Publishes the hedge's connection, so the primary can cut it; false if the primary won. */
  boolean publishHedge(R r) {
    hedge = r;
    return state() != State.PRIMARY_WON;
  }

  /** After the primary won: cuts the hedge's connection, if it has one. */
  void cancelHedge() {
    R r = hedge;
    if (r != null) {
      r.abort();
    }
  }

  /** The hedge delivered; true if it was first (the caller then cuts the primary). */
  boolean hedgeDelivered(Winner<R> w) {
    winner = w;
    return move(State.HEDGING, State.HEDGE_WON);
  }

  void hedgeFailed() {
    move(State.HEDGING, State.HEDGE_FAILED);
  }

  /** The hedge's thread is done with the race, whatever happened. */
  void hedgeDone() {
    hedgeDone.countDown();
  }

  /** After {@link #claimForPrimary()} failed: waits for the winning hedge to hand over. */
  Winner<R> awaitHedge() throws IOException {
    try {
      hedgeDone.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for a hedged read");
    }
    return winner;
  }
}
