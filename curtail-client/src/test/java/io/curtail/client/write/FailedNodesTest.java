package io.curtail.client.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.junit.jupiter.api.Test;

/** A stream's DataNodes that failed: excluded for stock's expiry after each failure, then used. */
class FailedNodesTest {
  private static final long EXPIRY_NANOS = TimeUnit.MINUTES.toNanos(10); // stock's default
  private final AtomicLong now = new AtomicLong();
  private final FailedNodes failed = new FailedNodes(now::get, EXPIRY_NANOS);

  private static DatanodeInfo node(int port) {
    return new DatanodeInfo.DatanodeInfoBuilder().setNodeID(new DatanodeID("127.0.0.1",
        "dn" + port, "uuid-" + port, port, 0, 0, 0)).build();
  }

  @Test
  void aDataNodeIsForgivenTheExpiryAfterItLastFailed() {
    failed.add(node(1));
    now.addAndGet(TimeUnit.MINUTES.toNanos(4));
    failed.add(node(2));
    now.addAndGet(TimeUnit.MINUTES.toNanos(6) - 1);
    assertEquals(Arrays.asList(node(1), node(2)), failed.current(), "one tick before 1 expires");
    now.incrementAndGet();
    assertFalse(failed.contains(node(1)), "forgiven 10 minutes after it failed");
    assertEquals(Collections.singletonList(node(2)), failed.current());
    failed.add(node(2)); // failed again: excluded for another 10 minutes from now
    now.addAndGet(EXPIRY_NANOS - 1);
    assertTrue(failed.contains(node(2)), "one tick before its second failure expires");
    now.incrementAndGet();
    assertEquals(Collections.emptyList(), failed.current(), "all forgiven");
  }
}
