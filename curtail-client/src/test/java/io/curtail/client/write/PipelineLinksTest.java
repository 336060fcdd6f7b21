package io.curtail.client.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.policy.Slowness;
import io.curtail.client.policy.WriteAttribution;
import io.curtail.client.track.LatencyRegistry;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.track.LatencyWindow;
import io.curtail.client.track.NodeId;
import io.curtail.client.track.NodeTracker;
import io.curtail.client.track.SlowLinks;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One pipeline A -> B -> C's links judged from the times its acks carry, on medians: which link
 * is slow, and whose its time is. Times in microseconds, made nanoseconds.
 */
class PipelineLinksTest {
  private static final long US = 1_000;
  private static final double P95 = 0.95;
  private static final NodeId A = NodeId.of("a:1");
  private static final NodeId B = NodeId.of("b:1");
  private static final NodeId C = NodeId.of("c:1");
  private static final long NONE = WriteAttribution.NO_EVIDENCE;
  /** Stages the attribution did not tell apart: nothing learnt of feeds. */
  private static final long[] NO_STAGES = {NONE, NONE, NONE};

  private final SlowLinks jvm = new SlowLinks(60_000_000_000L, 16);
  /** The JVM's trackers, where links are pooled per end across pipelines. */
  private final LatencyRegistry trackers =
      new LatencyRegistry(() -> 0L, 16, Long.MAX_VALUE, Long.MAX_VALUE);
  private final PipelineLinks links = pipeline(A, B, C);
  private final WriteAttribution attribution = new WriteAttribution(3);
  private final List<LatencyStats> leave = new ArrayList<>();
  private int packets;

  /**
   * Feeds {@code acks} acks: A and C serve in 300 us; B in {@code bUs}, with a stall of 40 ms on
   * every tenth ack (a loaded machine's tail); A -> B blocks {@code abUs}, B -> C {@code bcUs}.
   * Returns how many of them judged.
   */
  private int acks(int acks, long bUs, long abUs, long bcUs) {
    return acks(acks, bUs, abUs, bcUs, 300);
  }

  /** As above, with C serving in {@code cUs}. */
  private int acks(int acks, long bUs, long abUs, long bcUs, long cUs) {
    int judged = 0;
    for (int k = 0; k < acks; k++) {
      long stall = k % 10 == 9 ? 40_000 * US : 0;
      links.record(new long[] {abUs * US, bcUs * US, NONE},
          new long[] {300 * US + stall, bUs * US, cUs * US}, NO_STAGES, k);
      judged += links.judge(k, attribution) ? 1 : 0;
    }
    return judged;
  }

  @Test
  void aLoneSlowLinkIsLeftAtItsSenderOnceJudgedAndNeitherEndIsBlamed() {
    assertEquals(19, acks(19, 300, 30, 20_000), "judged on every ack while there are too few");
    assertEquals(-1, links.linkToLeave(leave), "19 samples: not judged yet");
    assertEquals("SlowLinks[]", jvm.toString());
    assertEquals(1, acks(1, 300, 30, 20_000), "the 20th");
    assertEquals(1, links.linkToLeave(leave), "B, the sender of B -> C, leaves it");
    assertEquals(20_000 * US, leave.get(1).percentileNanos(), "weighed by the link's median");
    assertEquals(300 * US, leave.get(0).percentileNanos(), "A's median, its stalls aside");
    assertEquals("SlowLinks[b:1->c:1]", jvm.toString());
  }

  @Test
  void aLinkTheJvmKnowsSlowIsLeftByTheNextPipelineOnFourSamples() {
    acks(20, 300, 30, 20_000); // this pipeline judges B -> C slow on the rule's 20 samples
    PipelineLinks next = pipeline(A, B, C);
    feed(next, PipelineLinks.KNOWN_LINK_SAMPLES - 1, 20_000);
    assertEquals(-1, next.linkToLeave(leave), "3 samples: too few even to confirm");
    feed(next, 1, 20_000);
    assertEquals(1, next.linkToLeave(leave), "the fourth confirms what the JVM knew");
    assertTrue(next.onKnowledge(1), "weighed on few samples");
    assertEquals(PipelineLinks.KNOWN_LINK_SAMPLES, leave.get(1).samples());
  }

  @Test
  void fourSamplesNeitherJudgeAnUnknownLinkNorClearAKnownOne() {
    feed(links, PipelineLinks.KNOWN_LINK_SAMPLES, 20_000);
    assertEquals(-1, links.linkToLeave(leave), "nothing known: the rule's 20 samples needed");
    acks(16, 300, 30, 20_000); // judged slow on 20
    PipelineLinks next = pipeline(A, B, C);
    feed(next, PipelineLinks.KNOWN_LINK_SAMPLES, 40);
    assertEquals(-1, next.linkToLeave(leave), "a fast link on four samples is not left");
    assertEquals("SlowLinks[b:1->c:1]", jvm.toString(), "nor forgotten on so few");
  }

