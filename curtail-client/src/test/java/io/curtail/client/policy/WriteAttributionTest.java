package io.curtail.client.policy;

import static io.curtail.client.policy.WriteAttribution.NO_EVIDENCE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Service times from the downstream times on acks, on packet timelines worked out by hand (times
 * in ms). A writer sends packets back to back at t=0; a stage that takes S per packet releases
 * them S apart.
 */
class WriteAttributionTest {
  private static final long MS = 1_000_000L;
  private static final long U = -1;

  /**
   * Attributes the ack of a packet sent at {@code sentMs} and acked at {@code ackMs}, carrying
   * the downstream times of all but the last DataNode ({@code U} where unknown), in ms.
   */
  private static long[] ack(WriteAttribution a, long sentMs, long ackMs, long... downstreamMs) {
    int nodes = downstreamMs.length + 1;
    long[] downstream = new long[nodes];
    for (int i = 0; i < nodes - 1; i++) {
      downstream[i] = downstreamMs[i] == U ? WriteAttribution.UNKNOWN : downstreamMs[i] * MS;
    }
    long[] samples = new long[nodes];
    a.attribute(sentMs * MS, ackMs * MS, downstream, samples);
    for (int i = 0; i < nodes; i++) {
      samples[i] = samples[i] == NO_EVIDENCE ? NO_EVIDENCE : samples[i] / MS;
    }
    return samples;
  }

  @Test
  void slowHeadIsBlamedNotItsQueue() {
    // Head takes 10 per packet, the rest 1: packet k departs the head at 10(k+1), acks 1 later.
    WriteAttribution a = new WriteAttribution(3);
    assertArrayEquals(new long[] {10, 1, 1}, ack(a, 0, 11, 1, U));
    assertArrayEquals(new long[] {10, 1, 1}, ack(a, 0, 21, 1, U)); // round trip 21, service 10
    assertArrayEquals(new long[] {10, 1, 1}, ack(a, 0, 31, 1, U));
  }

  @Test
  void slowDownstreamIsNobodysFaultInParticularWithThreeNodes() {
    // The head takes 1 per packet; the rest releases one every 10.
    WriteAttribution a = new WriteAttribution(3);
    assertArrayEquals(new long[] {1, NO_EVIDENCE, NO_EVIDENCE}, ack(a, 0, 11, 10, U));
    assertArrayEquals(new long[] {1, NO_EVIDENCE, NO_EVIDENCE}, ack(a, 0, 21, 19, U));
  }

  @Test
  void slowDownstreamIsBlamedWhenTheOtherIsKnownFast() {
    WriteAttribution a = new WriteAttribution(3);
    a.knownFast(1, true);
    assertArrayEquals(new long[] {1, NO_EVIDENCE, 10}, ack(a, 0, 11, 10, U));
    a.knownFast(1, false);
    a.knownFast(2, true);
    assertArrayEquals(new long[] {1, 10, NO_EVIDENCE}, ack(a, 0, 21, 19, U));
    a.knownFast(1, true);
    assertArrayEquals(new long[] {1, NO_EVIDENCE, NO_EVIDENCE}, ack(a, 0, 31, 28, U));
  }

  @Test
  void slowSecondOfTwoIsBlamed() {
    WriteAttribution a = new WriteAttribution(2); // as above, the second node is the rest
    assertArrayEquals(new long[] {1, 10}, ack(a, 0, 11, 10));
    assertArrayEquals(new long[] {1, 10}, ack(a, 0, 21, 19));
  }

  @Test
  void equallySlowNodesLookEquallySlow() {
    // Every stage takes 10: the head releases at 10(k+1); downstream acks 10 later.
    WriteAttribution a = new WriteAttribution(3);
    assertArrayEquals(new long[] {10, 10, 10}, ack(a, 0, 20, 10, U));
    assertArrayEquals(new long[] {10, 10, 10}, ack(a, 0, 30, 10, U));
  }

