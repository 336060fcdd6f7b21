package io.curtail.client.read;

import io.curtail.client.wire.Abortable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

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
 * <p>Threads: the reader thread runs the primary and {@link #claimForPrimary}; the watchdog
 * {@link #overdue} and {@link #startHedge}; a hedge thread the hedge's side.
 *
 * @param <R> the hedge's connection
 */
final class Race<R extends Abortable> {
  enum State { PENDING, HEDGING, PRIMARY_WON, HEDGE_WON, HEDGE_FAILED }

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

  /** When the primary's packet is overdue and a hedge may start. */
  final long deadlineNanos;
  /** The primary read, its replica's position in the read's order, and its offset in the block. */
  final R primary;
  final int primaryIndex;
  final long from;
  private final AtomicReference<State> state = new AtomicReference<>(State.PENDING);
  private final CountDownLatch hedgeDone = new CountDownLatch(1);
  private volatile R hedge;
  private volatile Winner<R> winner;

  Race(long deadlineNanos, R primary, int primaryIndex, long from) {
    this.deadlineNanos = deadlineNanos;
    this.primary = primary;
    this.primaryIndex = primaryIndex;
    this.from = from;
  }

  State state() {
    return state.get();
  }

  /** Whether no side has moved and {@code nowNanos} is at or past the deadline. */
  boolean overdue(long nowNanos) {
    return nowNanos - deadlineNanos >= 0 && state.get() == State.PENDING;
  }

  /** The watchdog starts a hedge; false if the primary already finished (or a hedge started). */
  boolean startHedge() {
    return state.compareAndSet(State.PENDING, State.HEDGING);
  }

  /** The primary finished, with data or an error; true unless a hedge already delivered. */
  boolean claimForPrimary() {
    return state.compareAndSet(State.PENDING, State.PRIMARY_WON)
        || state.compareAndSet(State.HEDGING, State.PRIMARY_WON)
        || state.compareAndSet(State.HEDGE_FAILED, State.PRIMARY_WON);
  }

  /** Publishes the hedge's connection, so the primary can cut it; false if the primary won. */
  boolean publishHedge(R r) {
    hedge = r;
    return state.get() != State.PRIMARY_WON;
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
    return state.compareAndSet(State.HEDGING, State.HEDGE_WON);
  }

  void hedgeFailed() {
    state.compareAndSet(State.HEDGING, State.HEDGE_FAILED);
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
