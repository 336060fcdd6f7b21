package io.curtail.client.track;

/**
 * What this JVM knows of one DataNode's recent latency: packet writes through it, packet reads
 * from it, the starts of reads from it (time to first byte), the pipeline links out of it and
 * into it, its service where it was first in a pipeline, and the service of the DataNodes it
 * forwarded to, in separate windows because they differ by nature. Thread-safe; see
 * {@link LatencyWindow} for the contract of each window.
 */
public final class NodeTracker {
  /** The samples {@link #firsts} and {@link #fed} keep: the most a query of them asks for. */
  public static final int RECENT = 32;
  private final NodeId node;
  private final LatencyWindow writes = new LatencyWindow();
  private final LatencyWindow reads = new LatencyWindow();
  private final LatencyWindow starts = new LatencyWindow();
  private final LatencyWindow sends = new LatencyWindow();
  private final LatencyWindow receives = new LatencyWindow();
  /** Asked only for their last few stages ({@link #RECENT}): a few hundred bytes each. */
  private final RecentSamples firsts;
  private final LatencyWindow fed = new LatencyWindow(RECENT);
  /** The last {@link #RECENT} of {@link #writes} fed fast: see {@link #recordWrite}. */
  private final RecentSamples writesFedFast;
  /**
   * Who fed the last of {@link #writes} (a DataNode's tracker, or null for the client), and how
   * many in a row it fed: all {@link #soleFeeder} asks. Guarded by {@link #feederLock}.
   */
  private final Object feederLock = new Object();
  private NodeTracker lastFeeder;
  private long lastFeederRun;

  /** How long a busy flag counts without being heard again. */
  private final long busyMemoryNanos;

  private volatile long lastStartNanos;
  /** {@link #writes}' count when it was last {@linkplain #judgeWritesAfresh judged afresh}. */
  private volatile long writesJudgedFrom;

  /** What the DataNode last said of itself on an ack, and when. */
  private volatile boolean busy;
  private volatile long busyHeardNanos;

  // Maintained by the registry's sweeps and look-ups only: never on the per-packet path.
  private volatile long lastActiveNanos;
  private long samplesAtLastSweep;

  NodeTracker(NodeId node, long nowNanos, long busyMemoryNanos) {
    this.node = node;
    this.busyMemoryNanos = busyMemoryNanos;
    this.lastActiveNanos = nowNanos;
    this.lastStartNanos = nowNanos;
    this.firsts = new RecentSamples(RECENT, nowNanos);
    this.writesFedFast = new RecentSamples(RECENT, nowNanos);
  }

  public NodeId node() {
    return node;
  }

  /** Packet write latencies attributed to this DataNode. */
  public LatencyWindow writes() {
    return writes;
  }

  /**
   * Records a packet's write latency attributed to this DataNode into {@link #writes}, at
   * {@code nowNanos}, and who fed it the packet: {@code feeder}, or the client if null.
   * {@code fedFast} if that was the client, or a DataNode the JVM then knew to be fast: such
   * samples say what it is worth itself ({@link #writesFedFast}). Behind a DataNode not known
   * fast, its stage may hold that one's sending (a NIC's queue, which no report sees).
   */
  public void recordWrite(long nanos, NodeTracker feeder, boolean fedFast, long nowNanos) {
    writes.record(nanos);
    synchronized (feederLock) {
      lastFeederRun = feeder == lastFeeder ? lastFeederRun + 1 : 1;
      lastFeeder = feeder;
    }
    if (fedFast) {
      writesFedFast.record(nanos, nowNanos);
    }
  }

  /**
   * The DataNode that fed this one every one of its last {@code samples} write samples; null if
   * the client fed any of them, or two DataNodes did, or fewer were recorded, or more are asked
   * than {@link #RECENT}.
   */
  public NodeTracker soleFeeder(int samples) {
    synchronized (feederLock) {
      return samples >= 1 && samples <= RECENT && samples <= lastFeederRun ? lastFeeder : null;
    }
  }

  /** The last {@link #RECENT} of {@link #writes} fed fast ({@link #recordWrite}). */
  public RecentSamples writesFedFast() {
    return writesFedFast;
  }

