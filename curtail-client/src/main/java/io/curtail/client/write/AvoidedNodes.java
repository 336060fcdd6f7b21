package io.curtail.client.write;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;

/**
 * DataNodes this JVM avoids for new blocks and replacements, for one reason: those it recently
 * judged slow (beyond the paper: a block allocated after the judgement should not pay for a
 * replacement again), or those that said on their acks that they are busy (paper §5). Bounded in
 * number and in time, so a DataNode that recovers is used again, and a cluster of a few nodes is
 * never starved: the writer drops these exclusions when the NameNode cannot place a block
 * without them.
 */
final class AvoidedNodes {
  /** How long a DataNode stays avoided unless heard of again. */
  static final long MEMORY_NANOS = TimeUnit.MINUTES.toNanos(5);
  /** At most this many DataNodes are avoided at once (the most recent). */
  static final int MAX_AVOIDED = 3;

  private static final AvoidedNodes SLOW = new AvoidedNodes(System::nanoTime);
  private static final AvoidedNodes BUSY = new AvoidedNodes(System::nanoTime);

  private final LongSupplier clock;
  private final Map<String, Judged> judged = new LinkedHashMap<>();

  private static final class Judged {
    final DatanodeInfo node;
    final long atNanos;

    Judged(DatanodeInfo node, long atNanos) {
      this.node = node;
      this.atNanos = atNanos;
    }
  }

  AvoidedNodes(LongSupplier clock) {
    this.clock = clock;
  }

  /** DataNodes this JVM judged slow. */
  static AvoidedNodes slow() {
    return SLOW;
  }

  /** DataNodes that said they are busy. */
  static AvoidedNodes busy() {
    return BUSY;
  }

  /** Avoids {@code node} from now on, for {@link #MEMORY_NANOS}. */
  synchronized void avoid(DatanodeInfo node) {
    judged.remove(node.getXferAddr());
    judged.put(node.getXferAddr(), new Judged(node, clock.getAsLong()));
    while (judged.size() > MAX_AVOIDED) {
      judged.remove(judged.keySet().iterator().next());
    }
  }

  /** DataNodes to keep out of new blocks now, most recently judged last. */
  synchronized List<DatanodeInfo> avoided() {
    long now = clock.getAsLong();
    judged.values().removeIf(j -> now - j.atNanos > MEMORY_NANOS);
    List<DatanodeInfo> result = new ArrayList<>(judged.size());
    for (Judged j : judged.values()) {
      result.add(j.node);
    }
    return result;
  }

  /** Stops avoiding {@code node} (it said it is no longer busy). */
  synchronized void forget(DatanodeInfo node) {
    judged.remove(node.getXferAddr());
  }

  synchronized void clear() {
    judged.clear();
  }
}
