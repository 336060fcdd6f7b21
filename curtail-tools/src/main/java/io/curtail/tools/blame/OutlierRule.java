package io.curtail.tools.blame;

import java.util.Arrays;

/**
 * HDFS's slow-peer rule, as its DataNodes judge the peers they send to (Hadoop's
 * {@code OutlierDetector}, learnt from its documentation and source, written afresh here): among
 * at least {@code minPeers} latencies, one is an outlier when it is above
 * {@code max(lowThreshold, 3 × median, median + 3 × MAD)}, where MAD is the median absolute
 * deviation from the median scaled by 1.4826 (so that it estimates a normal distribution's
 * standard deviation). The median of an even count is the mean of the middle two. Fewer latencies
 * than {@code minPeers} judge nobody.
 *
 * <p>HDFS's defaults ({@link #HDFS_PEERS}): at least 10 peers
 * ({@code dfs.datanode.min.outlier.detection.nodes}), a low threshold of 5 ms
 * ({@code dfs.datanode.slowpeer.low.threshold.ms}); it also wants 1000 samples per peer
 * ({@code dfs.datanode.peer.metrics.min.outlier.detection.samples}), which a client's window of
 * recent packets never has, and which the benchmark's tables do not apply. Its disks' rule has 5
 * and 20 ms. {@link #ON_PIPELINE} is the same rule on a pipeline's three DataNodes: what it would
 * say of the samples a client has when it decides.
 *
 * <p>Pure: values in, flags out; in whatever unit the threshold is given in.
 */
public final class OutlierRule {
  /** HDFS's slow-peer defaults: 10 peers, 5 ms (values in microseconds). */
  public static final OutlierRule HDFS_PEERS = new OutlierRule(10, 5_000);
  /** The same rule and low threshold on a pipeline of three (values in microseconds). */
  public static final OutlierRule ON_PIPELINE = new OutlierRule(3, 5_000);

  private static final double MAD_TO_SIGMA = 1.4826;
  private static final double MEDIAN_FACTOR = 3;
  private static final double DEVIATIONS = 3;

  private final int minPeers;
  private final double lowThreshold;

  public OutlierRule(int minPeers, double lowThreshold) {
    if (minPeers < 1 || !(lowThreshold >= 0)) {
      throw new IllegalArgumentException("an outlier rule needs minPeers >= 1 and lowThreshold"
          + " >= 0, was " + minPeers + " and " + lowThreshold);
    }
    this.minPeers = minPeers;
    this.lowThreshold = lowThreshold;
  }

  public int minPeers() {
    return minPeers;
  }

  /** The latency above which a value of {@code values} is an outlier; +∞ if too few to judge. */
  public double limit(double[] values) {
    if (values.length < minPeers || values.length == 0) {
      return Double.POSITIVE_INFINITY;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double median = median(sorted);
    double[] deviations = new double[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      deviations[i] = Math.abs(sorted[i] - median);
    }
    Arrays.sort(deviations);
    double mad = median(deviations) * MAD_TO_SIGMA;
    return Math.max(Math.max(lowThreshold, MEDIAN_FACTOR * median), median + DEVIATIONS * mad);
  }

  /** Which of {@code values} are outliers, in their order. */
  public boolean[] outliers(double[] values) {
    double limit = limit(values);
    boolean[] out = new boolean[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = values[i] > limit;
    }
    return out;
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  @Override
  public String toString() {
    return "max(" + lowThreshold / 1000 + " ms, 3×median, median+3×1.4826×MAD) over >= "
        + minPeers + " peers";
  }
}
