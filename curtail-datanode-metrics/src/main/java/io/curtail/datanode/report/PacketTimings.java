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
 *
 * <p>A packet's <em>blocked time</em> is the first part of that span: from just before the
 * forward until the socket write and flush to the next DataNode returned ({@link #forwarded}).
 * It is the link's, either end: a slow link or a next DataNode slow to read. It is -1 (unknown)
 * when the ack is read before the receiver noted the end of its forward, or on a Hadoop whose
 * receiver does not call that hook.
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
  /** Each forward's blocked time, in the same order; -1 until its write returned. */
  private final LongQueue blocked = new LongQueue(MAX_UNACKED);
  /** The blocked time of the packet {@link #takeDownstream} last paired. */
  private long lastBlocked = -1;
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
      blocked.clear();
      unpaired = false;
    }
    if (!forwards.offer(now)) {
      unpaired = true; // the responder is not taking acks: this block's pairing is lost
    } else {
      blocked.offer(-1);
    }
  }

  /**
   * The receiver's write of the packet it last started forwarding returned at {@code now}. If
   * that packet's ack was read already, there is nothing left to note: the queue is empty then,
   * since a receiver forwards one packet at a time and acks come in order.
   */
  synchronized void forwarded(Object r, long now) {
    if (r == receiver && !unpaired && !blocked.isEmpty()) {
      blocked.setLast(Math.max(0, now - forwards.last()));
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
      lastBlocked = -1;
      return -1;
    }
    lastBlocked = blocked.poll();
    return Math.max(0, now - forwards.poll());
  }

  /** The blocked time of the packet the last {@link #takeDownstream} paired, or -1. */
  synchronized long lastBlocked() {
    return lastBlocked;
  }

  synchronized long lastUsed() {
    return lastUsed;
  }
}
