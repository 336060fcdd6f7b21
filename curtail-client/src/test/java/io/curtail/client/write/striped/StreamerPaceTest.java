package io.curtail.client.write.striped;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.curtail.client.track.LatencyStats;
import org.junit.jupiter.api.Test;

/** A streamer's pace as looks see it, worked by hand: sequence numbers and times in. */
class StreamerPaceTest {
  private static final long MS = 1_000_000L;
  private final long[] scratch = new long[128];

  private LatencyStats stats(StreamerPace pace, long nowMs) {
    return pace.stats(0.95, 20 * MS, nowMs * MS, scratch);
  }

  @Test
  void aSlowDataNodeShowsItsTimePerPacket() {
    StreamerPace pace = new StreamerPace(100);
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
    StreamerPace pace = new StreamerPace(100);
    pace.observe(15, -1, 0);          // 16 packets queued at once
    pace.observe(15, 7, 10 * MS);     // 8 in the next 10 ms: 1.25 ms each
    pace.observe(15, 15, 20 * MS);    // 8 more: 1.25 ms each, not 10 to 20 ms of queueing
    assertEquals(LatencyStats.of(16, 1_250_000L, 1_250_000L), stats(pace, 20));
  }

  @Test
  void aStallThatEndsInABurstOfAcknowledgementsIsShared() {
    StreamerPace pace = new StreamerPace(100);
    pace.observe(15, -1, 0);
    pace.observe(15, -1, 100 * MS);   // a 100 ms stall
    pace.observe(15, 15, 110 * MS);   // then all 16 at once: 110 / 16 = 6.875 ms each
    assertEquals(LatencyStats.of(16, 6_875_000L, 6_875_000L), stats(pace, 110));
  }

  @Test
  void packetsQueuedAndAcknowledgedBetweenLooksTookAtMostThePeriod() {
    StreamerPace pace = new StreamerPace(100);
    pace.observe(-1, -1, 0);
    pace.observe(3, 3, 10 * MS);      // 4 packets within 10 ms: 2.5 ms each, at most
    assertEquals(LatencyStats.of(4, 2_500_000L, 2_500_000L), stats(pace, 10));
  }

  @Test
  void packetsAcknowledgedByTheFirstLookAreNotCounted() {
    StreamerPace pace = new StreamerPace(100);
    pace.observe(9, 5, 0);
    pace.observe(9, 7, 30 * MS);      // 6 and 7: 15 ms each
    assertEquals(2, pace.recorded());
    assertEquals(LatencyStats.of(2, 15 * MS, 15 * MS), stats(pace, 30));
  }

  @Test
  void aLongWaitOnAPacketCountsAsOneMoreSample() {
    StreamerPace pace = new StreamerPace(100);
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
    StreamerPace pace = new StreamerPace(4);
    pace.observe(7, -1, 0);
    pace.observe(7, 3, 400 * MS);     // four at 100 ms
    pace.observe(7, 5, 420 * MS);     // two at 10 ms: the window is 100, 100, 10, 10
    assertEquals(6, pace.recorded());
    assertEquals(LatencyStats.of(4, 100 * MS, 55 * MS), stats(pace, 420));
  }

  @Test
  void aNewBlockOnTheSameDataNodeKeepsWhatItsPacketsTook() {
    StreamerPace pace = new StreamerPace(100);
    pace.observe(9, -1, 0);
    pace.observe(9, 9, 500 * MS);     // 10 packets in 500 ms: 50 ms each
    pace.follow();                    // the next group's block, its sequence numbers from 0
    pace.observe(15, -1, 600 * MS);   // nothing acknowledged yet: the last block's 50 ms stand
    assertEquals(16, pace.outstanding());
    assertEquals(LatencyStats.of(10, 50 * MS, 50 * MS), stats(pace, 600));
    pace.observe(15, 0, 650 * MS);    // and the new block's first packet adds to them
    assertEquals(11, pace.recorded());
  }
}
