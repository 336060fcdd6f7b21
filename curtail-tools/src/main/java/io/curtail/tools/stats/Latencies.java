package io.curtail.tools.stats;

import java.util.Arrays;
import java.util.Collection;

/**
 * Latencies, sorted, with exact nearest-rank percentiles. A benchmark run has hundreds of files
 * per mode, so keeping every sample is cheap and exact; a histogram's bucketing would only blur
 * the tail that is being compared.
 */
public final class Latencies {
  private final long[] sortedNanos;

  private Latencies(long[] sortedNanos) {
    this.sortedNanos = sortedNanos;
  }

  public static Latencies of(Collection<Long> nanos) {
    long[] a = new long[nanos.size()];
    int i = 0;
    for (long n : nanos) {
      a[i++] = n;
    }
    Arrays.sort(a);
    return new Latencies(a);
  }

  /** {@code nanos}, copied and sorted. */
  public static Latencies of(long[] nanos) {
    long[] a = nanos.clone();
    Arrays.sort(a);
    return new Latencies(a);
  }

  public int count() {
    return sortedNanos.length;
  }

  /** The smallest latency with at least {@code p} of all at or below it, in ms; NaN if none. */
  public double percentileMs(double p) {
    if (sortedNanos.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(p * sortedNanos.length);
    return sortedNanos[Math.max(0, rank - 1)] / 1e6;
  }
}