  @Test
  void reportedDownstreamTimesTellEveryPositionApart() {
    // Stages take 1, 10, 1: packet k leaves the head at k, the middle at 1 + 10k, acks 1 later.
    WriteAttribution a = new WriteAttribution(3);
    long[] downstream = {11 * MS, 1 * MS, 0};
    long[] samples = new long[3];
    assertTrue(a.attribute(0, 12 * MS, downstream, samples));
    assertArrayEquals(new long[] {1 * MS, 10 * MS, 1 * MS}, samples);
    assertArrayEquals(new long[] {1, 10, 1}, ack(a, 0, 22, 20, 1));
    assertArrayEquals(new long[] {1, 10, 1}, ack(a, 0, 32, 29, 1));
  }

  @Test
  void aDataNodeWithoutReportsSharesAStageWithTheNext() {
    // Four DataNodes, stages 1, 1, 10, 1; the second (position 1) has no plugin, so positions
    // 1 and 2 form one stage. Packet k leaves position 0 at k, position 2 at 2 + 10k.
    WriteAttribution a = new WriteAttribution(4);
    assertArrayEquals(new long[] {1, NO_EVIDENCE, NO_EVIDENCE, 1}, ack(a, 0, 13, 12, U, 1));
    a.knownFast(1, true);
    assertArrayEquals(new long[] {1, NO_EVIDENCE, 10, 1}, ack(a, 0, 23, 21, U, 1));
    long[] samples = new long[4];
    assertFalse(a.attribute(0, 33 * MS, new long[] {30 * MS, -1, MS, 0}, samples),
        "not every position was told apart");
  }

  @Test
  void aStageWhosePreviousDepartureIsUnknownIsUnderestimatedNotBlamed() {
    // Stages 1, 10, 1 as above; the first ack lacks the middle's report (warming up).
    WriteAttribution a = new WriteAttribution(3);
    assertArrayEquals(new long[] {1, NO_EVIDENCE, NO_EVIDENCE}, ack(a, 0, 12, 11, U));
    long[] second = ack(a, 0, 22, 20, 1);
    assertEquals(1, second[0]);
    assertTrue(second[1] <= 10, "at most its true service time");
  }

  @Test
  void idlePipelineServiceIsTheLatency() {
    WriteAttribution a = new WriteAttribution(1);
    assertArrayEquals(new long[] {3}, ack(a, 100, 103));
    assertArrayEquals(new long[] {2}, ack(a, 200, 202));
  }

