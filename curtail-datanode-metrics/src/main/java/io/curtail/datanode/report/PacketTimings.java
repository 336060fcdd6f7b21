package io.curtail.datanode.report;

/**
 * One block's write through this DataNode, timed for the report on its acks. Pure: times are
 * passed in. The receiver thread says when it finished forwarding a packet to the next DataNode
 * ({@link #mirrored}) and when it finished writing it locally ({@link #wroteLocally}); the
 * responder thread takes what to report when it acks ({@link #takeLocal}).
 *
 * <p>The local service time follows the FIFO identity, service = departure − max(arrival,
 * previous departure), with arrival the end of forwarding and departure the end of the local
 * write (including any disk queueing), so a packet's wait behind earlier packets is not counted.
 * The last DataNode of a pipeline forwards nothing, and a stock DataNode offers no hook before
 * its write, so it reports nothing; the client attributes its share from the stock ack. A
 * block's first packet is not reported: its time includes creating the replica's files.
 */
final class PacketTimings {
  private long forwarded = -1;
  private long localDone = Long.MIN_VALUE;
  private long pendingLocal = -1;
  private long lastLocal = -1;
  private boolean firstWritten;
  private long lastUsed;

  PacketTimings(long now) {
    this.lastUsed = now;
  }

  synchronized void mirrored(long now) {
    forwarded = now;
    lastUsed = now;
  }

  synchronized void wroteLocally(long now) {
    if (forwarded >= 0 && firstWritten) {
      long service = now - Math.max(forwarded, localDone);
      pendingLocal = Math.max(pendingLocal, Math.max(0, service));
    }
    localDone = now;
    firstWritten = true;
    lastUsed = now;
  }

  /**
   * The longest local service since the last call; if none was measured since, the last one
   * reported again (acks and packets do not pair up one to one); -1 before the first.
   */
  synchronized long takeLocal() {
    if (pendingLocal >= 0) {
      lastLocal = pendingLocal;
      pendingLocal = -1;
    }
    return lastLocal;
  }

  synchronized long lastUsed() {
    return lastUsed;
  }
}
