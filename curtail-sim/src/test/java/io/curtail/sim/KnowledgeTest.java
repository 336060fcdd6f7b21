package io.curtail.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.track.NodeTracker;
import org.junit.jupiter.api.Test;

/**
 * A client's hedge threshold, as the client's {@code ReadContext} pools it: over the other
 * DataNodes it reads from, remembered for 16 of its packets; while it has read too little from
 * others to adapt (fewer than a window, 20 samples), over what the whole JVM knows, computed
 * again on every look. Defaults: 3 x the p95, no lower than 25 ms; 500 ms before anything is known.
 */
class KnowledgeTest {
  private static final long MS = 1_000_000L;
  private final EventQueue clock = new EventQueue();
  private final Cluster cluster = new Cluster(4, 1, Hardware.datacentre(), 0, 1);
  private final Knowledge jvm = new Knowledge(clock, Policy.defaults());
  /** Another client (file system) of the same JVM: its registry shared, its reads its own. */
  private final Knowledge client = new Knowledge(jvm);

  private NodeTracker packets(int dn, int n, long ms) {
    NodeTracker t = jvm.tracker(cluster.nodes[dn]);
    for (int i = 0; i < n; i++) {
      t.reads().record(ms * MS);
    }
    return t;
  }

  private long threshold(int dn) {
    DataNode d = cluster.nodes[dn];
    return client.thresholdNanos(d, client.tracker(d), false);
  }

  @Test
  void aClientThatReadNothingTakesWhatTheJvmKnowsOnEveryLook() {
    assertEquals(500 * MS, threshold(0), "nothing known anywhere: the bootstrap");
    assertTrue(client.cold(cluster.nodes[0]));
    // Another client of the JVM reads dn1: 20 packets of 10 ms. This client's next look, with
    // none of its own packets since, takes them: 3 x 10 ms.
    packets(1, 20, 10);
    assertEquals(30 * MS, threshold(0));
    assertFalse(client.cold(cluster.nodes[0]), "a window's samples: adapted");
  }

  @Test
  void aThresholdFromTooFewSamplesIsComputedAgainEachTime() {
    packets(1, 10, 2); // 10 samples of the JVM's: too few to adapt
    assertEquals(500 * MS, threshold(0));
    assertTrue(client.cold(cluster.nodes[0]));
    packets(1, 10, 2); // now 20, the client still at packet 0
    assertEquals(25 * MS, threshold(0), "3 x 2 ms is under the 25 ms floor");
  }

  @Test
  void anAdaptedThresholdIsKeptFor16OfTheClientsPackets() {
    client.readFrom(packets(1, 20, 10));
    assertEquals(30 * MS, threshold(0), "its own reads of dn1: 3 x 10 ms");
    packets(1, 20, 40);
    client.packets = 15;
    assertEquals(30 * MS, threshold(0), "15 packets on: the one computed");
    client.packets = 16;
    assertEquals(120 * MS, threshold(0), "16 on: computed again, 3 x 40 ms");
  }

  @Test
  void aDataNodeIsNotComparedWithItself() {
    client.readFrom(packets(1, 20, 10));
    // dn1's own packets are all this client knows: for dn1 it has nothing to compare with,
    // and takes the JVM's others (none with samples): the bootstrap, cold.
    assertEquals(500 * MS, threshold(1));
    assertTrue(client.cold(cluster.nodes[1]));
  }
}
