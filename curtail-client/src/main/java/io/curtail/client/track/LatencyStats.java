package io.curtail.client.track;

/**
 * A summary of recent latencies: how many samples, a high percentile and the mean, in nanoseconds.
 * Plain numbers, so policies can take it without knowing where it came from.
 */
public final class LatencyStats {
  /** No samples at all. */
  public static final LatencyStats EMPTY = new LatencyStats(0, 0, 0, 0);

  /**
   * Up to how many samples {@link #of(long[], int, double)} also takes the median: where a high
   * percentile is still the largest sample or next to it, and a selection among so few is cheap.
   */
  public static final int MEDIAN_MAX_SAMPLES = 32;

  private final int samples;
  private final long percentileNanos;
  private final long meanNanos;
  private final long medianNanos;

  private LatencyStats(int samples, long percentileNanos, long meanNanos, long medianNanos) {
    this.samples = samples;
    this.percentileNanos = percentileNanos;
    this.meanNanos = meanNanos;
    this.medianNanos = medianNanos;
  }

  /** Stats given directly, e.g. by a test or a simulator. */
  public static LatencyStats of(int samples, long percentileNanos, long meanNanos) {
    return of(samples, percentileNanos, meanNanos, 0);
  }

  /** {@link #of(int, long, long)} with the median too (0: not known). */
  public static LatencyStats of(int samples, long percentileNanos, long meanNanos,
      long medianNanos) {
    if (samples < 0 || percentileNanos < 0 || meanNanos < 0 || medianNanos < 0) {
      throw new IllegalArgumentException("samples, percentile, mean and median must be >= 0, were "
          + samples + ", " + percentileNanos + ", " + meanNanos + ", " + medianNanos);
    }
    return samples == 0 ? EMPTY
        : new LatencyStats(samples, percentileNanos, meanNanos, medianNanos);
  }

  /**
   * Stats of the first {@code n} values of {@code values}, which are reordered in place. The
   * percentile is the nearest rank: the smallest value with at least {@code percentile × n} values
   * at or below it. Linear time: a selection, not a sort, since it runs on every policy check.
   */
  public static LatencyStats of(long[] values, int n, double percentile) {
    if (!(percentile > 0 && percentile <= 1)) {
      throw new IllegalArgumentException("percentile must be in (0, 1], was " + percentile);
    }
    if (n == 0) {
      return EMPTY;
    }
    long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += values[i];
    }
    long p = percentile(values, n, percentile);
    long median = n <= MEDIAN_MAX_SAMPLES ? percentile(values, n, 0.5) : 0;
    return new LatencyStats(n, p, sum / n, median);
  }

  /**
   * The percentile alone of the first {@code n} values (reordered), as {@link #of} computes it; 0
   * for none. For a caller on the data path that needs no object.
   */
  public static long percentile(long[] values, int n, double percentile) {
    if (n == 0) {
      return 0;
    }
    int rank = Math.max(1, (int) Math.ceil(percentile * n));
    return select(values, n, rank - 1);
  }

  /** The {@code k}-th smallest (0-based) of {@code a[0, n)}: Hoare's selection, median of three. */
  private static long select(long[] a, int n, int k) {
    int lo = 0;
    int hi = n - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      long pivot = medianOf(a[lo], a[mid], a[hi]);
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        if (i <= j) {
          long t = a[i];
          a[i++] = a[j];
          a[j--] = t;
        }
      }
      if (k <= j) {
        hi = j;
      } else if (k >= i) {
        lo = i;
      } else {
        return a[k];
      }
    }
    return a[k];
  }

  private static long medianOf(long a, long b, long c) {
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }

  public int samples() {
    return samples;
  }

  public long percentileNanos() {
    return percentileNanos;
  }

  public long meanNanos() {
    return meanNanos;
  }

  /**
   * The median (nearest rank), where {@link #of(long[], int, double)} took it: of at most
   * {@link #MEDIAN_MAX_SAMPLES} samples; 0 where not known.
   */
  public long medianNanos() {
    return medianNanos;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LatencyStats)) {
      return false;
    }
    LatencyStats s = (LatencyStats) o;
    // The median is not part of a summary's identity: it is taken only where there are few.
    return s.samples == samples && s.percentileNanos == percentileNanos && s.meanNanos == meanNanos;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(percentileNanos) * 31 + Long.hashCode(meanNanos) * 17 + samples;
  }

  @Override
  public String toString() {
    return "LatencyStats{n=" + samples + ", p=" + percentileNanos / 1000 + "us, mean="
        + meanNanos / 1000 + "us}";
  }
}
