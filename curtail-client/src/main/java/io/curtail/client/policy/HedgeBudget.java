package io.curtail.client.policy;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many hedges a client may start: a token bucket that caps hedges at a share of packet reads,
 * so that when many DataNodes are slow at once, hedging cannot double the cluster's load (the
 * retry budget of Brooker's "Timeouts, retries and backoff with jitter" and of grpc-java's retry
 * throttling; paper §4.3 hedges without one).
 *
 * <p>The rule: every packet read adds {@code ratio} tokens, up to {@code burst}; every hedge costs
 * one; a hedge starts only if a whole token is there. The bucket starts full, so a client's first
 * slow reads hedge at once; from then on hedges are at most {@code burst + ratio × packets}.
 * The unit is the packet because it is what a hedge decides on (each packet read has its own race)
 * and what a hedge duplicates: a hedge reads the overdue packet again, and if it wins the rest of
 * the range is read from it instead of, not as well as, the primary. So a ratio of 0.1 also keeps
 * hedged bytes near a tenth of bytes read.
 *
 * <p>Pure counting: no clock, no I/O, no allocation. Thread-safe and wait-free: every method is
 * at most two atomic operations, no loop. Tokens are counted in millionths. A deposit racing
 * another past the check against the cap may overshoot it by one deposit per racing reader (a few
 * tenths of a token); a spend that finds less than a token gives it back, and a spend racing it
 * may then be refused though a token was about to be there: the bucket errs on hedging less.
 */
public final class HedgeBudget {
  /** Tokens are counted in millionths of a token. */
  static final long UNIT = 1_000_000L;

  private final long deposit;
  private final long cap;
  private final AtomicLong tokens;

  /**
   * @param ratio tokens each packet read adds, in (0, 1]
   * @param burst tokens the bucket holds at most, and starts with (>= 1)
   */
  public HedgeBudget(double ratio, int burst) {
    if (!(ratio > 0 && ratio <= 1) || burst < 1) {
      throw new IllegalArgumentException("a hedge budget needs 0 < ratio <= 1 and burst >= 1;"
          + " got ratio " + ratio + ", burst " + burst);
    }
    this.deposit = Math.max(1, Math.round(ratio * UNIT));
    this.cap = burst * UNIT;
    this.tokens = new AtomicLong(cap);
  }

  /** A packet was read: adds {@code ratio} tokens unless the bucket is full. */
  public void onRead() {
    if (tokens.get() < cap) {
      tokens.addAndGet(deposit);
    }
  }

  /** Spends a token for a hedge; false (and nothing spent) if less than one is there. */
  public boolean tryHedge() {
    if (tokens.get() < UNIT) {
      return false; // the common refusal reads only
    }
    if (tokens.addAndGet(-UNIT) >= 0) {
      return true;
    }
    tokens.addAndGet(UNIT); // another spender took it first
    return false;
  }

  /** Gives back the token of a hedge that was allowed but never started. */
  public void refund() {
    tokens.addAndGet(UNIT);
  }

  /** Tokens in the bucket now, in millionths. */
  public long microTokens() {
    return tokens.get();
  }
}
