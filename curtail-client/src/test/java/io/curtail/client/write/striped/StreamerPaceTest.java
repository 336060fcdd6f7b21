package io.curtail.client.write.striped;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.curtail.client.track.LatencyStats;
import org.junit.jupiter.api.Test;

/** A streamer's pace as looks see it, worked by hand: sequence numbers and times in. */
class StreamerPaceTest {
  private static final long MS = 1_000_000L;
  private final long[] scratch = new long[128];

  private LatencyStats stats(StreamerPace pace, long nowMs) {
    return pace.stats(100, 0.95, 20 * MS, nowMs * MS, scratch);
  }

  /** A streamer on a DataNode nothing is known of yet. */
  private static StreamerPace fresh() {
    return new StreamerPace(new DataNodePaces.Pace(0));
  }

  @Test
  void aSlowDataNodeShowsItsTimePerPacket() {
    StreamerPace pace = fresh();
    pace.observe(15, -1, 0);          // a cell's 16 packets queued at once
    pace.observe(15, -1, 40 * MS);    // none acknowledged yet
    pace.observe(15, 0, 60 * MS);     // the first: 60 ms since packets were seen waiting
    pace.observe(15, 0, 100 * MS);
    pace.observe(15, 1, 120 * MS);    // the next: 60 ms since the last acknowledgement
    assertEquals(2, pace.recorded());
    assertEquals(14, pace.outstanding());
    assertEquals(LatencyStats.of(2, 60 * MS, 60 * MS), stats(pace, 120));
  }

  @Test
  void aBurstOfPacketsDoesNotMakeAHealthyDataNodeLookSlow() {
    StreamerPace pace = fresh();
    pace.observe(15, -1, 0);          // 16 packets queued at once
    pace.observe(15, 7, 10 * MS);     // 8 in the next 10 ms: 1.25 ms each
    pace.observe(15, 15, 20 * MS);    // 8 more: 1.25 ms each, not 10 to 20 ms of queueing
    assertEquals(LatencyStats.of(16, 1_250_000L, 1_250_000L), stats(pace, 20));
  }

  @Test
  void aStallThatEndsInABurstOfAcknowledgementsIsShared() {
    StreamerPace pace = fresh();
    pace.observe(15, -1, 0);
    pace.observe(15, -1, 100 * MS);   // a 100 ms stall
    pace.observe(15, 15, 110 * MS);   // then all 16 at once: 110 / 16 = 6.875 ms each
    assertEquals(LatencyStats.of(16, 6_875_000L, 6_875_000L), stats(pace, 110));
  }

  @Test
  void packetsQueuedAndAcknowledgedBetweenLooksTookAtMostThePeriod() {
    StreamerPace pace = fresh();
    pace.observe(-1, -1, 0);
    pace.observe(3, 3, 10 * MS);      // 4 packets within 10 ms: 2.5 ms each, at most
    assertEquals(LatencyStats.of(4, 2_500_000L, 2_500_000L), stats(pace, 10));
  }

  @Test
  void packetsAcknowledgedByTheFirstLookAreNotCounted() {
    StreamerPace pace = fresh();
    pace.observe(9, 5, 0);
    pace.observe(9, 7, 30 * MS);      // 6 and 7: 15 ms each
    assertEquals(2, pace.recorded());
    assertEquals(LatencyStats.of(2, 15 * MS, 15 * MS), stats(pace, 30));
  }

  @Test
  void aLongWaitOnAPacketCountsAsOneMoreSample() {
    StreamerPace pace = fresh();
    pace.observe(3, -1, 0);
    pace.observe(3, 0, 10 * MS);      // 10 ms
    // At 25 ms it has waited 15 ms on the next: under the 20 ms floor, not counted.
    assertEquals(LatencyStats.of(1, 10 * MS, 10 * MS), stats(pace, 25));
    // At 110 ms, 100 ms: counted. p95 of two is the larger; mean 55 ms.
    assertEquals(LatencyStats.of(2, 100 * MS, 55 * MS), stats(pace, 110));
    // Nothing waiting, nothing counted however long ago the last acknowledgement was.
    pace.observe(3, 3, 120 * MS);     // 3 in 110 ms: 36.67 ms each
    LatencyStats s = stats(pace, 500);
    assertEquals(4, s.samples());
  }

  @Test
  void onlyTheWindowOfLatestPacketsCounts() {
    StreamerPace pace = fresh();
    pace.observe(7, -1, 0);
    pace.observe(7, 3, 400 * MS);     // four at 100 ms
    pace.observe(7, 5, 420 * MS);     // two at 10 ms: the last four are 100, 100, 10, 10
    assertEquals(6, pace.recorded());
    assertEquals(LatencyStats.of(4, 100 * MS, 55 * MS),
        pace.stats(4, 0.95, 20 * MS, 420 * MS, scratch));
  }

  @Test
  void theNextStreamerOnTheSameDataNodeKnowsWhatItsPacketsTook() {
    DataNodePaces known = new DataNodePaces(60_000 * MS);
    StreamerPace first = new StreamerPace(known.of("dn0:9866", 0));
    first.observe(9, -1, 0);
    first.observe(9, 9, 500 * MS);    // 10 packets in 500 ms: 50 ms each
    // The next group's block on the same DataNode, its sequence numbers from 0.
    StreamerPace next = new StreamerPace(known.of("dn0:9866", 600 * MS));
    next.observe(15, -1, 600 * MS);   // nothing acknowledged yet: the last block's 50 ms stand
    assertEquals(16, next.outstanding());
    assertEquals(LatencyStats.of(10, 50 * MS, 50 * MS), stats(next, 600));
    // Another DataNode knows nothing of it.
    assertSame(LatencyStats.EMPTY, stats(new StreamerPace(known.of("dn1:9866", 600 * MS)), 600));
  }

  @Test
  void aDataNodeWithoutASampleForTheMemoryIsForgotten() {
    DataNodePaces known = new DataNodePaces(1000 * MS);
    StreamerPace first = new StreamerPace(known.of("dn0:9866", 0));
    first.observe(9, -1, 0);
    first.observe(9, 9, 500 * MS);    // last sample at 500 ms
    assertEquals(10, stats(new StreamerPace(known.of("dn0:9866", 1500 * MS)), 1500).samples());
    assertSame(LatencyStats.EMPTY, stats(new StreamerPace(known.of("dn0:9866", 1501 * MS)), 1501));
    known.forgetStale(5000 * MS);
    assertEquals(0, known.size());
  }
}
