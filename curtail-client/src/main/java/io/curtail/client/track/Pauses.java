package io.curtail.client.track;

/**
 * When the client itself was paused, as a thread that looks every period saw it: a look that
 * comes more than a period late found the client stopped (a garbage collection, a CPU starved by
 * other processes) from one period after the previous look until then. Those moments are the
 * client's, not a DataNode's: a packet that waited through them is judged on the rest of its wait
 * only ({@link #within}), so a hedge or a read around is started on a DataNode's lateness, never
 * on the client's own.
 *
 * <p>On a host so busy that every look comes late, a wait counts a period a look: hedges then
 * come later in wall time, as the client's own reading of the packet would have.
 *
 * <p>Keeps the last {@value #KEPT} pauses: a packet's wait spans a few looks, and a pause older
 * than that many is long over before any wait still judged began.
 *
 * <p>Not thread-safe: the one thread that looks ({@link #look}) is the one that asks.
 */
public final class Pauses {
  static final int KEPT = 4;

  private final long periodNanos;
  private final long[] starts = new long[KEPT];
  private final long[] ends = new long[KEPT];
  private int next;
  private long lastLookNanos;
  private boolean looked;

  /** @param periodNanos how often the thread means to look (> 0) */
  public Pauses(long periodNanos) {
    if (periodNanos <= 0) {
      throw new IllegalArgumentException("periodNanos must be > 0, was " + periodNanos);
    }
    this.periodNanos = periodNanos;
  }

  /**
   * Notes a look at {@code nowNanos}; returns whether it found the client paused since the
   * last one.
   */
  public boolean look(long nowNanos) {
    boolean paused = looked && nowNanos - lastLookNanos > 2 * periodNanos;
    if (paused) {
      starts[next] = lastLookNanos + periodNanos;
      ends[next] = nowNanos;
      next = (next + 1) % KEPT;
    }
    lastLookNanos = nowNanos;
    looked = true;
    return paused;
  }

  /** How long of [{@code fromNanos}, {@code toNanos}] the client was paused, of the pauses kept. */
  public long within(long fromNanos, long toNanos) {
    long paused = 0;
    for (int i = 0; i < KEPT; i++) {
      long overlap = Math.min(toNanos, ends[i]) - Math.max(fromNanos, starts[i]);
      if (overlap > 0) {
        paused += overlap;
      }
    }
    return paused;
  }
}