  /**
   * The statistics of the last {@code window} of {@link #writes} this DataNode is judged on:
   * those recorded since it was last {@linkplain #judgeWritesAfresh judged afresh}.
   * {@code scratch} must hold {@code window} longs; it is overwritten.
   */
  public LatencyStats judgedWrites(int window, double percentile, long[] scratch) {
    long judged = Math.min(window, writes.totalRecorded() - writesJudgedFrom);
    if (judged <= 0) {
      return LatencyStats.EMPTY;
    }
    LatencyStats s = writes.stats((int) judged, percentile, scratch);
    // Never found slow early once judged afresh: the slow one may still feed it elsewhere. (By
    // the time it has samples enough to be judged again, the median is no longer asked for.)
    return writesJudgedFrom > 0 ? LatencyStats.of(s.samples(), s.percentileNanos(), s.meanNanos())
        : s;
  }

  /**
   * Stops this DataNode's write samples so far from counting against it: it was fed by a
   * DataNode just found slow, and its stages behind that one carried the slow one's sending (the
   * wait in a slow NIC's queue, a slow disk's late acks), which no report tells apart from its
   * own service. Until it has recorded enough again it is not judged, as a DataNode never seen,
   * and it is not found slow early either (no median, see {@code Slowness#slowEarly}): the slow
   * one may still feed it in pipelines that have not replaced it yet.
   */
  public void judgeWritesAfresh() {
    writesJudgedFrom = writes.totalRecorded();
  }

  /** Packet read latencies from this DataNode, the first packet of each read included. */
  public LatencyWindow reads() {
    return reads;
  }

  /**
   * Times to first byte of reads from this DataNode: connection, the DataNode's answer (it opens
   * the replica first) and the first packet. A DataNode can be slow here alone, its packets
   * flowing at full speed once a read has started; among a long read's packets that would not
   * show.
   */
  public LatencyWindow starts() {
    return starts;
  }

  /**
   * Times of the pipeline links out of this DataNode, pooled over the JVM's pipelines. A NIC slow
   * sending delays every one of them, while one pipeline crosses one of them and learns of it a
   * packet at the NIC's pace at a time.
   */
  public LatencyWindow sends() {
    return sends;
  }

  /** Times of the pipeline links into this DataNode, pooled likewise: a NIC slow receiving. */
  public LatencyWindow receives() {
    return receives;
  }

  /**
   * This DataNode's service where it was first in a pipeline, fed by the client alone: its own,
   * whatever the other DataNodes' network. Further down a pipeline its stage also holds the wait
   * of each packet in the sending DataNode's egress queue after that DataNode's write returned,
   * which no report sees: a NIC slow sending makes every DataNode it feeds look slow.
   */
  public RecentSamples firsts() {
    return firsts;
  }

  /**
   * The service of the DataNodes this one forwarded packets to, each packet's stage from its
   * forward here to the next DataNode's departure, pooled over the JVM's pipelines: slow whoever
   * it feeds when its NIC is slow sending (see {@link #firsts}).
   */
  public LatencyWindow fed() {
    return fed;
  }

  /**
   * Records a read's time to first byte at {@code nowNanos}: a start, and a packet read like any
   * other.
   */
  public void recordStart(long nanos, long nowNanos) {
    starts.record(nanos);
    reads.record(nanos);
    lastStartNanos = nowNanos;
  }

  /**
   * When a read from this DataNode last started (its first packet arrived or was overtaken): how
   * fresh what the JVM knows of its reads is. Once a DataNode is known slow, reads avoid it and
   * its windows stop moving, so without this it would stay known slow for ever.
   */
  public long lastStartNanos() {
    return lastStartNanos;
  }

  /** Records what the DataNode said of itself on an ack at {@code nowNanos}. */
  public void heardBusy(boolean busy, long nowNanos) {
    if (busy) {
      busyHeardNanos = nowNanos;
    }
    this.busy = busy;
  }

  /**
   * Whether the DataNode said it is busy and has not said otherwise, within the last
   * busy memory: a flag not heard again for that long is forgotten.
   */
  public boolean busy(long nowNanos) {
    return busy && nowNanos - busyHeardNanos <= busyMemoryNanos;
  }

  long lastActiveNanos() {
    return lastActiveNanos;
  }

  void touch(long nowNanos) {
    lastActiveNanos = nowNanos;
  }

  /** Called under the registry's sweep lock: marks active if samples arrived since the last sweep. */
  void noteSamples(long nowNanos) {
    long total = writes.totalRecorded() + reads.totalRecorded();
    if (total != samplesAtLastSweep) {
      samplesAtLastSweep = total;
      lastActiveNanos = nowNanos;
    }
  }

  @Override
  public String toString() {
    return "NodeTracker{" + node + ", writes=" + writes.totalRecorded() + ", reads="
        + reads.totalRecorded() + '}';
  }
}
