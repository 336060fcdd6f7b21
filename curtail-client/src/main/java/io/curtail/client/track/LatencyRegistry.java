package io.curtail.client.track;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Knowledge of DataNode latencies: one {@link NodeTracker} per DataNode, shared by every stream of
 * the file systems that share a {@code CurtailRuntime} (by default, every one in the JVM on the
 * same cluster). A Spark executor runs many short tasks; each new stream starts with what earlier
 * ones learnt instead of warming up from nothing.
 *
 * <p>Memory is bounded: a tracker idle (no look-up, no new sample) for {@code idleExpiryNanos} is
 * dropped, and beyond {@code maxNodes} trackers the least recently active ones go first (down to
 * seven eighths of the bound, so eviction sorts rarely). Streams look a tracker up once per
 * pipeline or block and keep the reference for their per-packet recording; a tracker evicted
 * under a live stream only stops being shared, it never fails.
 *
 * <p>Thread-safe. Sweeps run inline on look-ups, at most one at a time and never blocking a
 * look-up; the clock is injected so tests step it instead of sleeping.
 */
public final class LatencyRegistry {
  private final ConcurrentMap<NodeId, NodeTracker> trackers = new ConcurrentHashMap<>();
  private final LongSupplier clock;
  private final int maxNodes;
  private final long idleExpiryNanos;
  private final long busyMemoryNanos;
  private final ReentrantLock sweepLock = new ReentrantLock();
  private volatile long lastSweepNanos;

  /**
   * @param maxNodes trackers kept at most; each holds five windows of
   *     {@link LatencyWindow#CAPACITY} longs and three of {@link NodeTracker#RECENT} (21 KiB)
   * @param idleExpiryNanos a tracker unused this long is forgotten: the node's load will have
   *     changed since
   * @param busyMemoryNanos how long a DataNode's busy flag counts without being heard again
   */
  public LatencyRegistry(LongSupplier clock, int maxNodes, long idleExpiryNanos,
      long busyMemoryNanos) {
    if (maxNodes < 1) {
      throw new IllegalArgumentException("maxNodes must be >= 1, was " + maxNodes);
    }
    if (idleExpiryNanos <= 0) {
      throw new IllegalArgumentException("idleExpiryNanos must be > 0, was " + idleExpiryNanos);
    }
    this.clock = clock;
    this.maxNodes = maxNodes;
    this.idleExpiryNanos = idleExpiryNanos;
    this.busyMemoryNanos = busyMemoryNanos;
    this.lastSweepNanos = clock.getAsLong();
  }

  /** The tracker of {@code node}, created if the JVM has none; marks it active. */
  public NodeTracker tracker(NodeId node) {
    long now = clock.getAsLong();
    NodeTracker t = trackers.get(node);
    if (t == null) {
      t = trackers.computeIfAbsent(node, n -> new NodeTracker(n, now, busyMemoryNanos));
    }
    t.touch(now);
    if (trackers.size() > maxNodes || now - lastSweepNanos >= idleExpiryNanos / 4) {
      sweep(now);
    }
    return t;
  }

  /** The tracker of {@code node} if the JVM has one, without creating or touching it. */
  public NodeTracker peek(NodeId node) {
    return trackers.get(node);
  }

  /** The trackers held now, a live view: for reports, not the data path. */
  public Collection<NodeTracker> trackers() {
    return Collections.unmodifiableCollection(trackers.values());
  }

  /** Trackers currently held. */
  public int size() {
    return trackers.size();
  }

  /** Drops idle trackers, then the least recently active beyond the bound. Package-private for tests. */
  void sweep(long now) {
    if (!sweepLock.tryLock()) {
      return; // another thread is sweeping; one sweep at a time is enough
    }
    try {
      lastSweepNanos = now;
      for (NodeTracker t : trackers.values()) {
        t.noteSamples(now);
        if (now - t.lastActiveNanos() >= idleExpiryNanos) {
          trackers.remove(t.node(), t);
        }
      }
      // Over the bound, go an eighth below it: a JVM meeting DataNode after DataNode (one
      // client of a cluster of thousands) then sorts once per maxNodes/8 new ones, not on each.
      int excess = trackers.size() > maxNodes ? trackers.size() - (maxNodes - maxNodes / 8) : 0;
      if (excess > 0) {
        List<NodeTracker> oldestFirst = new ArrayList<>(trackers.values());
        oldestFirst.sort(Comparator.comparingLong(NodeTracker::lastActiveNanos));
        for (int i = 0; i < excess && i < oldestFirst.size(); i++) {
          trackers.remove(oldestFirst.get(i).node(), oldestFirst.get(i));
        }
      }
    } finally {
      sweepLock.unlock();
    }
  }
}
