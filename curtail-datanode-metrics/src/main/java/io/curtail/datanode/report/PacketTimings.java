package io.curtail.datanode.report;

/**
 * One block's packets forwarded through this DataNode to the next, timed for the reports on its
 * acks. Pure: times are passed in, and so is the receiver (the thread receiving the block), since
 * a pipeline recovery starts a new receiver for the same block and the timings then start afresh.
 *
 * <p>A packet's <em>downstream time</em> runs from just before this DataNode forwards it
 * ({@link #forwarding}) until it reads the next DataNode's ack for it ({@link #takeDownstream}):
 * what a stock ack's {@code downstreamAckTimeNanos} is for the first DataNode of a pipeline.
 * Packets are acked in the order they are forwarded, heartbeats included, so the n-th ack pairs
 * with the n-th forward. The raw span is reported, queueing and all: the client needs the moment
 * the packet left for the next DataNode, and works out each DataNode's service time from those.
 */
final class PacketTimings {
  /**
   * Forwards kept awaiting their acks: more than a client keeps packets in flight (a stock client
   * at most 80). Beyond it the pairing is given up.
   */
  static final int MAX_UNACKED = 256;

  private Object receiver;
  private long lastUsed;
  private final LongQueue forwards = new LongQueue(MAX_UNACKED);
  private boolean unpaired;

  PacketTimings(long now) {
    this.lastUsed = now;
  }

  /** The receiver starts forwarding a packet to the next DataNode. */
  synchronized void forwarding(Object r, long now) {
    lastUsed = now;
    if (r != receiver) { // a new receiver took the block over (a pipeline recovery)
      receiver = r;
      forwards.clear();
      unpaired = false;
    }
    if (!forwards.offer(now)) {
      unpaired = true; // the responder is not taking acks: this block's pairing is lost
    }
  }

  /**
   * The next DataNode's ack for the oldest forwarded packet was read at {@code now}: that packet's
   * downstream time, or -1 if there is none to tell (the pairing is lost).
   */
  synchronized long takeDownstream(long now) {
    lastUsed = now;
    if (forwards.isEmpty() || unpaired) {
      unpaired = true; // an ack for nothing forwarded: later acks cannot be paired either
      return -1;
    }
    return Math.max(0, now - forwards.poll());
  }

  synchronized long lastUsed() {
    return lastUsed;
  }
}
