package io.curtail.datanode.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Worked timelines for the downstream times a DataNode reports, in virtual time. */
class PacketTimingsTest {
  private static final long MS = 1_000_000;
  private final Object receiver = new Object();

  @Test
  void eachAckPairsWithTheOldestForwardQueueingIncluded() {
    PacketTimings t = new PacketTimings(0);
    // Three packets forwarded at once to a downstream DataNode taking 10 ms each.
    t.forwarding(receiver, 60 * MS);
    t.forwarding(receiver, 60 * MS);
    t.forwarding(receiver, 60 * MS);
    assertEquals(10 * MS, t.takeDownstream(70 * MS));
    assertEquals(20 * MS, t.takeDownstream(80 * MS));
    assertEquals(30 * MS, t.takeDownstream(90 * MS));
    t.forwarding(receiver, 100 * MS);
    assertEquals(1 * MS, t.takeDownstream(101 * MS));
  }

  @Test
  void anAckForNothingForwardedStopsThePairingForGood() {
    PacketTimings t = new PacketTimings(0);
    t.forwarding(receiver, 59 * MS);
    assertEquals(1 * MS, t.takeDownstream(60 * MS));
    assertEquals(-1, t.takeDownstream(60 * MS)); // nothing forwarded: acks and forwards diverged
    t.forwarding(receiver, 61 * MS);
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
    PacketTimings t = new PacketTimings(0);
    t.forwarding(receiver, 50 * MS);
    t.takeDownstream(51 * MS);
    t.takeDownstream(60 * MS); // pairing lost on the old pipeline
    Object recovered = new Object();
    t.forwarding(recovered, 102 * MS);
    assertEquals(3 * MS, t.takeDownstream(105 * MS));
    assertEquals(105 * MS, t.lastUsed());
  }
}