  @Test
  void aNicSlowSendingIsFoundByThePipelinesThroughItTogether() {
    // B's NIC sends slowly. Two pipelines through it, to C and to E, each with 12 samples of its
    // link out of B: too few for the rule's 20 alone, 24 of B's sending together.
    PipelineLinks other = pipeline(NodeId.of("d:1"), B, NodeId.of("e:1"));
    for (int k = 0; k < 6; k++) {
      feed(links, 2, 20_000);
      feed(other, 2, 20_000);
    }
    assertTrue(jvm.toString().contains("b:1->c:1") && jvm.toString().contains("b:1->e:1"),
        jvm.toString());
    assertEquals(SlowLinks.Whose.SENDER, jvm.whose(B, C, false, 0), "B, the common end");
  }

  @Test
  void oneSlowLinkOutOfADataNodeDoesNotMakeItsOtherLinksSlow() {
    acks(24, 300, 30, 20_000); // B -> C judged slow: most of B's sending is slow
    PipelineLinks other = pipeline(NodeId.of("d:1"), B, NodeId.of("e:1"));
    feed(other, 8, 40);
    assertEquals(-1, other.linkToLeave(leave), "B -> E is fast");
    assertEquals("SlowLinks[b:1->c:1]", jvm.toString());
  }

  /** A pipeline through {@code nodes}, judged 3x and 5 ms slower on 20 samples (the defaults). */
  private PipelineLinks pipeline(NodeId... nodes) {
    NodeTracker[] t = new NodeTracker[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      t[i] = trackers.tracker(nodes[i]);
    }
    return new PipelineLinks(t, new Slowness(3, 5_000 * US, 20), jvm, 100);
  }

  /** Feeds {@code to} {@code acks} acks of healthy DataNodes with B -> C taking {@code bcUs}. */
  private static void feed(PipelineLinks to, int acks, long bcUs) {
    WriteAttribution attribution = new WriteAttribution(3);
    for (int k = 0; k < acks; k++) {
      to.record(new long[] {30 * US, bcUs * US, NONE}, new long[] {300 * US, 300 * US, 300 * US},
          NO_STAGES, k);
      to.judge(k, attribution);
    }
  }

  @Test
  void onceThereAreEnoughSamplesOnlyEveryEighthAckIsJudged() {
    assertEquals(20 + 2, acks(20 + 16, 300, 30, 40));
  }

  @Test
  void scheduleStallsInEveryoneAreNoSlowLink() {
    // A's tail (every tenth ack stalled 40 ms) is what buried a 20 ms link when judged by p95.
    acks(96, 300, 30, 600);
    assertEquals(-1, links.linkToLeave(leave));
    assertEquals("SlowLinks[]", jvm.toString());
  }

  @Test
  void aLinkIsJudgedAgainstTheTypicalDataNodeNotTheFastest() {
    // Encrypted transfer on a loaded machine: links carry a cipher at each end; C, last, only
    // deciphers. B -> C is 4.5 times C's own median, 1.5 times the typical (A's).
    for (int k = 0; k < 40; k++) {
      links.record(new long[] {40_000 * US, 45_000 * US, NONE},
          new long[] {30_000 * US, 35_000 * US, 10_000 * US}, NO_STAGES, k);
      links.judge(k, attribution);
    }
    assertEquals(-1, links.linkToLeave(leave));
    assertEquals("SlowLinks[]", jvm.toString());
  }

  @Test
  void onFewSamplesTheTypicalOfTwoIsTheirMeanNotTheFaster() {
    // 3DES on loaded cores: every link out of B is slow next to own service, in the JVM's other
    // pipelines too; this one's first packets, B and C with a few samples each, A none yet.
    for (int k = 0; k < 20; k++) {
      trackers.tracker(B).sends().record(32_000 * US);
    }
    for (int k = 0; k < 6; k++) {
      links.record(new long[] {NONE, 32_000 * US, NONE},
          new long[] {NONE, 22_000 * US, 2_000 * US}, NO_STAGES, k);
      links.judge(k, attribution);
    }
    assertEquals(-1, links.linkToLeave(leave), "32 ms against 12, not against 2");
    assertEquals("SlowLinks[]", jvm.toString());
  }

  @Test
  void theBackPressureOfASlowLinkIsNotASecondSlowLink() {
    // B, blocked forwarding to C, reads nothing meanwhile: A -> B blocks about as long.
    acks(24, 300, 19_000, 20_000);
    assertEquals("SlowLinks[b:1->c:1]", jvm.toString(), "A -> B not voted slow");
    assertEquals(1, links.linkToLeave(leave));
  }

