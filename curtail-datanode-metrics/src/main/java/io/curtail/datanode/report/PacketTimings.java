package io.curtail.datanode.report;

/**
 * One block's write through this DataNode, timed for the reports on its acks. Pure: times are
 * passed in, and so is the receiver (the thread receiving the block), since a pipeline recovery
 * starts a new receiver for the same block and the timings then start afresh.
 *
 * <p>Both times follow the FIFO identity, service = departure − max(arrival, previous departure),
 * so a packet's wait behind earlier packets is not counted against whoever serves it:
 * <ul>
 *   <li><b>Local</b>: a packet arrives when it has been forwarded to the next DataNode
 *       ({@link #mirrored}) and departs when its data is written locally, disk queueing included
 *       ({@link #wroteLocally}). A stock DataNode may ack a packet before it writes it, and a
 *       DataNode ahead of a slow one writes packets long before their acks come, so acks do not
 *       pair with local writes by timing. They pair by order: each ack takes the oldest local
 *       time not yet reported ({@link #takeLocal}), or none if there is none. So every packet's
 *       time is reported once (a stall repeated on every ack sent while the receiver was stuck
 *       would look like a slow DataNode), and none is averaged away.
 *   <li><b>Downstream</b>: a packet arrives at the next DataNode when forwarding starts
 *       ({@link #forwarding}) and departs when that DataNode's ack for it is read
 *       ({@link #takeDownstream}). Packets are acked in the order they are forwarded, heartbeats
 *       included, so the n-th ack pairs with the n-th forward. This is how the last DataNode of a
 *       pipeline is timed: a stock DataNode offers no hook before its own write, so it cannot
 *       time itself, and its upstream does it for it.
 * </ul>
 * A block's first {@link #WARM_UP} packets are not reported by either: their times include
 * creating the replica's files and are no sign of how the DataNode serves the rest.
 */
final class PacketTimings {
  /**
   * Times kept awaiting an ack to go on: more than a client keeps packets in flight (a stock
   * client at most 80). Forwards beyond it give the pairing up; local times beyond it are dropped.
   */
  static final int MAX_UNACKED = 256;
  /** Packets at the start of a block whose times are not reported. */
  static final int WARM_UP = 4;

  private Object receiver;
  private long lastUsed;

  private long mirrored = -1;
  private long localDone = Long.MIN_VALUE;
  private int written;
  private final LongQueue locals = new LongQueue(MAX_UNACKED);

  private final LongQueue forwards = new LongQueue(MAX_UNACKED);
  private boolean unpaired;
  private long lastDownstreamAck = Long.MIN_VALUE;
  private int acked;

  PacketTimings(long now) {
    this.lastUsed = now;
  }

  /** The receiver starts forwarding a packet to the next DataNode. */
  synchronized void forwarding(Object receiver, long now) {
    startedBy(receiver, now);
    if (!forwards.offer(now)) {
      unpaired = true; // the responder is not taking acks: this block's pairing is lost
    }
  }

  /** The receiver finished forwarding a packet to the next DataNode. */
  synchronized void mirrored(Object receiver, long now) {
    startedBy(receiver, now);
    mirrored = now;
  }

  /** The receiver finished writing a packet's data locally. */
  synchronized void wroteLocally(Object receiver, long now) {
    startedBy(receiver, now);
    if (mirrored >= 0 && written >= WARM_UP) {
      locals.offer(Math.max(0, now - Math.max(mirrored, localDone)));
    }
    localDone = now;
    written++;
  }

  /** The oldest local service time not yet reported; -1 if none. */
  synchronized long takeLocal() {
    return locals.isEmpty() ? -1 : locals.poll();
  }

  /**
   * The next DataNode's ack for the oldest forwarded packet was read at {@code now}: its service
   * time, or -1 if there is none to tell (warming up, or pairing lost).
   */
  synchronized long takeDownstream(long now) {
    lastUsed = now;
    if (forwards.isEmpty() || unpaired) {
      unpaired = true; // an ack for nothing forwarded: later acks cannot be paired either
      return -1;
    }
    long forwarded = forwards.poll();
    long service = now - Math.max(forwarded, lastDownstreamAck);
    lastDownstreamAck = now;
    return ++acked <= WARM_UP ? -1 : Math.max(0, service);
  }

  synchronized long lastUsed() {
    return lastUsed;
  }

  /** Starts afresh when a new receiver takes the block over (after a pipeline recovery). */
  private void startedBy(Object r, long now) {
    lastUsed = now;
    if (r == receiver) {
      return;
    }
    receiver = r;
    mirrored = -1;
    localDone = Long.MIN_VALUE;
    written = 0;
    locals.clear();
    forwards.clear();
    unpaired = false;
    lastDownstreamAck = Long.MIN_VALUE;
    acked = 0;
  }
}
