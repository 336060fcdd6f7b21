package io.curtail.client.policy;

/**
 * Which DataNode of a write pipeline a packet's time belongs to, from what a stock ack says. Pure:
 * times in, per-position samples out; one instance per pipeline, fed its acks in order.
 *
 * <p>A writer keeps dozens of packets in flight, so a packet's round trip is mostly the time it
 * queued behind the writer's own earlier packets at the slowest DataNode; that says where the
 * bottleneck is, not how slow each DataNode is, and it would make the first DataNode of a pipeline
 * of equally slow DataNodes look slowest. So this records <em>service times</em>, the time a stage
 * spent on a packet excluding the queueing, by the usual FIFO identity: service = departure −
 * max(arrival, previous departure). A stock ack lets the client see two stages:
 * <ul>
 *   <li>the first DataNode: a packet arrives when sent and departs when the first DataNode takes
 *       it on, which is when its ack arrives minus the ack's {@code downstreamAckTimeNanos} (the
 *       time the first DataNode waited on the rest of the pipeline for it);
 *   <li>the rest of the pipeline: the packet arrives there at that moment and departs when its
 *       ack arrives.
 * </ul>
 * The first DataNode's service time is evidence about it. The rest's is evidence about position 1
 * when it is the only downstream DataNode. With more, it is the slowest downstream DataNode's time,
 * an upper bound for each: it is recorded for all of them when it is no larger than the first
 * DataNode's (so it blames none of them). When it is larger, it belongs to the one downstream
 * DataNode the client does not already know to be fast (from what it saw of the others elsewhere,
 * see {@link #knownFast}); if there is no such single one, nobody downstream gets a sample, since
 * the stock ack cannot say which of them is slow.
 *
 * <p>An ack whose downstream time is negative or longer than the round trip is not physical (a
 * DataNode that misreports): it is evidence about nobody, and does not move the stages' clocks.
 */
public final class WriteAttribution {
  /** Marks a pipeline position the packet says nothing about. */
  public static final long NO_EVIDENCE = -1;

  private final int nodes;
  private final boolean[] knownFast;
  private long headDeparted = Long.MIN_VALUE;
  private long lastAck = Long.MIN_VALUE;

  /** @param nodes DataNodes in the pipeline */
  public WriteAttribution(int nodes) {
    if (nodes < 1) {
      throw new IllegalArgumentException("a pipeline has at least one DataNode, got " + nodes);
    }
    this.nodes = nodes;
    this.knownFast = new boolean[nodes];
  }

  /**
   * Marks the pipeline positions the caller knows, from other evidence, to be fast; read by later
   * calls. Position 0 is ignored (its share is always measured).
   */
  public void knownFast(int position, boolean fast) {
    knownFast[position] = fast;
  }

  /**
   * Fills {@code samples[i]} with the service time attributable to pipeline position {@code i},
   * or {@link #NO_EVIDENCE}.
   *
   * @param sentNanos when the packet went on the wire
   * @param ackNanos when its ack was read (same clock)
   * @param downstreamNanos the ack's downstream time (0 from a pipeline of one)
   * @param samples one slot per DataNode of the pipeline
   */
  public void attribute(long sentNanos, long ackNanos, long downstreamNanos, long[] samples) {
    if (samples.length != nodes) {
      throw new IllegalArgumentException(samples.length + " slots for " + nodes + " DataNodes");
    }
    for (int i = 0; i < nodes; i++) {
      samples[i] = NO_EVIDENCE;
    }
    long roundTrip = ackNanos - sentNanos;
    if (roundTrip < 0 || downstreamNanos < 0 || downstreamNanos > roundTrip
        || (nodes == 1 && downstreamNanos != 0)) {
      return;
    }
    long departed = ackNanos - downstreamNanos;
    long head = departed - Math.max(sentNanos, headDeparted);
    long rest = ackNanos - Math.max(departed, lastAck);
    headDeparted = Math.max(headDeparted, departed);
    lastAck = ackNanos;
    samples[0] = Math.max(0, head);
    if (nodes == 2 || (nodes > 2 && rest <= head)) {
      for (int i = 1; i < nodes; i++) {
        samples[i] = Math.max(0, rest);
      }
    } else if (nodes > 2) {
      int suspect = -1;
      for (int i = 1; i < nodes; i++) {
        if (!knownFast[i]) {
          if (suspect >= 0) {
            return; // two or more could be the slow one
          }
          suspect = i;
        }
      }
      if (suspect > 0) {
        samples[suspect] = rest;
      }
    }
  }
}
