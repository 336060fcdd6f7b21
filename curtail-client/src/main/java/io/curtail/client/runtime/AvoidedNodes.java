package io.curtail.client.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;

/**
 * DataNodes to keep out of new blocks and replacements for one reason: those recently judged slow
 * (beyond the paper: a block allocated after the judgement should not pay for a replacement
 * again), or those that said on their acks that they are busy (paper §5). Bounded in number and
 * in time, so a DataNode that recovers is used again, and a cluster of a few nodes is never
 * starved: the writer drops these exclusions when the NameNode cannot place a block without them,
 * and those of slow ones when it has no replacement without them (a busy one is never a
 * replacement).
 * Thread-safe.
 */
public final class AvoidedNodes {
  private final NanoClock clock;
  private final long memoryNanos;
  private final int maxNodes;
  private final Map<String, Judged> judged = new LinkedHashMap<>();

  private static final class Judged {
    final DatanodeInfo node;
    final long atNanos;

    Judged(DatanodeInfo node, long atNanos) {
      this.node = node;
      this.atNanos = atNanos;
    }
  }

  /**
   * @param memoryNanos how long a DataNode stays avoided unless judged or heard again
   * @param maxNodes at most this many are avoided at once (the most recent)
   */
  public AvoidedNodes(NanoClock clock, long memoryNanos, int maxNodes) {
    this.clock = clock;
    this.memoryNanos = memoryNanos;
    this.maxNodes = maxNodes;
  }

  /** Avoids {@code node} from now on, for the memory. */
  public synchronized void avoid(DatanodeInfo node) {
    judged.remove(node.getXferAddr());
    judged.put(node.getXferAddr(), new Judged(node, clock.nanoTime()));
    while (judged.size() > maxNodes) {
      judged.remove(judged.keySet().iterator().next());
    }
  }

  /** DataNodes to keep out of new blocks now, most recently judged last. */
  public synchronized List<DatanodeInfo> avoided() {
    long now = clock.nanoTime();
    judged.values().removeIf(j -> now - j.atNanos > memoryNanos);
    List<DatanodeInfo> result = new ArrayList<>(judged.size());
    for (Judged j : judged.values()) {
      result.add(j.node);
    }
    return result;
  }

  /** Stops avoiding {@code node} (it said it is no longer busy). */
  public synchronized void forget(DatanodeInfo node) {
    judged.remove(node.getXferAddr());
  }
}
