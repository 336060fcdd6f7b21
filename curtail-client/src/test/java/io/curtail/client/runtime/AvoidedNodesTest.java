package io.curtail.client.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.junit.jupiter.api.Test;

/** The JVM's memory of DataNodes to avoid: bounded in number and in time. */
class AvoidedNodesTest {
  private final AtomicLong now = new AtomicLong();
  private static final long MEMORY_NANOS = TimeUnit.MINUTES.toNanos(5);
  private final AvoidedNodes slow = new AvoidedNodes(now::get, MEMORY_NANOS, 3);

  private static DatanodeInfo node(int port) {
    return new DatanodeInfo.DatanodeInfoBuilder().setNodeID(new DatanodeID("127.0.0.1",
        "dn" + port, "uuid-" + port, port, 0, 0, 0)).build();
  }

  @Test
  void forgetsAfterItsMemoryAndKeepsTheMostRecentFew() {
    slow.avoid(node(1));
    now.addAndGet(TimeUnit.MINUTES.toNanos(1));
    slow.avoid(node(2));
    slow.avoid(node(3));
    slow.avoid(node(4));
    assertEquals(Arrays.asList(node(2), node(3), node(4)), slow.avoided(), "at most 3, newest");
    slow.avoid(node(2)); // judged again: now the newest
    assertEquals(Arrays.asList(node(3), node(4), node(2)), slow.avoided());
    now.addAndGet(MEMORY_NANOS + 1);
    assertEquals(0, slow.avoided().size(), "forgotten after 5 minutes");
    slow.avoid(node(5));
    slow.forget(node(5));
    assertEquals(0, slow.avoided().size(), "forgotten when asked");
  }
}
