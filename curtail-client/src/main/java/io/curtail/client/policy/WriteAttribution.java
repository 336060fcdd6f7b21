package io.curtail.client.policy;

/**
 * Which DataNode of a write pipeline a packet's latency belongs to. Pure.
 *
 * <p>A stock ack says how long the packet took end to end (the client measures the round trip)
 * and how long the first DataNode waited for the rest of the pipeline to acknowledge it
 * ({@code downstreamAckTimeNanos}). So the first DataNode's share is the round trip minus the
 * downstream time, and the downstream time belongs to the rest of the pipeline as a whole. Only a
 * share that belongs to one DataNode is evidence about that DataNode:
 * <ul>
 *   <li>position 0 always gets the head's share;
 *   <li>position 1 gets the downstream time when it is the only downstream DataNode;
 *   <li>positions further down get nothing: the stock ack cannot tell them apart, and guessing
 *       would blame a healthy node.
 * </ul>
 * A downstream time that is negative or longer than the round trip is not physical (a DataNode
 * that misreports, or clocks gone wrong): the packet is then evidence about nobody.
 */
public final class WriteAttribution {
  /** Marks a pipeline position the packet says nothing about. */
  public static final long NO_EVIDENCE = -1;

  private WriteAttribution() {
  }

  /**
   * Fills {@code samples[i]} with the latency attributable to pipeline position {@code i}, or
   * {@link #NO_EVIDENCE}.
   *
   * @param roundTripNanos from sending the packet to reading its ack
   * @param downstreamNanos the ack's downstream time (0 from a pipeline of one)
   * @param samples one slot per DataNode of the pipeline
   */
  public static void attribute(long roundTripNanos, long downstreamNanos, long[] samples) {
    int n = samples.length;
    for (int i = 0; i < n; i++) {
      samples[i] = NO_EVIDENCE;
    }
    if (n == 0 || roundTripNanos < 0 || downstreamNanos < 0 || downstreamNanos > roundTripNanos
        || (n == 1 && downstreamNanos != 0)) {
      return;
    }
    samples[0] = roundTripNanos - downstreamNanos;
    if (n == 2) {
      samples[1] = downstreamNanos;
    }
  }
}
