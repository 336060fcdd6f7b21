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

  /** A block's first packets, written and acked, none of them reported. */
  private static PacketTimings warmedUp(Object receiver) {
    PacketTimings t = new PacketTimings(0);
    for (int i = 0; i < PacketTimings.WARM_UP; i++) {
      packet(t, receiver, 0, 1 * MS, 50 * MS); // creating files: slow, not reported
      assertEquals(-1, t.takeLocal());
      assertEquals(-1, t.takeDownstream(50 * MS));
    }
    return t;
  }

  @Test
  void localServiceExcludesForwardingAndTheWarmUp() {
    PacketTimings t = warmedUp(receiver);
    packet(t, receiver, 60 * MS, 70 * MS, 73 * MS); // forwarding took 10 ms, writing 3 ms
    assertEquals(3 * MS, t.takeLocal());
  }

  @Test
  void eachLocalTimeIsReportedOnceInOrder() {
    PacketTimings t = warmedUp(receiver);
    packet(t, receiver, 60 * MS, 60 * MS, 62 * MS);
    packet(t, receiver, 65 * MS, 65 * MS, 70 * MS);
    assertEquals(2 * MS, t.takeLocal(), "written ahead of its ack: still reported");
    assertEquals(5 * MS, t.takeLocal());
    assertEquals(-1, t.takeLocal(), "nothing new: nothing to report");
  }

  @Test
  void downstreamServiceExcludesTheQueueBehindEarlierPackets() {
    PacketTimings t = warmedUp(receiver);
    // Three packets forwarded at once to a downstream DataNode taking 10 ms each.
    packet(t, receiver, 60 * MS, 60 * MS, 60 * MS);
    packet(t, receiver, 60 * MS, 60 * MS, 60 * MS);
    packet(t, receiver, 60 * MS, 60 * MS, 60 * MS);
    assertEquals(10 * MS, t.takeDownstream(70 * MS));
    assertEquals(10 * MS, t.takeDownstream(80 * MS));
    assertEquals(10 * MS, t.takeDownstream(90 * MS));
    // An idle gap, then a packet served in 1 ms.
    packet(t, receiver, 100 * MS, 100 * MS, 100 * MS);
    assertEquals(1 * MS, t.takeDownstream(101 * MS));
  }

  @Test
  void anAckForNothingForwardedStopsThePairingForGood() {
    PacketTimings t = warmedUp(receiver);
    assertEquals(-1, t.takeDownstream(60 * MS)); // nothing forwarded: acks and forwards diverged
    packet(t, receiver, 61 * MS, 61 * MS, 61 * MS);
    assertEquals(-1, t.takeDownstream(62 * MS));
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
    PacketTimings t = warmedUp(receiver);
    t.takeDownstream(60 * MS); // pairing lost on the old pipeline
    Object recovered = new Object();
    for (int i = 0; i < PacketTimings.WARM_UP; i++) {
      packet(t, recovered, 100 * MS, 100 * MS, 101 * MS);
      assertEquals(-1, t.takeLocal(), "the new receiver warms up again");
      assertEquals(-1, t.takeDownstream(101 * MS));
    }
    packet(t, recovered, 102 * MS, 102 * MS, 104 * MS);
    assertEquals(2 * MS, t.takeLocal());
    assertEquals(3 * MS, t.takeDownstream(105 * MS));
  }
}
