package io.curtail.client.policy;

import java.util.Arrays;

/**
 * The order in which to try a block's replicas, from what the JVM knows of their DataNodes (beyond
 * the paper, which takes the NameNode's order as it comes).
 *
 * <p>The rule: a replica is <em>demoted</em> when its DataNode is busy, or known to be slow by
 * any measure the caller gives (the median or tail of its packet times, the median of its times
 * to first byte): the replica's value {@link Slowness#slower} than the fastest judged replica's
 * by the same measure. Demoted replicas go after the others, and busy ones after all; a replica
 * the NameNode reports loaded ({@link ReportedLoad}) goes after those with nothing against them
 * but before the demoted, as a heartbeat's count is a proxy and the JVM's own measurements are
 * not. Within each group the NameNode's order stands, so its locality and rack choices still
 * break ties and a replica the JVM knows nothing of is never pushed back. Pure.
 */
public final class ReplicaOrder {
  private final Slowness slowness;

  public ReplicaOrder(Slowness slowness) {
    this.slowness = slowness;
  }

  /**
   * Marks in {@code demoted} the replicas slow by one measure.
   *
   * @param samples recent samples of the measure per replica
   * @param percentileNanos its percentile per replica (ignored where samples are too few)
   * @param demoted one flag per replica, set here for each slow one and left as it is otherwise
   */
  public void demoteSlow(int[] samples, long[] percentileNanos, boolean[] demoted) {
    int n = samples.length;
    if (percentileNanos.length != n || demoted.length != n) {
      throw new IllegalArgumentException("need one percentile and flag per replica");
    }
    long fastest = Long.MAX_VALUE;
    for (int i = 0; i < n; i++) {
      if (slowness.judged(samples[i])) {
        fastest = Math.min(fastest, percentileNanos[i]);
      }
    }
    for (int i = 0; i < n; i++) {
      demoted[i] |= slowness.judged(samples[i]) && slowness.slower(percentileNanos[i], fastest);
    }
  }

  /** Whether a replica with {@code samples} recent samples is judged by this order's rule. */
  public boolean judged(int samples) {
    return slowness.judged(samples);
  }

  /** Indices into the NameNode's replica list: the others in its order, then the demoted. */
  public static int[] order(boolean[] demoted) {
    int[] rank = new int[demoted.length];
    for (int i = 0; i < rank.length; i++) {
      rank[i] = demoted[i] ? DEMOTED : FIRST;
    }
    return order(rank);
  }

  /** The rank of a replica nothing demotes. */
  public static final int FIRST = 0;
  /** The rank of a replica the NameNode reports loaded, and the JVM does not know slow. */
  public static final int LOADED = 1;
  /** The rank of a replica the JVM knows slow. */
  public static final int DEMOTED = 2;
  /**
   * The rank of a replica whose DataNode says it is busy: it asked clients to stay away, so it
   * comes after replicas that are merely slow or loaded (when every replica is demoted, the
   * NameNode's order would otherwise put it first as often as not).
   */
  public static final int BUSY = 3;

  /**
   * Indices into the NameNode's replica list by {@code rank} ({@link #FIRST}, {@link #LOADED},
   * {@link #DEMOTED}, {@link #BUSY}), lower first; within a rank the NameNode's order stands.
   */
  public static int[] order(int[] rank) {
    int n = rank.length;
    int[] out = new int[n];
    int k = 0;
    for (int r = FIRST; r <= BUSY; r++) {
      for (int i = 0; i < n; i++) {
        if (rank[i] == r) {
          out[k++] = i;
        }
      }
    }
    if (k != n) {
      throw new IllegalArgumentException("ranks must be FIRST, LOADED, DEMOTED or BUSY; got "
          + Arrays.toString(rank));
    }
    return out;
  }
}
