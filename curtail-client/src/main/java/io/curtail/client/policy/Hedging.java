package io.curtail.client.policy;

import io.curtail.client.track.LatencyStats;
import java.util.List;

/**
 * When a read hedges, and to which replica (paper §4.3, "Smart hedging for reads"). Pure: numbers
 * in, values out, no clock, no I/O; backoff state is an immutable {@link HedgeBackoff} that the
 * caller keeps per DataNode and replaces with what these methods return.
 *
 * <p>The rule:
 * <ul>
 *   <li><b>Threshold.</b> A packet read slower than the threshold starts a hedge. Static hedging
 *       uses a fixed threshold. Smart hedging starts from the same value to bootstrap and, once the
 *       client has {@code minSamples} recent packet latencies from <em>other</em> DataNodes, uses
 *       {@code factor} × their percentile: the factor absorbs ordinary variation in service and
 *       queueing times, and comparing with other DataNodes lets the threshold follow the load.
 *       It never drops below {@code minThresholdNanos} (beyond the paper): a hedge costs a
 *       connection and a disk read on another DataNode, which jitter of a few milliseconds
 *       (garbage collection, a busy CPU) is not worth, and a fleet of fast DataNodes would
 *       otherwise see every such hiccup as three times slower than usual.
 *   <li><b>Backoff.</b> A DataNode whose last hedge lost (completed after the request it was meant
 *       to overtake) is overloaded: the client waits {@code backoffPackets} × 2<sup>k−1</sup>
 *       packets after its k-th loss in a row before hedging to it again, and after
 *       {@code maxRetries} such retries it hedges to it no more. A won hedge clears the record.
 *   <li><b>Target.</b> The hedge goes to the next replica in the block's replica order after the
 *       one being read, skipping DataNodes backed off or flagged busy (§5).
 * </ul>
 */
public final class Hedging {
  private final long staticThresholdNanos;
  private final long minThresholdNanos;
  private final boolean adaptive;
  private final double factor;
  private final int minSamples;
  private final int maxRetries;
  private final long backoffPackets;

  /**
   * @param staticThresholdNanos the static threshold, and smart hedging's bootstrap (> 0)
   * @param minThresholdNanos the lowest an adaptive threshold may go (>= 0)
   * @param adaptive whether the threshold adapts (smart) or stays static
   * @param factor multiple of the other DataNodes' percentile (> 1)
   * @param minSamples samples from other DataNodes needed before adapting (>= 1)
   * @param maxRetries hedges retried to a DataNode after a loss before giving it up (>= 0)
   * @param backoffPackets packets to wait after a first loss (>= 1)
   */
  public Hedging(long staticThresholdNanos, long minThresholdNanos, boolean adaptive,
      double factor, int minSamples, int maxRetries, int backoffPackets) {
    if (staticThresholdNanos <= 0 || minThresholdNanos < 0 || !(factor > 1) || minSamples < 1
        || maxRetries < 0 || backoffPackets < 1) {
      throw new IllegalArgumentException("need staticThresholdNanos > 0, minThresholdNanos >= 0,"
          + " factor > 1, minSamples >= 1, maxRetries >= 0, backoffPackets >= 1; got "
          + staticThresholdNanos + ", " + minThresholdNanos + ", " + factor + ", " + minSamples
          + ", " + maxRetries + ", " + backoffPackets);
    }
    this.staticThresholdNanos = staticThresholdNanos;
    this.minThresholdNanos = minThresholdNanos;
    this.adaptive = adaptive;
    this.factor = factor;
    this.minSamples = minSamples;
    this.maxRetries = maxRetries;
    this.backoffPackets = backoffPackets;
  }

  /**
   * How long a packet read may take before a hedge starts.
   *
   * @param others recent packet read latencies from DataNodes other than the one being read
   */
  public long thresholdNanos(LatencyStats others) {
    return thresholdNanos(others.samples(), others.percentileNanos());
  }

  /** {@link #thresholdNanos(LatencyStats)} from the two numbers it uses. */
  public long thresholdNanos(int samples, long percentileNanos) {
    return thresholdNanos(samples, percentileNanos, false);
  }

  /**
   * {@link #thresholdNanos(int, long)} for a packet from a DataNode the NameNode reports loaded
   * beside another replica of its block ({@code reportedLoaded}, {@link ReportedLoad}).
   *
   * <p>A smart client that knows too little of other DataNodes to adapt (cold: a client's first
   * reads) waits the bootstrap value, a long one, as it has no evidence that the DataNode is slow
   * and a hedge doubles a read's cost. A report of load is such evidence, and it says where a
   * hedge costs little: the DataNode has many more transfers open than another replica's, so a
   * read there queues behind them (a throttle, a disk or a thread pool it shares), while the
   * less-loaded replica serves few. So such a packet waits only the floor, the least an adapted
   * threshold ever is: never sooner than a warm client with fast DataNodes to compare with would
   * hedge. Once warm, the client's own measurements decide alone, as they are fresher and
   * finer than a heartbeat's count. Static hedging keeps its one threshold.
   */
  public long thresholdNanos(int samples, long percentileNanos, boolean reportedLoaded) {
    if (!adaptive) {
      return staticThresholdNanos;
    }
    if (samples < minSamples) {
      return reportedLoaded
          ? Math.min(staticThresholdNanos, Math.max(1, minThresholdNanos))
          : staticThresholdNanos;
    }
    return Math.max(Math.max(1, minThresholdNanos), (long) Math.ceil(factor * percentileNanos));
  }

  /** The backoff after a hedge to a DataNode lost, {@code packet} being the reader's packet count. */
  public HedgeBackoff afterLoss(HedgeBackoff before, long packet) {
    int losses = before.losses() + 1;
    if (losses > maxRetries) {
      return HedgeBackoff.givenUp(losses);
    }
    int doublings = losses - 1;
    long wait = doublings >= Long.numberOfLeadingZeros(backoffPackets) - 1
        ? Long.MAX_VALUE : backoffPackets << doublings;
    return HedgeBackoff.until(losses, saturatingAdd(packet, wait));
  }

  /**
   * Whether a replica is worth hedging to when the primary overran {@code thresholdNanos}: unless
   * the replica is known to take longer ({@code knownNanos}, 0 when unknown), since a hedge there
   * would only join a slow DataNode's queue and make it slower (beyond the paper).
   */
  public static boolean worthHedgingTo(long knownNanos, long thresholdNanos) {
    return knownNanos <= thresholdNanos;
  }

  /** The backoff after a hedge to a DataNode won: none. */
  public HedgeBackoff afterWin() {
    return HedgeBackoff.NONE;
  }

  /**
   * The replica to hedge to, or -1 if none may be hedged to now.
   *
   * @param current index of the replica being read
   * @param backoffs backoff of each replica, in the block's replica order
   * @param busy whether each replica's DataNode flagged itself busy
   * @param packet the reader's packet count now
   */
  public int nextTarget(int current, List<HedgeBackoff> backoffs, boolean[] busy, long packet) {
    int n = backoffs.size();
    if (busy.length != n || current < 0 || current >= n) {
      throw new IllegalArgumentException("current " + current + " must index " + n
          + " replicas with " + busy.length + " busy flags");
    }
    for (int step = 1; step < n; step++) {
      int i = (current + step) % n;
      if (!busy[i] && backoffs.get(i).allows(packet)) {
        return i;
      }
    }
    return -1;
  }

  private static long saturatingAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
