package io.curtail.client.track;

/**
 * A DataNode's last few samples of one kind, and when the last was recorded: what a policy asks
 * of them only while they are fresh (a DataNode's service long ago says nothing of it now).
 * Thread-safe, as {@link LatencyWindow}.
 */
public final class RecentSamples {
  private final LatencyWindow window;
  private volatile long lastNanos;

  /** Keeps the last {@code capacity} samples; counts as recorded at {@code nowNanos}. */
  RecentSamples(int capacity, long nowNanos) {
    this.window = new LatencyWindow(capacity);
    this.lastNanos = nowNanos;
  }

  /** Records a sample at {@code nowNanos}. */
  public void record(long nanos, long nowNanos) {
    window.record(nanos);
    lastNanos = nowNanos;
  }

  /** The samples themselves. */
  public LatencyWindow window() {
    return window;
  }

  /** When the last sample was recorded. */
  public long lastNanos() {
    return lastNanos;
  }

  /**
   * The {@code percentile} of the last {@code samples}, if one was recorded within
   * {@code freshNanos} of {@code nowNanos}; else {@link LatencyStats#EMPTY}. {@code scratch} as
   * for {@link LatencyWindow#stats}.
   */
  public LatencyStats fresh(int samples, double percentile, long nowNanos, long freshNanos,
      long[] scratch) {
    return nowNanos - lastNanos <= freshNanos ? window.stats(samples, percentile, scratch)
        : LatencyStats.EMPTY;
  }
}
