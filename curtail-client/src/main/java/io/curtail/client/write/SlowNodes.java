package io.curtail.client.write;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;

/**
 * DataNodes this JVM recently replaced for slowness, which new blocks avoid (beyond the paper:
 * a block allocated after the judgement should not pay for a replacement again). Bounded in number
 * and in time, so a DataNode that recovers is used again, and a cluster of a few nodes is never
 * starved: the writer drops these exclusions when the NameNode cannot place a block without them.
 */
final class SlowNodes {
  /** How long a judgement keeps a DataNode out of new blocks. */
  static final long MEMORY_NANOS = TimeUnit.MINUTES.toNanos(5);
  /** At most this many DataNodes are avoided at once (the most recently judged). */
  static final int MAX_AVOIDED = 3;

  private static final SlowNodes SHARED = new SlowNodes(System::nanoTime);

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

  SlowNodes(LongSupplier clock) {
    this.clock = clock;
  }

  static SlowNodes shared() {
    return SHARED;
  }

  synchronized void judgedSlow(DatanodeInfo node) {
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

  synchronized void clear() {
    judged.clear();
  }
}