  @Test
  void impossibleDownstreamTimesAreEvidenceAboutNobody() {
    WriteAttribution a = new WriteAttribution(3);
    long[] nobody = {NO_EVIDENCE, NO_EVIDENCE, NO_EVIDENCE};
    assertArrayEquals(nobody, ack(a, 0, 5, 6, U), "longer than the round trip");
    assertArrayEquals(nobody, ack(a, 0, 5, 2, 3), "longer than its upstream's");
    long[] samples = new long[3];
    assertFalse(a.attribute(0, 5 * MS, new long[] {-2 * MS, U, 0}, samples));
    assertArrayEquals(nobody, samples, "negative");
    // ...and do not disturb what follows.
    assertArrayEquals(new long[] {4, 0, 1}, ack(a, 0, 5, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new WriteAttribution(0));
    assertThrows(IllegalArgumentException.class,
        () -> a.attribute(0, 1, new long[2], new long[3]));
  }
  private static final long US = 1_000L;

  /**
   * Attributes an ack with version 2 reports, times in µs: {@code down} and {@code blocked} of all
   * but the last DataNode ({@code U} where unknown); returns the samples, then the links, in µs.
   */
  private static long[][] ackV2(WriteAttribution a, long sentUs, long ackUs, long[] down,
      long[] blocked) {
    int nodes = down.length + 1;
    long[] d = new long[nodes];
    long[] b = new long[nodes];
    for (int i = 0; i < nodes - 1; i++) {
      d[i] = down[i] == U ? WriteAttribution.UNKNOWN : down[i] * US;
      b[i] = blocked[i] == U ? WriteAttribution.UNKNOWN : blocked[i] * US;
    }
    long[] samples = new long[nodes];
    long[] links = new long[nodes];
    a.attribute(sentUs * US, ackUs * US, d, b, samples, links);
    for (int i = 0; i < nodes; i++) {
      samples[i] = samples[i] == NO_EVIDENCE ? NO_EVIDENCE : samples[i] / US;
      links[i] = links[i] == NO_EVIDENCE ? NO_EVIDENCE : links[i] / US;
    }
    return new long[][] {samples, links};
  }

  /*
   * The timeline of the next tests (µs): client -> DN0 -> DN1 -> DN2, DN2 slow to read (or the
   * link DN1 -> DN2 slow): DN1's write of each packet to DN2 blocks 10 000.
   *   packet 1, sent 0:   DN0 forwards at 1 000 (blocked 100), DN1 at 2 000 (blocked 10 000,
   *                       returns 12 000), ack at 14 000: downstream 13 000 and 12 000.
   *   packet 2, sent 500: DN0 forwards at 1 600 (blocked 100); DN1 only reads it once its first
   *                       forward returned (12 000), forwards at 12 900 (blocked 10 000, returns
   *                       22 900), ack at 24 900: downstream 23 300 and 12 000.
   */
  private static final long[] DOWN_1 = {13_000, 12_000};
  private static final long[] DOWN_2 = {23_300, 12_000};
  private static final long[] BLOCKED = {100, 10_000};

  @Test
  void theUpstreamNeighbourOfASlowReaderIsNotBlamedForItsBlockedForward() {
    WriteAttribution a = new WriteAttribution(3);
    a.blameLink(0, WriteAttribution.LinkEnd.RECEIVER);
    a.blameLink(1, WriteAttribution.LinkEnd.RECEIVER);
    long[][] first = ackV2(a, 0, 14_000, DOWN_1, BLOCKED);
    // DN0: 1 000; DN1: 2 000 - 1 100 = 900, + the link into it, 100; DN2: 14 000 - 12 000, + 10 000.
    assertArrayEquals(new long[] {1_000, 1_000, 12_000}, first[0]);
    assertArrayEquals(new long[] {100, 10_000, NO_EVIDENCE}, first[1]);
    long[][] second = ackV2(a, 500, 24_900, DOWN_2, BLOCKED);
    // DN1: 12 900 - max(1 700, its last forward's return 12 000) = 900, + 100.
    assertArrayEquals(new long[] {500, 1_000, 12_000}, second[0]);
  }

  @Test
  void withoutBlockedTimesTheUpstreamNeighbourLooksAsSlowAsTheCulprit() {
    // The same timeline read as version 1 reports say it: the old reading, kept for them.
    WriteAttribution a = new WriteAttribution(3);
    ackV2(a, 0, 14_000, DOWN_1, new long[] {U, U});
    long[][] second = ackV2(a, 500, 24_900, DOWN_2, new long[] {U, U});
    // DN0: 1 600 - 1 000; DN1: 12 900 - max(1 600, 2 000); DN2: 24 900 - max(12 900, 14 000).
    assertArrayEquals(new long[] {600, 10_900, 10_900}, second[0]);
    assertArrayEquals(new long[] {NO_EVIDENCE, NO_EVIDENCE, NO_EVIDENCE}, second[1]);
  }

  @Test
  void aLinkBlamedOnItsSenderGoesToTheSender() {
    // The vote found DN1 the common end (its NIC slow outbound): the link's 10 000 is DN1's.
    WriteAttribution a = new WriteAttribution(3);
    a.blameLink(0, WriteAttribution.LinkEnd.RECEIVER);
    a.blameLink(1, WriteAttribution.LinkEnd.SENDER);
    ackV2(a, 0, 14_000, DOWN_1, BLOCKED);
    long[][] second = ackV2(a, 500, 24_900, DOWN_2, BLOCKED);
    assertArrayEquals(new long[] {500, 11_000, 2_000}, second[0]);
    assertEquals(900 * US, a.ownService(1), "its own service, before the links");
  }

  @Test
  void aVersionOneDataNodeInTheMiddleIsReadAsBefore() {
    // DN1 runs the previous plugin: no blocked time from it, so its stage is measured from its
    // forward's start as before, while DN0's link is still told apart.
    WriteAttribution a = new WriteAttribution(3);
    a.blameLink(0, WriteAttribution.LinkEnd.RECEIVER);
    ackV2(a, 0, 14_000, DOWN_1, new long[] {100, U});
    long[][] second = ackV2(a, 500, 24_900, DOWN_2, new long[] {100, U});
    // DN0: 1 600 - max(500, 1 100); DN1: 12 900 - max(1 700, 2 000) + 100; DN2: 24 900 - 14 000.
    assertArrayEquals(new long[] {500, 11_000, 10_900}, second[0]);
    assertArrayEquals(new long[] {100, NO_EVIDENCE, NO_EVIDENCE}, second[1]);
  }

  @Test
  void aForwardWhoseBlockedTimeIsMissingLeavesTheNextDataNodeWithoutEvidence() {
    // DN1 tells its link apart on packet 1, not on packet 2 (its ack read before its forward's
    // end was noted): DN2's stage then holds the link's 10 000, and is nobody's.
    WriteAttribution a = new WriteAttribution(3);
    ackV2(a, 0, 14_000, DOWN_1, BLOCKED);
    long[][] second = ackV2(a, 500, 24_900, DOWN_2, new long[] {100, U});
    // DN2: 24 900 - max(12 900, 14 000) = 10 900, larger than DN0's 500 and DN1's 900.
    assertArrayEquals(new long[] {500, 900, NO_EVIDENCE}, second[0]);
    assertEquals(NO_EVIDENCE, a.ownService(2));
    // Packet 3, sent 1 000, DN1's blocked time missing again: DN0 forwards at 1 700, DN1 at
    // 25 400, DN2 acks at 25 900. DN2's 25 900 - max(25 400, 24 900) = 500 blames nobody: kept.
    long[][] third = ackV2(a, 1_000, 25_900, new long[] {24_200, 500}, new long[] {100, U});
    // DN0: 1 700 - max(1 000, 1 700); DN1: 25 400 - max(1 800, 12 900).
    assertArrayEquals(new long[] {0, 12_500, 500}, third[0]);
  }

  @Test
  void aDataNodeKnownToTellLinksIsReadSoFromTheFirstPacket() {
    // DN1's report is version 2, but the first packet lacks its blocked time: DN2's stage holds
    // the link's 10 000 already, before DN1 ever told one apart.
    WriteAttribution a = new WriteAttribution(3);
    a.tellsLinks(1);
    long[][] first = ackV2(a, 0, 14_000, DOWN_1, new long[] {100, U});
    // DN0: 1 000; DN1: 2 000 - 1 100; DN2: 14 000 - 2 000 = 12 000, larger than both.
    assertArrayEquals(new long[] {1_000, 900, NO_EVIDENCE}, first[0]);
    WriteAttribution unknown = new WriteAttribution(3);
    assertArrayEquals(new long[] {1_000, 900, 12_000},
        ackV2(unknown, 0, 14_000, DOWN_1, new long[] {100, U})[0], "read as version 1");
  }

  @Test
  void aSharedStageHoldingAnUntoldLinkIsNobodys() {
    // Packet 2 carries DN0's times only (a last packet, say), without its blocked time: the
    // stage of DN1 and DN2 holds the link into DN1 too. DN2 is known fast, but the link may be
    // the slow one: the stage goes to nobody, not to DN1.
    WriteAttribution a = new WriteAttribution(3);
    ackV2(a, 0, 14_000, DOWN_1, BLOCKED);
    a.knownFast(2, true);
    long[][] second = ackV2(a, 500, 24_900, new long[] {23_300, U}, new long[] {U, U});
    // DN0: 1 600 - max(500, 1 100); DN1 and DN2: 24 900 - max(1 600, 14 000) = 10 900 > 500.
    assertArrayEquals(new long[] {500, NO_EVIDENCE, NO_EVIDENCE}, second[0]);
  }

  @Test
  void aLinkNotJudgedYetIsNobodys() {
    // Until the caller's vote names an end, the link's time is reported but given to nobody.
    WriteAttribution a = new WriteAttribution(3);
    ackV2(a, 0, 14_000, DOWN_1, BLOCKED);
    long[][] second = ackV2(a, 500, 24_900, DOWN_2, BLOCKED);
    assertArrayEquals(new long[] {500, 900, 2_000}, second[0]);
    assertArrayEquals(new long[] {100, 10_000, NO_EVIDENCE}, second[1]);
  }

  @Test
  void aBlockedTimeLongerThanItsSpanIsEvidenceAboutNobody() {
    WriteAttribution a = new WriteAttribution(3);
    long[][] r = ackV2(a, 0, 14_000, DOWN_1, new long[] {100, 12_001});
    assertArrayEquals(new long[] {NO_EVIDENCE, NO_EVIDENCE, NO_EVIDENCE}, r[0]);
    assertArrayEquals(new long[] {NO_EVIDENCE, NO_EVIDENCE, NO_EVIDENCE}, r[1]);
  }

  /*
   * DN0's NIC slow sending (µs): its write of each packet returns at once (blocked 100), and the
   * packet waits in its egress queue; DN1 gets packet 1 late and forwards it at 11 000 (blocked
   * 100), DN2 acks at 12 000: downstream 11 000 and 1 000. Stages: DN0 1 000; DN1 11 000 - 1 100
   * = 9 900, the queue's wait; DN2 12 000 - 11 100 = 900.
   */
  private static final long[] EGRESS_DOWN = {11_000, 1_000};
  private static final long[] EGRESS_BLOCKED = {100, 100};

  @Test
  void aLateFeedIsNotBlamedOnADataNodeFastWhereFirst() {
    WriteAttribution a = new WriteAttribution(3);
    assertArrayEquals(new long[] {1_000, 9_900, 900},
        ackV2(a, 0, 12_000, EGRESS_DOWN, EGRESS_BLOCKED)[0], "as reported: DN1 looks slow");
    WriteAttribution fed = new WriteAttribution(3);
    fed.feed(1, true, false);
    long[][] r = ackV2(fed, 0, 12_000, EGRESS_DOWN, EGRESS_BLOCKED);
    assertArrayEquals(new long[] {1_000, NO_EVIDENCE, 900}, r[0], "not evidence about B");
    assertArrayEquals(new long[] {100, 100, NO_EVIDENCE}, r[1], "no feeder known slow: no link");
    assertEquals(9_900 * US, fed.stage(1), "the stage as it was, for the feeder's pooled window");
  }

  @Test
  void aStageFedByASlowFeederIsTheLinksAndItsSendersOnceVoted() {
    WriteAttribution a = new WriteAttribution(3);
    a.feed(1, true, true);
    long[][] r = ackV2(a, 0, 12_000, EGRESS_DOWN, EGRESS_BLOCKED);
    assertArrayEquals(new long[] {1_000, NO_EVIDENCE, 900}, r[0]);
    assertArrayEquals(new long[] {10_000, 100, NO_EVIDENCE}, r[1], "the link: blocked and stage");
    WriteAttribution voted = new WriteAttribution(3);
    voted.feed(1, true, true);
    voted.blameLink(0, WriteAttribution.LinkEnd.SENDER);
    assertArrayEquals(new long[] {11_000, NO_EVIDENCE, 900},
        ackV2(voted, 0, 12_000, EGRESS_DOWN, EGRESS_BLOCKED)[0],
        "DN0, the common end of its slow links");
    WriteAttribution slowFirst = new WriteAttribution(3);
    slowFirst.feed(1, false, true);
    assertArrayEquals(new long[] {1_000, 9_900, 900},
        ackV2(slowFirst, 0, 12_000, EGRESS_DOWN, EGRESS_BLOCKED)[0],
        "a DataNode not known fast where first keeps its stage, whatever feeds it");
  }
}
