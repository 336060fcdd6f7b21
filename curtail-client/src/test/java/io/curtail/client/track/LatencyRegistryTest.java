package io.curtail.client.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LatencyRegistryTest {
  private static final long EXPIRY = TimeUnit.MINUTES.toNanos(10);
  private final AtomicLong clock = new AtomicLong(1_000);

  private static NodeId dn(int i) {
    return NodeId.of("10.0.0." + i + ":9866");
  }

  @Test
  void oneTrackerPerNodeSharedByAllLookups() {
    LatencyRegistry r = new LatencyRegistry(clock::get, 10, EXPIRY, EXPIRY);
    NodeTracker t = r.tracker(dn(1));
    t.writes().record(5);
    assertSame(t, r.tracker(NodeId.of("10.0.0.1:9866")));
    assertEquals(1, r.tracker(dn(1)).writes().totalRecorded());
    assertEquals(1, r.size());
  }

  @Test
  void idleTrackersExpireActiveOnesStay() {
    LatencyRegistry r = new LatencyRegistry(clock::get, 10, EXPIRY, EXPIRY);
    NodeTracker idle = r.tracker(dn(1));
    NodeTracker busy = r.tracker(dn(2));
    for (int step = 0; step < 8; step++) {
      clock.addAndGet(EXPIRY / 4);
      busy.reads().record(1); // recording alone (no look-up) keeps a tracker alive
      r.tracker(dn(3)); // look-ups drive sweeps
    }
    assertNull(r.peek(dn(1)), "idle tracker should be gone: " + idle);
    assertSame(busy, r.peek(dn(2)));
    assertNotNull(r.peek(dn(3)));
  }

  @Test
  void justBeforeExpiryNothingGoes() {
    LatencyRegistry r = new LatencyRegistry(clock::get, 10, EXPIRY, EXPIRY);
    r.tracker(dn(1));
    clock.addAndGet(EXPIRY - 1);
    r.sweep(clock.get());
    assertNotNull(r.peek(dn(1)));
    clock.addAndGet(1);
    r.sweep(clock.get());
    assertNull(r.peek(dn(1)));
  }

  @Test
  void boundEvictsLeastRecentlyActive() {
    LatencyRegistry r = new LatencyRegistry(clock::get, 3, EXPIRY, EXPIRY);
    for (int i = 1; i <= 3; i++) {
      r.tracker(dn(i));
      clock.incrementAndGet();
    }
    r.tracker(dn(1)); // dn(1) is now the most recent; dn(2) the oldest
    clock.incrementAndGet();
    r.tracker(dn(4));
    assertEquals(3, r.size());
    assertNull(r.peek(dn(2)));
    assertNotNull(r.peek(dn(1)));
    assertNotNull(r.peek(dn(4)));
  }

  @Test
  void overTheBoundItEvictsAnEighthSoNewNodesDoNotSortEachTime() {
    LatencyRegistry r = new LatencyRegistry(clock::get, 64, EXPIRY, EXPIRY);
    for (int i = 1; i <= 64; i++) {
      r.tracker(dn(i));
      clock.incrementAndGet();
    }
    assertEquals(64, r.size());
    r.tracker(dn(65)); // over: down to 56, the 9 least recently active gone
    assertEquals(56, r.size());
    assertNull(r.peek(dn(9)));
    assertNotNull(r.peek(dn(10)));
    assertNotNull(r.peek(dn(65)));
    for (int i = 66; i <= 73; i++) {
      clock.incrementAndGet();
      r.tracker(dn(i)); // room for eight more without a sweep
    }
    assertEquals(64, r.size());
  }

  @Test
  void aBusyFlagCountsUntilItsMemoryRunsOut() {
    LatencyRegistry r = new LatencyRegistry(clock::get, 10, EXPIRY, 100);
    NodeTracker t = r.tracker(dn(1));
    t.heardBusy(true, 1_000);
    assertTrue(t.busy(1_100), "one tick before the memory runs out");
    assertFalse(t.busy(1_101), "one tick after");
    t.heardBusy(false, 1_050);
    assertFalse(t.busy(1_060), "the DataNode said otherwise");
  }

  @Test
  void nodeIdsAreValues() {
    assertEquals(dn(1), NodeId.of("10.0.0.1:9866"));
    assertEquals(dn(1).hashCode(), NodeId.of("10.0.0.1:9866").hashCode());
    assertEquals("10.0.0.1:9866", dn(1).toString());
    assertThrows(IllegalArgumentException.class, () -> NodeId.of(""));
    assertThrows(IllegalArgumentException.class, () -> new LatencyRegistry(clock::get, 0, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new LatencyRegistry(clock::get, 1, 0, 1));
  }
}
