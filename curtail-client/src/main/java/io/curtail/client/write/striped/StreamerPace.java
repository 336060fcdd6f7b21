package io.curtail.client.write.striped;

import io.curtail.client.track.LatencyStats;

/**
 * How long one internal streamer's DataNode takes over each packet, from what periodic looks at
 * the streamer's sequence numbers show: while the streamer has packets waiting, the time between
 * one look that saw acknowledgements and the next, shared among the packets acknowledged in it
 * (a FIFO's service time, the per-packet latency a pipeline's rule compares). A slow DataNode
 * shows as a slow pace however the writer queues; a healthy one that is sent a cell's packets at
 * once does not look slow for the queue they form, and one whose acknowledgements stall for a
 * moment and then arrive together has the stall shared among them. Each sample is within a look's
 * period, divided by the packets it covers, of the truth.
 *
 * <p>The samples go to the DataNode's {@link DataNodePaces.Pace}, which the file system's other
 * streamers on that DataNode share; a streamer waiting on a packet with nothing acknowledged
 * since a look long ago counts that wait as one more sample, a lower bound of the packet's time.
 *
 * <p>Not thread-safe: owned by the watch's one thread. Numbers in, numbers out; no clock of its
 * own.
 */
final class StreamerPace {
  private final DataNodePaces.Pace pace;
  /** Samples this streamer recorded. */
  private long recorded;
  private boolean started;
  /** The last sequence numbers seen acknowledged and queued, and when. */
  private long acked;
  private long queued;
  private long lastLookNanos;
  /**
   * Since when the streamer has been waiting with nothing acknowledged: the look that last saw an
   * acknowledgement, or that first saw packets waiting after none were.
   */
  private long waitingSinceNanos;

  /** Follows a streamer (one internal block) on the DataNode whose pace is {@code pace}. */
  StreamerPace(DataNodePaces.Pace pace) {
    this.pace = pace;
  }

  /**
   * What a look at {@code nowNanos} saw: packets up to {@code queuedSeqno} queued, up to
   * {@code ackedSeqno} acknowledged. Packets acknowledged by the first look are not counted.
   */
  void observe(long queuedSeqno, long ackedSeqno, long nowNanos) {
    long q = Math.max(queuedSeqno, ackedSeqno);
    if (!started) {
      started = true;
      acked = ackedSeqno;
      queued = q;
      lastLookNanos = nowNanos;
      waitingSinceNanos = nowNanos;
      return;
    }
    boolean wasWaiting = queued > acked;
    long done = ackedSeqno - acked;
    if (done > 0) {
      // Waiting since then, or queued and acknowledged between the looks: at most the period.
      long took = nowNanos - (wasWaiting ? waitingSinceNanos : lastLookNanos);
      long each = Math.max(0, took) / done;
      for (long i = 0; i < done; i++) { // at most the packets in flight
        pace.window.record(each);
        recorded++;
      }
      pace.lastSampleNanos = nowNanos;
      waitingSinceNanos = nowNanos;
    } else if (!wasWaiting) {
      waitingSinceNanos = nowNanos; // waiting from now, if anything was queued meanwhile
    }
    acked = Math.max(acked, ackedSeqno);
    queued = Math.max(q, acked);
    lastLookNanos = nowNanos;
  }

  /** Packets queued and not yet acknowledged, as last seen. */
  long outstanding() {
    return queued - acked;
  }

  /** Samples this streamer recorded. */
  long recorded() {
    return recorded;
  }

  /** How long it has been waiting at {@code nowNanos} with nothing acknowledged; 0 if idle. */
  long waitingNanos(long nowNanos) {
    return started && outstanding() > 0 ? nowNanos - waitingSinceNanos : 0;
  }

  /**
   * The DataNode's time per packet over its latest {@code window} samples and, if this streamer
   * has been waiting on one for longer than {@code floorNanos} at {@code nowNanos}, that wait.
   * {@code scratch} must hold the window and one more; it is overwritten.
   */
  LatencyStats stats(int window, double percentile, long floorNanos, long nowNanos,
      long[] scratch) {
    int n = pace.window.copyLast(window, scratch, 0);
    long waited = waitingNanos(nowNanos);
    if (waited > floorNanos) {
      scratch[n++] = waited;
    }
    return LatencyStats.of(scratch, n, percentile);
  }

  @Override
  public String toString() {
    return "StreamerPace{acked=" + acked + ", queued=" + queued + ", recorded=" + recorded + '}';
  }
}
