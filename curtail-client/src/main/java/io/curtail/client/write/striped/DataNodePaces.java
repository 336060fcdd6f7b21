package io.curtail.client.write.striped;

import io.curtail.client.track.LatencyWindow;
import java.util.HashMap;
import java.util.Map;

/**
 * What a file system's striped writes learnt of each DataNode's pace (the time it takes per
 * packet, {@link StreamerPace}), by transfer address: shared by its streams and their block
 * groups, so that a DataNode one group found slow is known slow when the next group, or the next
 * file, starts on it, as its pipelines share the JVM's trackers. Kept apart from those trackers:
 * these are times measured by looks a few milliseconds apart, theirs are exact. A DataNode with
 * no sample for {@code curtail.knowledge.memory.ms} is forgotten, as a DataNode judged slow is.
 *
 * <p>Not thread-safe: owned by the watch's one thread (the window itself may be read anywhere).
 */
final class DataNodePaces {
  /** One DataNode's recent times per packet, and when the last was recorded. */
  static final class Pace {
    final LatencyWindow window = new LatencyWindow();
    long lastSampleNanos;

    Pace(long nowNanos) {
      this.lastSampleNanos = nowNanos;
    }
  }

  private final Map<String, Pace> byNode = new HashMap<>();
  private final long memoryNanos;

  DataNodePaces(long memoryNanos) {
    this.memoryNanos = memoryNanos;
  }

  /** DataNode {@code node}'s pace: a fresh one if none was recorded within the memory. */
  Pace of(String node, long nowNanos) {
    Pace p = byNode.get(node);
    if (p == null || nowNanos - p.lastSampleNanos > memoryNanos) {
      p = new Pace(nowNanos);
      byNode.put(node, p);
    }
    return p;
  }

  /** Forgets the DataNodes without a sample within the memory. */
  void forgetStale(long nowNanos) {
    byNode.values().removeIf(p -> nowNanos - p.lastSampleNanos > memoryNanos);
  }

  /** DataNodes known. */
  int size() {
    return byNode.size();
  }
}
