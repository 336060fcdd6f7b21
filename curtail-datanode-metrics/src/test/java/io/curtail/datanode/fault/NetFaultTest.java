package io.curtail.datanode.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The slow network in virtual time, and which packets each kind slows. */
class NetFaultTest {
  private static final long MS = 1_000_000;

  @Test
  void aRateIsOneFifoQueueEveryPacketCrossesInTurn() {
    Wire w = NetFault.nic(1_000_000).newWire(); // 1 MB/s: 1000 bytes take 1 ms
    assertEquals(11 * MS, w.admit(10 * MS, 1000)); // idle: its own bytes only
    assertEquals(13 * MS, w.admit(10 * MS, 2000)); // behind the first
    assertEquals(14 * MS, w.admit(12 * MS, 1000)); // still queued
    assertEquals(21 * MS, w.admit(20 * MS, 1000)); // the queue emptied at 14 ms
  }

  @Test
  void aDelayPerPacketHoldsEachPacketWithoutAQueue() {
    Wire w = NetFault.link("127.0.0.1:9866", Duration.ofMillis(5)).newWire();
    assertEquals(15 * MS, w.admit(10 * MS, 64 * 1024));
    assertEquals(15 * MS, w.admit(10 * MS, 64 * 1024)); // a second at once: not behind the first
  }

  @Test
  void aNicSlowsEveryPeerAndReadersALinkOnlyItsPeer() {
    NetFault nic = NetFault.nic(1000);
    assertTrue(nic.slowsForwardingTo("127.0.0.1:1"));
    assertTrue(nic.slowsReads());
    NetFault link = NetFault.link("127.0.0.1:2", 1000);
    assertTrue(link.slowsForwardingTo("127.0.0.1:2"));
    assertFalse(link.slowsForwardingTo("127.0.0.1:1"));
    assertFalse(link.slowsReads());
  }

  @Test
  void badFaultsAreRefusedNamingTheRule() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> NetFault.nic(0));
    assertTrue(e.getMessage().startsWith("a network fault needs a rate > 0"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> NetFault.link("dn1", 1000));
    assertEquals("a link's peer is a transfer address ip:port, was 'dn1'", e.getMessage());
  }
}
