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
 * <p>A streamer waiting on a packet with nothing acknowledged since a look long ago counts that
 * wait as one more sample, a lower bound of the packet's time.
 *
 * <p>A stream keeps one per DataNode across its block groups, so that what its first group showed
 * of a DataNode is known when the next group starts on it.
 *
 * <p>Not thread-safe: owned by the watch's one thread. Numbers in, numbers out; no clock of its
 * own.
 */
final class StreamerPace {
  /** Time per packet of the latest acknowledged packets: a ring of {@code window.length}. */
  private final long[] window;
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

  /** @param window acknowledged packets considered, the latest (>= 1) */
  StreamerPace(int window) {
    this.window = new long[window];
  }

  /**
   * Follows a new streamer or internal block on the same DataNode: sequence numbers start afresh,
   * what the DataNode's packets took is kept.
   */
  void follow() {
    started = false;
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
      for (long i = 0; i < Math.min(done, window.length); i++) {
        record(each);
      }
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

  /** Acknowledged packets recorded, including those out of the window. */
  long recorded() {
    return recorded;
  }

  /**
   * The time per packet of the latest acknowledged packets and, if the streamer has been waiting
   * on one for longer than {@code floorNanos} at {@code nowNanos}, that wait. {@code scratch}
   * must hold the window and one more; it is overwritten.
   */
  LatencyStats stats(double percentile, long floorNanos, long nowNanos, long[] scratch) {
    int n = (int) Math.min(recorded, window.length);
    System.arraycopy(window, 0, scratch, 0, n);
    long waited = nowNanos - waitingSinceNanos;
    if (started && outstanding() > 0 && waited > floorNanos) {
      scratch[n++] = waited;
    }
    return LatencyStats.of(scratch, n, percentile);
  }

  private void record(long nanos) {
    window[(int) (recorded % window.length)] = nanos;
    recorded++;
  }

  @Override
  public String toString() {
    return "StreamerPace{acked=" + acked + ", queued=" + queued + ", recorded=" + recorded + '}';
  }
}
