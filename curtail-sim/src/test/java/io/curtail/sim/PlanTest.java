package io.curtail.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.track.NodeTracker;
import org.junit.jupiter.api.Test;

/**
 * A read's plan as the client's {@code ReplicaPlan} makes it since its read rules changed: the
 * NameNode's load judged against the block's typical replica, a loaded replica before one the JVM
 * knows slow, a DataNode a hedge overtook read last for the backoff's 16 packets, and a plan stale
 * once 16 packets or an overtaken read have passed.
 */
class PlanTest {
  private static final long MS = 1_000_000L;
  private final EventQueue clock = new EventQueue();
  private final Cluster cluster = new Cluster(3, 1, Hardware.datacentre(), 0, 1);
  private final Knowledge k = new Knowledge(clock, Policy.defaults());

  /** A start and 20 packets of {@code ms} from DataNode {@code dn}: a full window, judged. */
  private void known(int dn, long ms) {
    NodeTracker t = k.tracker(cluster.nodes[dn]);
    t.recordStart(ms * MS, 0);
    for (int i = 0; i < 20; i++) {
      t.reads().record(ms * MS);
    }
  }

  private int[] ids(Plan p) {
    int[] out = new int[p.replicas.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = p.replicas[i].id;
    }
    return out;
  }

  @Test
  void aLoadedReplicaGoesAfterOthersButBeforeOneTheJvmKnowsSlow() {
    known(0, 30); // 30 ms packets against 1 ms: slow by the factor 3 and the 5 ms margin
    known(1, 1);
    known(2, 1);
    cluster.nodes[0].active = 1;
    cluster.nodes[1].active = 12; // typical (upper median of 1, 2, 12) 2: 12 >= 2 x 2, 10 >= 4
    cluster.nodes[2].active = 2;
    Plan p = Plan.of(cluster, k, new int[] {0, 1, 2}, 0);
    assertArrayEquals(new int[] {2, 1, 0}, ids(p), "FIRST, then LOADED, then DEMOTED");
    assertArrayEquals(new boolean[] {false, false, true}, p.slow);
    assertArrayEquals(new boolean[] {false, true, false}, p.loaded);
  }

  @Test
  void aReplicaReadersLeftMakesNoOtherLookLoaded() {
    known(0, 30);
    known(1, 1);
    known(2, 1);
    // dn0 is avoided, so it serves 1 transfer; beside the least loaded the other two (6, 7)
    // would both look loaded; beside the typical one (6) neither is.
    cluster.nodes[0].active = 1;
    cluster.nodes[1].active = 6;
    cluster.nodes[2].active = 7;
    Plan p = Plan.of(cluster, k, new int[] {0, 1, 2}, 0);
    assertArrayEquals(new int[] {1, 2, 0}, ids(p));
    assertArrayEquals(new boolean[3], p.loaded);
  }

  @Test
  void aDataNodeAHedgeOvertookIsReadLastForTheBackoffsPackets() {
    k.packets = 100;
    k.overtaken(cluster.nodes[0]);
    Plan p = Plan.of(cluster, k, new int[] {0, 1, 2}, 0);
    assertArrayEquals(new int[] {1, 2, 0}, ids(p), "nothing else known: overtaken goes last");
    assertTrue(p.slow[2], "as known slow: a read on it leaves it");
    k.packets = 115;
    assertArrayEquals(new int[] {1, 2, 0}, ids(Plan.of(cluster, k, new int[] {0, 1, 2}, 0)),
        "15 packets on: still");
    k.packets = 116;
    assertArrayEquals(new int[] {0, 1, 2}, ids(Plan.of(cluster, k, new int[] {0, 1, 2}, 0)),
        "16 packets on: the NameNode's order again");
  }

  @Test
  void aPlanGoesStaleAfter16PacketsOrAnOvertakenRead() {
    k.packets = 40;
    Plan p = Plan.of(cluster, k, new int[] {0, 1, 2}, 0);
    k.packets = 55;
    assertTrue(p.fresh(k), "15 packets on");
    k.packets = 56;
    assertFalse(p.fresh(k), "16 packets on");
    k.packets = 41;
    k.overtaken(cluster.nodes[2]);
    assertFalse(p.fresh(k), "a hedge overtook a read since");
    assertTrue(Plan.of(cluster, k, new int[] {0, 1, 2}, 0).fresh(k));
  }

  @Test
  void noHedgeGoesToADataNodeAHedgeOvertookLatelyNorToOneKnownSlower() {
    known(0, 1);
    known(1, 40); // its packets' p95 40 ms: over a 30 ms threshold, a hedge would only queue
    known(2, 1);
    k.packets = 10;
    k.overtaken(cluster.nodes[2]);
    Plan p = Plan.of(cluster, k, new int[] {0, 1, 2}, 0);
    // dn1 (slow) and dn2 (overtaken) both demoted, the NameNode's order kept between them.
    assertArrayEquals(new int[] {0, 1, 2}, ids(p));
    assertArrayEquals(new boolean[] {false, true, true},
        ReadOp.notHedgedTo(p, k, 30 * MS));
    k.packets = 26; // 16 packets after the overtaken read: dn2 may be hedged to again
    assertArrayEquals(new boolean[] {false, true, false},
        ReadOp.notHedgedTo(p, k, 30 * MS));
  }

  @Test
  void otherModesKeepTheOrderTheyAreGiven() {
    Plan p = Plan.fixed(new DataNode[] {cluster.nodes[2], cluster.nodes[0]});
    assertSame(cluster.nodes[2], p.replicas[0]);
    assertArrayEquals(new boolean[2], p.slow);
  }
}
