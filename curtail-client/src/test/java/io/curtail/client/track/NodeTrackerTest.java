package io.curtail.client.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class NodeTrackerTest {
  private final long[] scratch = new long[LatencyWindow.CAPACITY];

  @Test
  void writesJudgedAfreshCountOnlyWhatFollows() {
    NodeTracker t = new NodeTracker(NodeId.of("10.0.0.1:9866"), 0, 1);
    for (int i = 0; i < 30; i++) {
      t.writes().record(50_000_000); // stages behind a slow feeder
    }
    assertEquals(30, t.judgedWrites(100, 0.95, scratch).samples());

    t.judgeWritesAfresh();
    assertSame(LatencyStats.EMPTY, t.judgedWrites(100, 0.95, scratch));
    assertEquals(30, t.writes().totalRecorded(), "the window itself keeps every sample");

    for (int i = 0; i < 5; i++) {
      t.writes().record(1_000_000);
    }
    LatencyStats judged = t.judgedWrites(100, 0.95, scratch);
    assertEquals(5, judged.samples());
    assertEquals(1_000_000, judged.percentileNanos());
    assertEquals(3, t.judgedWrites(3, 0.95, scratch).samples(), "the window asked for bounds it");
    assertSame(LatencyStats.EMPTY, t.judgedWrites(0, 0.95, scratch));
  }

  @Test
  void writesFedFastAreKeptApartAndStamped() {
    NodeTracker t = new NodeTracker(NodeId.of("10.0.0.1:9866"), 0, 1);
    t.recordWrite(50_000_000, null, false, 10); // behind a DataNode not known fast: its NIC's queue
    t.recordWrite(1_000_000, null, true, 20);
    t.recordWrite(50_000_000, null, false, 30);
    assertEquals(3, t.writes().totalRecorded(), "judged on every sample");
    assertEquals(1, t.writesFedFast().window().totalRecorded());
    assertEquals(1_000_000, t.writesFedFast().window().stats(32, 0.95, scratch).percentileNanos());
    assertEquals(20, t.writesFedFast().lastNanos());
  }

  @Test
  void theSoleFeederOfTheLastSamplesIsKnown() {
    NodeTracker t = new NodeTracker(NodeId.of("10.0.0.1:9866"), 0, 1);
    NodeTracker a = new NodeTracker(NodeId.of("10.0.0.2:9866"), 0, 1);
    NodeTracker b = new NodeTracker(NodeId.of("10.0.0.3:9866"), 0, 1);
    assertNull(t.soleFeeder(1), "nothing recorded");
    t.recordWrite(1_000_000, null, true, 1); // fed by the client
    for (int i = 0; i < 5; i++) {
      t.recordWrite(200_000_000, a, false, 2 + i);
    }
    assertSame(a, t.soleFeeder(5));
    assertNull(t.soleFeeder(6), "the client fed one of six");
    t.recordWrite(200_000_000, b, false, 10);
    assertNull(t.soleFeeder(2), "two fed the last two");
    assertSame(b, t.soleFeeder(1));
    for (int i = 0; i < NodeTracker.RECENT; i++) {
      t.recordWrite(1_000_000, a, false, 20 + i);
    }
    assertSame(a, t.soleFeeder(NodeTracker.RECENT), "the ring wrapped");
    assertNull(t.soleFeeder(NodeTracker.RECENT + 1), "more than it keeps");
  }
}