  @Test
  void aReceiverSlowItselfGetsTheLinksTimeAndNoLinkIsLeft() {
    // B's disk takes 10 ms a packet: A's forwards into it block too.
    acks(24, 10_000, 9_000, 30);
    assertEquals("SlowLinks[a:1->b:1]", jvm.toString());
    assertEquals(-1, links.linkToLeave(leave), "B is slow itself: fail-fast judges it");
    long[] samples = new long[3];
    attribution.attribute(0, 30_000 * US, new long[] {29_000 * US, 10_000 * US, NONE},
        new long[] {9_000 * US, 30 * US, NONE}, samples, new long[3]);
    assertTrue(samples[1] >= 9_000 * US, "A -> B's time went to B: " + samples[1]);
  }

  @Test
  void whenTheVoteChangesTheLinksTimeStopsGoingWhereItWent() {
    // C's disk is slow (10 ms a packet), so B's forwards into it block: C's, by the vote.
    acks(24, 300, 30, 9_000, 10_000);
    assertEquals(9_000 * US + 10_000 * US, lastSamples(9_000, 10_000)[2], "C: its own and the link's");
    // C's disk heals, the link stays slow: the link's own now, in neither B's window nor C's.
    acks(80, 300, 30, 9_000, 300);
    long[] samples = lastSamples(9_000, 300);
    assertEquals(300 * US, samples[2], "C: its own service only");
    assertTrue(samples[1] < 9_000 * US, "B: not the link's time either: " + samples[1]);
    assertEquals(1, links.linkToLeave(leave));
  }

  /**
   * Each DataNode's sample of one more packet through the attribution, given the vote so far: B
   * blocked {@code bcUs} forwarding to C, which then took {@code cUs}; A and B 300 us each.
   */
  private long[] lastSamples(long bcUs, long cUs) {
    long[] samples = new long[3];
    long t = 1_000_000_000L + 1_000_000_000L * ++packets; // well after the last packet left
    long ack = t + (300 + 300 + bcUs + cUs) * US;
    attribution.attribute(t, ack, new long[] {(300 + bcUs + cUs) * US, (bcUs + cUs) * US, NONE},
        new long[] {0, bcUs * US, NONE}, samples, new long[3]);
    return samples;
  }

  @Test
  void aLinkFoundFastAgainStopsBeingLeftAndIsForgotten() {
    acks(24, 300, 30, 20_000);
    assertEquals(1, links.linkToLeave(leave));
    acks(80, 300, 30, 40); // healed: its median is fast again within the window
    assertEquals(-1, links.linkToLeave(leave));
    assertEquals("SlowLinks[]", jvm.toString());
    assertEquals(SlowLinks.Whose.LINK, jvm.whose(B, C, false, 0), "no vote left for either end");
  }

  private long written;

  /**
   * Writes {@code packets} packets through A -> B -> C, each attributed as the ack reader does,
   * with A's NIC slow sending (µs): A departs packet k at 1 000(k + 1), its write returning 100
   * later, but its egress queue lets one packet out every 10 000; B forwards it at 10 000(k + 1)
   * + 500 (blocked 100), C acks 500 later. Stages: A 900, B 9 900 (the queue's wait), C 400.
   * Returns the last packet's samples, in µs.
   */
  private long[] egressSlowAtA(int packets) { // continues from the packets written before
    long[] samples = new long[3];
    long[] linkTimes = new long[3];
    long[] own = new long[3];
    long[] stages = new long[3];
    for (int n = 0; n < packets; n++) {
      long k = written++;
      long departA = 1_000 * (k + 1);
      long departB = 10_000 * (k + 1) + 500;
      long ack = departB + 500;
      attribution.attribute(1_000 * k * US, ack * US,
          new long[] {(ack - departA) * US, (ack - departB) * US, WriteAttribution.UNKNOWN},
          new long[] {100 * US, 100 * US, WriteAttribution.UNKNOWN}, samples, linkTimes);
      for (int i = 0; i < 3; i++) {
        own[i] = attribution.ownService(i);
        stages[i] = attribution.stage(i);
      }
      links.record(linkTimes, own, stages, k);
      links.judge(k, attribution);
    }
    for (int i = 0; i < 3; i++) {
      samples[i] = samples[i] == NONE ? NONE : samples[i] / US;
    }
    return samples;
  }

  /** What the JVM's other pipelines taught it: each DataNode's service where first, A's feeds. */
  private void learnt(long aFeedsUs, long bFirstUs) {
    for (int k = 0; k < PipelineLinks.RECENT_STAGES; k++) {
      trackers.tracker(A).firsts().record(900 * US, 0);
      trackers.tracker(B).firsts().record(bFirstUs * US, 0);
      trackers.tracker(C).firsts().record(400 * US, 0);
      trackers.tracker(A).fed().record(aFeedsUs * US);
    }
  }

