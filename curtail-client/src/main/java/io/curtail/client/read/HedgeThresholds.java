package io.curtail.client.read;

import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.policy.Hedging;
import io.curtail.client.track.LatencyRegistry;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.track.NodeId;
import io.curtail.client.track.NodeTracker;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One client's hedge thresholds: how long a packet from each DataNode may take before it is
 * hedged, from the latencies of the other DataNodes the client reads from (paper §4.3), or, while
 * it has read too little of them, from what the JVM knows. Part of a {@link ReadContext}, which
 * counts the packets ({@code packets}) a threshold is refreshed by. Thread-safe.
 */
final class HedgeThresholds {
  /**
   * DataNodes whose latencies a threshold pools, at most this many (the first seen): it bounds
   * the scratch memory of a threshold, and 32 DataNodes are plenty to compare with.
   */
  static final int MAX_COMPARED_NODES = 32;

  private final CurtailConfig config;
  private final Hedging hedging;
  private final LatencyRegistry registry;
  private final AtomicLong packets;
  private final Map<NodeId, NodeTracker> readFrom = new ConcurrentHashMap<>();
  /** {@link #readFrom}'s trackers, remade when one joins: walking them allocates nothing. */
  private volatile NodeTracker[] compared = new NodeTracker[0];
  private final Map<NodeId, Threshold> thresholds = new ConcurrentHashMap<>();
  /** Where {@link #othersStats} pools samples; guarded by itself. */
  private final long[] othersScratch;

  HedgeThresholds(CurtailConfig config, Hedging hedging, LatencyRegistry registry,
      AtomicLong packets) {
    this.config = config;
    this.hedging = hedging;
    this.registry = registry;
    this.packets = packets;
    this.othersScratch = new long[MAX_COMPARED_NODES * config.readWindowPackets()];
  }

  /** Notes that this client reads from {@code t}'s DataNode, so others are compared with it. */
  void readsFrom(NodeTracker t) {
    if (readFrom.get(t.node()) == t) {
      return; // known already: the common case, every read
    }
    synchronized (readFrom) {
      if (readFrom.size() < MAX_COMPARED_NODES || readFrom.containsKey(t.node())) {
        readFrom.put(t.node(), t);
        compared = readFrom.values().toArray(new NodeTracker[0]);
      }
    }
  }

  /** {@link #nanos(NodeTracker, boolean)} of a replica not reported loaded. */
  long nanos(NodeTracker self) {
    return nanos(self, false);
  }

  /**
   * How long a packet from {@code self}'s DataNode may take before it is hedged: the policy's
   * threshold over the latencies of the other DataNodes this client reads from (paper §4.3),
   * remembered per DataNode while the client reads fewer than
   * {@code curtail.read.hedging.threshold.refresh.packets} packets: the load it follows moves
   * slower than that, and a small read then costs a look-up, not a percentile.
   *
   * <p>A client that has read too little from other DataNodes to adapt (its first reads) takes
   * what the JVM knows of the DataNodes instead ({@link #poolKnown}): what other streams and
   * file systems sharing the runtime measured is knowledge before its own first packet, and
   * without it a client's first read of a slow DataNode waits the long bootstrap value. Such a
   * threshold is not remembered: a packet waiting on a slow DataNode is judged again on every
   * look, so it is hedged as soon as the JVM knows enough, not 16 of this client's packets on.
   * A packet from a replica the NameNode reports loaded ({@code reportedLoaded}) may be hedged
   * sooner while nothing is known ({@link Hedging#thresholdNanos(int, long, boolean)}).
   */
  long nanos(NodeTracker self, boolean reportedLoaded) {
    Threshold t = thresholds.get(self.node());
    if (t == null) {
      thresholds.putIfAbsent(self.node(), new Threshold(config.thresholdRefreshPackets()));
      t = thresholds.get(self.node());
    }
    long now = packets.get();
    if (t.cold || now - t.atPacket >= config.thresholdRefreshPackets()) {
      synchronized (othersScratch) {
        int n = poolOthers(self);
        if (n < config.readWindowPackets()) {
          n = poolKnown(self);
        }
        long p = LatencyStats.percentile(othersScratch, n, config.slownessPercentile());
        t.nanos = hedging.thresholdNanos(n, p, false);
        t.loadedNanos = hedging.thresholdNanos(n, p, true);
        t.cold = n < config.readWindowPackets();
      }
      t.atPacket = now;
    }
    return reportedLoaded ? t.loadedNanos : t.nanos;
  }

  /**
   * A DataNode's hedge threshold, and the client's packet count when it was computed: updated in
   * place, as it is read on every packet. Two threads refreshing it at once write alike values.
   */
  private static final class Threshold {
    volatile long nanos;
    /** The same for a replica the NameNode reports loaded. */
    volatile long loadedNanos;
    volatile long atPacket;
    /** Whether it was computed from too few samples to adapt: then computed again each time. */
    volatile boolean cold = true;

    /** Due for computing at once. */
    Threshold(long refreshPackets) {
      this.atPacket = -refreshPackets;
    }
  }

  /**
   * Recent read latencies pooled over the DataNodes this client has read from, other than
   * {@code self}: what a packet from {@code self} is compared with (paper §4.3).
   */
  LatencyStats othersStats(NodeTracker self) {
    synchronized (othersScratch) {
      return LatencyStats.of(othersScratch, poolOthers(self), config.slownessPercentile());
    }
  }

  /** Copies those latencies into {@link #othersScratch} (its lock held); returns how many. */
  private int poolOthers(NodeTracker self) {
    int n = 0;
    for (NodeTracker t : compared) {
      if (t != self && n + config.readWindowPackets() <= othersScratch.length) {
        n += t.reads().copyLast(config.readWindowPackets(), othersScratch, n);
      }
    }
    return n;
  }

  /**
   * {@link #poolOthers} over the DataNodes the JVM knows, as many as the scratch holds (up to
   * {@value #MAX_COMPARED_NODES}, in no particular order): for a client that has not read from
   * enough others itself. A cold path only, so walking the registry may allocate.
   */
  private int poolKnown(NodeTracker self) {
    int n = 0;
    for (NodeTracker t : registry.trackers()) {
      if (t.node().equals(self.node())) {
        continue;
      }
      if (n + config.readWindowPackets() > othersScratch.length) {
        break;
      }
      n += t.reads().copyLast(config.readWindowPackets(), othersScratch, n);
    }
    return n;
  }
}
