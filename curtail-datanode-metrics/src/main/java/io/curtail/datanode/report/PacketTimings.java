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
 *       ({@link #wroteLocally}). The responder takes the longest since its last ack
 *       ({@link #takeLocal}): acks and local writes do not pair up one to one.
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
  /** Forwards awaiting their downstream ack; more than this and pairing is given up. */
  static final int MAX_UNACKED = 1024;
  /** Packets at the start of a block whose times are not reported. */
  static final int WARM_UP = 4;

  private Object receiver;
  private long lastUsed;

  private long mirrored = -1;
  private long localDone = Long.MIN_VALUE;
  private int written;
  private long pendingLocal = -1;
  private long lastLocal = -1;

  private final long[] forwards = new long[MAX_UNACKED];
  private int head;
  private int unacked;
  private boolean unpaired;
  private long lastDownstreamAck = Long.MIN_VALUE;
  private int acked;

  PacketTimings(long now) {
    this.lastUsed = now;
  }

  /** The receiver starts forwarding a packet to the next DataNode. */
  synchronized void forwarding(Object receiver, long now) {
    startedBy(receiver, now);
    if (unacked == MAX_UNACKED) {
      unpaired = true; // the responder is not taking acks: this block's pairing is lost
      return;
    }
    forwards[(head + unacked) % MAX_UNACKED] = now;
    unacked++;
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
      long service = now - Math.max(mirrored, localDone);
      pendingLocal = Math.max(pendingLocal, Math.max(0, service));
    }
    localDone = now;
    written++;
  }

  /**
   * The longest local service since the last call; if none was measured since, the last one
   * again; -1 before the first.
   */
  synchronized long takeLocal() {
    if (pendingLocal >= 0) {
      lastLocal = pendingLocal;
      pendingLocal = -1;
    }
    return lastLocal;
  }

  /**
   * The next DataNode's ack for the oldest forwarded packet was read at {@code now}: its service
   * time, or -1 if there is none to tell (warming up, or pairing lost).
   */
  synchronized long takeDownstream(long now) {
    lastUsed = now;
    if (unacked == 0 || unpaired) {
      unpaired = true; // an ack for nothing forwarded: later acks cannot be paired either
      return -1;
    }
    long forwarded = forwards[head];
    head = (head + 1) % MAX_UNACKED;
    unacked--;
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
    pendingLocal = -1;
    lastLocal = -1;
    head = 0;
    unacked = 0;
    unpaired = false;
    lastDownstreamAck = Long.MIN_VALUE;
    acked = 0;
  }
}