  @Test
  void aNicSlowSendingIsLeftAtItsSenderNotBlamedOnWhomItFeeds() {
    // B and C fast where first; what A fed elsewhere (D, E) came 9 900 late.
    learnt(9_900, 900);
    assertArrayEquals(new long[] {900, NONE, NONE}, egressSlowAtA(2),
        "from the second packet, the first judged: B's stage is the link's");
    egressSlowAtA(18);
    assertEquals(0, links.linkToLeave(leave), "A, the sender of the slow link A -> B, leaves it");
    assertEquals(10_000 * US, leave.get(0).percentileNanos(), "its forward and B's wait");
  }

  @Test
  void aDataNodeSlowWhereFirstKeepsItsStageWhoeverFeedsIt() {
    learnt(9_900, 9_900); // B is as slow where first: its own disk, not A's NIC
    assertArrayEquals(new long[] {900, 9_900, NONE}, egressSlowAtA(20), "C is fast where first");
    assertEquals(-1, links.linkToLeave(leave), "A -> B is fast: nothing to leave");
  }

  @Test
  void aFeederFastToFeedOthersIsSuspectedOnlyOnceItsFeedsAreSlowWhoeverItFeeds() {
    learnt(900, 900); // A's feeds elsewhere were fast
    assertArrayEquals(new long[] {900, NONE, NONE}, egressSlowAtA(2),
        "B fast where first: its stage here is not evidence about it");
    egressSlowAtA(17);
    assertEquals(-1, links.linkToLeave(leave), "A not yet known slow to feed: no slow link");
    // A's recent feeds are this pipeline's now, all of them late: B's stages are the link's.
    egressSlowAtA(60);
    assertEquals(0, links.linkToLeave(leave), "A leaves the link");
  }

  /** B's writes: fed fast (by the client, or a DataNode known fast) as given, the rest slow. */
  private void bWrites(long fedFastUs, long now) {
    for (int k = 0; k < PipelineLinks.RECENT_STAGES; k++) {
      trackers.tracker(B).recordWrite(fedFastUs * US, null, true, now);
      trackers.tracker(B).recordWrite(20_000 * US, null, false, now);
    }
  }

  @Test
  void aDataNodeIsSlowOnlyBehindOthersOnFreshWritesFedFast() {
    long[] scratch = new long[LatencyWindow.CAPACITY];
    long window = 20_000 * US;
    long stale = PipelineLinks.FIRST_FRESH_NANOS + 1;
    assertFalse(links.slowOnlyBehindOthers(1, P95, window, 500 * US, 0, scratch),
        "nothing known fed fast");
    bWrites(900, 0);
    assertTrue(links.slowOnlyBehindOthers(1, P95, window, 500 * US, 0, scratch),
        "B fast where fed fast, its window slow");
    assertFalse(links.slowOnlyBehindOthers(1, P95, 2_000 * US, 500 * US, 0, scratch),
        "its window as it is where fed fast: its own");
    assertFalse(links.slowOnlyBehindOthers(1, P95, window, 500 * US, stale, scratch),
        "what it did long ago says nothing");
    bWrites(9_900, 0);
    assertFalse(links.slowOnlyBehindOthers(1, P95, window, 500 * US, 0, scratch),
        "B slow where fed fast too");
  }

  @Test
  void aDataNodeWhoseLinkOutIsKnownSlowIsNotExcused() {
    long[] scratch = new long[LatencyWindow.CAPACITY];
    bWrites(900, 0);
    jvm.slow(B, C, 0);
    assertFalse(links.slowOnlyBehindOthers(1, P95, 20_000 * US, 500 * US, 0, scratch),
        "its window holds its slow sending, which being fed fast does not show");
  }

  @Test
  void aSlowLinkIsWeighedAgainstServiceWhereFirstWhenThePipelineHasNoneOfItsOwn() {
    learnt(900, 900); // B and C fast where first: their stages here are nobody's
    for (int k = 0; k < 20; k++) {
      links.record(new long[] {20_000 * US, 30 * US, NONE}, new long[] {300 * US, NONE, NONE},
          NO_STAGES, k);
      links.judge(k, attribution);
    }
    assertEquals(0, links.linkToLeave(leave), "A, the sender of A -> B, leaves it");
    assertEquals(20_000 * US, leave.get(0).percentileNanos(), "the link's median");
    assertEquals(900 * US, leave.get(1).percentileNanos(), "B where first: none of its own here");
    assertEquals(400 * US, leave.get(2).percentileNanos(), "C likewise");
  }
}
