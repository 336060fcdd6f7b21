package io.curtail.datanode.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Worked timelines for the two service times a DataNode reports, in virtual time. */
class PacketTimingsTest {
  private static final long MS = 1_000_000;
  private final Object receiver = new Object();

  /** Forwards and writes packet {@code k} of a block as a middle DataNode would. */
  private static void packet(PacketTimings t, Object receiver, long forwardAt, long mirroredAt,
      long writtenAt) {
    t.forwarding(receiver, forwardAt);
    t.mirrored(receiver, mirroredAt);
    t.wroteLocally(receiver, writtenAt);
  }

  @Test
  void localServiceExcludesForwardingAndTheFirstPacket() {
    PacketTimings t = new PacketTimings(0);
    packet(t, receiver, 0, 1 * MS, 50 * MS); // first packet: creating files, not reported
    assertEquals(-1, t.takeLocal());
    packet(t, receiver, 60 * MS, 70 * MS, 73 * MS); // forwarding took 10 ms, writing 3 ms
    assertEquals(3 * MS, t.takeLocal());
  }

  @Test
  void localServiceIsTheLongestSinceTheLastAckAndRepeatsWhenNothingNew() {
    PacketTimings t = new PacketTimings(0);
    packet(t, receiver, 0, 0, 1 * MS);
    packet(t, receiver, 2 * MS, 2 * MS, 4 * MS);
    packet(t, receiver, 5 * MS, 5 * MS, 10 * MS);
    assertEquals(5 * MS, t.takeLocal());
    assertEquals(5 * MS, t.takeLocal(), "no new write: the last report again");
  }

  @Test
  void downstreamServiceExcludesTheQueueBehindEarlierPackets() {
    PacketTimings t = new PacketTimings(0);
    // Three packets forwarded at once to a downstream DataNode taking 10 ms each.
    packet(t, receiver, 0, 0, 0);
    packet(t, receiver, 0, 0, 0);
    packet(t, receiver, 0, 0, 0);
    assertEquals(-1, t.takeDownstream(10 * MS), "the block's first packet is not reported");
    assertEquals(10 * MS, t.takeDownstream(20 * MS));
    assertEquals(10 * MS, t.takeDownstream(30 * MS));
    // An idle gap, then a packet served in 1 ms.
    packet(t, receiver, 100 * MS, 100 * MS, 100 * MS);
    assertEquals(1 * MS, t.takeDownstream(101 * MS));
  }

  @Test
  void anAckForNothingForwardedStopsThePairingForGood() {
    PacketTimings t = new PacketTimings(0);
    packet(t, receiver, 0, 0, 0);
    assertEquals(-1, t.takeDownstream(1 * MS));
    assertEquals(-1, t.takeDownstream(2 * MS)); // nothing forwarded: acks and forwards diverged
    packet(t, receiver, 3 * MS, 3 * MS, 3 * MS);
    assertEquals(-1, t.takeDownstream(4 * MS));
  }

  @Test
  void tooManyUnackedForwardsStopThePairing() {
    PacketTimings t = new PacketTimings(0);
    for (int i = 0; i <= PacketTimings.MAX_UNACKED; i++) {
      t.forwarding(receiver, i);
    }
    assertEquals(-1, t.takeDownstream(2 * MS));
    assertEquals(-1, t.takeDownstream(3 * MS));
  }

  @Test
  void aNewReceiverStartsTheBlockAfresh() {
    PacketTimings t = new PacketTimings(0);
    packet(t, receiver, 0, 0, 0);
    packet(t, receiver, 1 * MS, 1 * MS, 2 * MS);
    t.takeDownstream(3 * MS); // pairing lost on the old pipeline
    t.takeDownstream(3 * MS);
    t.takeDownstream(3 * MS);
    Object recovered = new Object();
    packet(t, recovered, 10 * MS, 10 * MS, 11 * MS);
    assertEquals(-1, t.takeLocal(), "first packet of the new receiver");
    packet(t, recovered, 12 * MS, 12 * MS, 14 * MS);
    assertEquals(2 * MS, t.takeLocal());
    assertEquals(-1, t.takeDownstream(13 * MS));
    assertEquals(2 * MS, t.takeDownstream(15 * MS));
  }
}
