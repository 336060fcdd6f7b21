package io.curtail.client.policy;

import static io.curtail.client.policy.WriteAttribution.NO_EVIDENCE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Service times from stock acks, on packet timelines worked out by hand (times in ms). A writer
 * sends packets back to back at t=0; a stage that takes S per packet releases them S apart.
 */
class WriteAttributionTest {
  private static final long MS = 1_000_000L;

  private static long[] ack(WriteAttribution a, long sentMs, long ackMs, long downstreamMs,
      int nodes) {
    long[] samples = new long[nodes];
    a.attribute(sentMs * MS, ackMs * MS, downstreamMs * MS, samples);
    for (int i = 0; i < nodes; i++) {
      samples[i] = samples[i] == NO_EVIDENCE ? NO_EVIDENCE : samples[i] / MS;
    }
    return samples;
  }

  @Test
  void slowHeadIsBlamedNotItsQueue() {
    // Head takes 10 per packet, the rest 1: packet k departs the head at 10(k+1), acks 1 later.
    WriteAttribution a = new WriteAttribution(3);
    assertArrayEquals(new long[] {10, 1, 1}, ack(a, 0, 11, 1, 3));
    assertArrayEquals(new long[] {10, 1, 1}, ack(a, 0, 21, 1, 3)); // round trip 21, service 10
    assertArrayEquals(new long[] {10, 1, 1}, ack(a, 0, 31, 1, 3));
  }

  @Test
  void slowDownstreamIsNobodysFaultInParticularWithThreeNodes() {
    // The head takes 1 per packet; the rest releases one every 10.
    WriteAttribution a = new WriteAttribution(3);
    assertArrayEquals(new long[] {1, NO_EVIDENCE, NO_EVIDENCE}, ack(a, 0, 11, 10, 3));
    assertArrayEquals(new long[] {1, NO_EVIDENCE, NO_EVIDENCE}, ack(a, 0, 21, 19, 3));
  }

  @Test
  void slowDownstreamIsBlamedWhenTheOtherIsKnownFast() {
    WriteAttribution a = new WriteAttribution(3);
    a.knownFast(1, true);
    assertArrayEquals(new long[] {1, NO_EVIDENCE, 10}, ack(a, 0, 11, 10, 3));
    a.knownFast(1, false);
    a.knownFast(2, true);
    assertArrayEquals(new long[] {1, 10, NO_EVIDENCE}, ack(a, 0, 21, 19, 3));
    a.knownFast(1, true);
    assertArrayEquals(new long[] {1, NO_EVIDENCE, NO_EVIDENCE}, ack(a, 0, 31, 28, 3));
  }

  @Test
  void slowSecondOfTwoIsBlamed() {
    WriteAttribution a = new WriteAttribution(2); // as above, the second node is the rest
    assertArrayEquals(new long[] {1, 10}, ack(a, 0, 11, 10, 2));
    assertArrayEquals(new long[] {1, 10}, ack(a, 0, 21, 19, 2));
  }

  @Test
  void equallySlowNodesLookEquallySlow() {
    // Every stage takes 10: the head releases at 10(k+1); downstream acks 10 later.
    WriteAttribution a = new WriteAttribution(3);
    assertArrayEquals(new long[] {10, 10, 10}, ack(a, 0, 20, 10, 3));
    assertArrayEquals(new long[] {10, 10, 10}, ack(a, 0, 30, 10, 3));
  }

  @Test
  void idlePipelineServiceIsTheLatency() {
    WriteAttribution a = new WriteAttribution(1);
    assertArrayEquals(new long[] {3}, ack(a, 100, 103, 0, 1));
    assertArrayEquals(new long[] {2}, ack(a, 200, 202, 0, 1));
  }

  @Test
  void impossibleDownstreamTimesAreEvidenceAboutNobody() {
    WriteAttribution a = new WriteAttribution(3);
    assertArrayEquals(new long[] {NO_EVIDENCE, NO_EVIDENCE, NO_EVIDENCE}, ack(a, 0, 5, 6, 3));
    assertArrayEquals(new long[] {NO_EVIDENCE, NO_EVIDENCE, NO_EVIDENCE}, ack(a, 0, 5, -1, 3));
    assertArrayEquals(new long[] {NO_EVIDENCE}, ack(new WriteAttribution(1), 0, 5, 2, 1));
    // ...and do not disturb what follows.
    assertArrayEquals(new long[] {4, 1, 1}, ack(a, 0, 5, 1, 3));
    assertThrows(IllegalArgumentException.class, () -> new WriteAttribution(0));
  }
}
