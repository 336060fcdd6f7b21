package io.curtail.client.runtime;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A periodic task that ticks while anyone holds it: the first {@link #hold} starts it, the last
 * {@link #release} stops it. Thread-safe; holding and releasing cost an atomic add, and a lock
 * only when the count passes through zero (a file system going from idle to busy or back).
 */
public final class Periodic {
  private final AtomicInteger holders = new AtomicInteger();
  private final Runnable start;
  private final Runnable stop;
  /** Whether {@link #start} ran more recently than {@link #stop}; guarded by this. */
  private boolean ticking;

  /** {@code start} and {@code stop} run one at a time, alternately, starting with start. */
  public Periodic(Runnable start, Runnable stop) {
    this.start = start;
    this.stop = stop;
  }

  /** Starts the task if nobody held it; pair with exactly one {@link #release}. */
  public void hold() {
    if (holders.incrementAndGet() == 1) {
      settle();
    }
  }

  public void release() {
    if (holders.decrementAndGet() == 0) {
      settle();
    }
  }

  /** Whether the task is ticking now. */
  public synchronized boolean ticking() {
    return ticking;
  }

  /**
   * Brings the task in line with the count as it is now, not as it was when the caller changed
   * it: a hold and a release racing past zero each settle, and whichever settles last sees the
   * final count.
   */
  private synchronized void settle() {
    boolean wanted = holders.get() > 0;
    if (wanted != ticking) {
      ticking = wanted;
      (wanted ? start : stop).run();
    }
  }
}
