package io.curtail.bench;

import io.curtail.tools.stats.Latencies;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import java.util.function.ToDoubleFunction;

/**
 * The benchmark's one way of putting a 95% interval on a figure: a percentile bootstrap of
 * {@link #RESAMPLES} resamples drawn from a fixed seed, so a report read twice says the same.
 * Whoever asks says what one resample is (rounds paired for {@code --interleave}'s files' time;
 * each mode's files drawn independently for a p99 and a ratio of p99s); this class draws, sorts
 * and takes the 2.5th and 97.5th percentiles.
 *
 * <p>A p99 over fewer than 100 files is their maximum, and a resample's maximum never exceeds
 * the sample's: there the interval says how much the worst file alone moves the figure, and its
 * upper end is no bound on what more files would show.
 */
final class Bootstrap {
  static final int RESAMPLES = 2000;
  private static final long SEED = 1;

  /** A figure with its 95% interval; NaN throughout where it could not be computed. */
  static final class Interval {
    static final Interval NONE = new Interval(Double.NaN, Double.NaN, Double.NaN);
    final double value;
    final double low;
    final double high;

    Interval(double value, double low, double high) {
      this.value = value;
      this.low = low;
      this.high = high;
    }

    /** {value, low, high}. */
    double[] asArray() {
      return new double[] {value, low, high};
    }

    /** Whether the interval reaches {@code x} (a ratio's reaching 1 is a tie). */
    boolean reaches(double x) {
      return low <= x && x <= high;
    }

    /** "12.3 (10.1–15.0)" with {@code format} for each number; "-" where unknown. */
    String text(String format) {
      return Double.isNaN(value) ? "-" : String.format(Locale.ROOT,
          format + " (" + format + "–" + format + ")", value, low, high);
    }
  }

  private Bootstrap() {}

  /**
   * {@code value} with the 2.5th and 97.5th percentiles of {@code resampled} over
   * {@link #RESAMPLES} draws, each given the same seeded {@link Random} to draw with.
   */
  static Interval interval(double value, ToDoubleFunction<Random> resampled) {
    if (Double.isNaN(value)) {
      return Interval.NONE;
    }
    Random random = new Random(SEED);
    double[] r = new double[RESAMPLES];
    for (int k = 0; k < r.length; k++) {
      r[k] = resampled.applyAsDouble(random);
    }
    Arrays.sort(r);
    return new Interval(value, r[r.length / 40], r[r.length - 1 - r.length / 40]);
  }

  /** The p99 of {@code nanos} in ms, with its interval; NONE for no files. */
  static Interval p99(long[] nanos) {
    return nanos.length == 0 ? Interval.NONE
        : interval(p99Ms(nanos), random -> p99Ms(resample(nanos, random)));
  }

  /**
   * The p99 of {@code top} over the p99 of {@code bottom}, with its interval: each side's files
   * resampled independently, as the two modes ran different batches.
   */
  static Interval p99Ratio(long[] top, long[] bottom) {
    if (top.length == 0 || bottom.length == 0) {
      return Interval.NONE;
    }
    return interval(p99Ms(top) / p99Ms(bottom),
        random -> p99Ms(resample(top, random)) / p99Ms(resample(bottom, random)));
  }

  /** Nearest-rank p99, in ms (the maximum under 100 files), as {@link Latencies} takes it. */
  static double p99Ms(long[] nanos) {
    return Latencies.of(nanos).percentileMs(0.99);
  }

  /** {@code xs.length} draws from {@code xs} with replacement. */
  static long[] resample(long[] xs, Random random) {
    long[] out = new long[xs.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = xs[random.nextInt(xs.length)];
    }
    return out;
  }
}
