package io.curtail.client.policy;

/**
 * The order in which to try a block's replicas, from what the JVM knows of their read latency
 * (beyond the paper, which takes the NameNode's order as it comes).
 *
 * <p>The rule: a replica whose DataNode is known to be slow (its read percentile
 * {@link Slowness#slower} than the fastest judged replica's), or busy, goes after
 * the others; within each group the NameNode's order stands, so its locality and rack choices
 * still break ties and a replica the JVM knows nothing of is never pushed back. Pure.
 */
public final class ReplicaOrder {
  private final Slowness slowness;

  public ReplicaOrder(Slowness slowness) {
    this.slowness = slowness;
  }

  /**
   * Indices into the NameNode's replica list, in the order to try them.
   *
   * @param samples recent read samples per replica, NameNode order
   * @param percentileNanos read percentile per replica (ignored where samples are too few)
   * @param busy whether each replica's DataNode flagged itself busy
   */
  public int[] order(int[] samples, long[] percentileNanos, boolean[] busy) {
    int n = samples.length;
    if (percentileNanos.length != n || busy.length != n) {
      throw new IllegalArgumentException("need one percentile and busy flag per replica");
    }
    long fastest = Long.MAX_VALUE;
    for (int i = 0; i < n; i++) {
      if (slowness.judged(samples[i])) {
        fastest = Math.min(fastest, percentileNanos[i]);
      }
    }
    int[] out = new int[n];
    int k = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < n; i++) {
        boolean slow = busy[i]
            || (slowness.judged(samples[i]) && slowness.slower(percentileNanos[i], fastest));
        if (slow == (pass == 1)) {
          out[k++] = i;
        }
      }
    }
    return out;
  }
}
