package io.curtail.client.write;

import io.curtail.client.runtime.NanoClock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;

/**
 * DataNodes that failed one file's writes (a pipeline set-up, a block being written, a rebuild),
 * each kept out of the file's new blocks and replacements for
 * {@code dfs.client.write.exclude.nodes.cache.expiry.interval.millis} after it last failed, then
 * forgiven, as stock's writer forgives them: a DataNode restarted since is used again, so a long
 * stream does not run out of DataNodes once the ones it has failed on are back.
 *
 * <p>Not {@link io.curtail.client.runtime.AvoidedNodes}: those are DataNodes judged <em>slow</em>
 * or busy, shared by every stream of the JVM, remembered for {@code curtail.knowledge.memory.ms}
 * and dropped early when the NameNode cannot place a block without them. These failed this
 * stream, are its own, and are never dropped early: a DataNode just killed is still live to the
 * NameNode for a while, and asking for it again would fail again.
 *
 * <p>Thread-safe.
 */
final class FailedNodes {
  private final NanoClock clock;
  private final long expiryNanos;
  /** Each DataNode and when (clock nanos) it last failed, oldest first. */
  private final Map<DatanodeInfo, Long> failedAt = new LinkedHashMap<>();

  /** @param expiryNanos how long a DataNode stays excluded after it failed */
  FailedNodes(NanoClock clock, long expiryNanos) {
    this.clock = clock;
    this.expiryNanos = expiryNanos;
  }

  /** Excludes {@code node} from now on, for the expiry. */
  synchronized void add(DatanodeInfo node) {
    failedAt.remove(node);
    failedAt.put(node, clock.nanoTime());
  }

  /** Whether {@code node} failed less than the expiry ago. */
  synchronized boolean contains(DatanodeInfo node) {
    expire();
    return failedAt.containsKey(node);
  }

  /** The DataNodes excluded now, the one that failed longest ago first. */
  synchronized List<DatanodeInfo> current() {
    expire();
    return new ArrayList<>(failedAt.keySet());
  }

  private void expire() {
    long now = clock.nanoTime();
    failedAt.values().removeIf(at -> now - at >= expiryNanos);
  }
}
