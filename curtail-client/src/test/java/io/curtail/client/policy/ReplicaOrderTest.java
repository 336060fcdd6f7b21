package io.curtail.client.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ReplicaOrderTest {
  private static final long MS = 1_000_000;
  /** Slow means over 3× the fastest judged; judged from 20 samples. */
  private final ReplicaOrder order = new ReplicaOrder(new Slowness(3, 0, 20));

  @Test
  void aSlowReplicaGoesLastAndTheNameNodesOrderStandsOtherwise() {
    boolean[] demoted = new boolean[3];
    order.demoteSlow(new int[] {20, 20, 20}, new long[] {31 * MS, 10 * MS, 30 * MS}, demoted);
    assertArrayEquals(new boolean[] {true, false, false}, demoted); // 31 > 3 × 10, 30 is not
    assertArrayEquals(new int[] {1, 2, 0}, ReplicaOrder.order(demoted));
  }

  @Test
  void aReplicaTooLittleKnownIsNeitherJudgedNorTheYardstick() {
    boolean[] demoted = new boolean[3];
    // The 1 ms replica has 19 samples: not judged, so 10 ms is the fastest and 25 is not slow.
    order.demoteSlow(new int[] {19, 20, 20}, new long[] {MS, 10 * MS, 25 * MS}, demoted);
    assertArrayEquals(new boolean[3], demoted);
    assertArrayEquals(new int[] {0, 1, 2}, ReplicaOrder.order(demoted));
  }

  @Test
  void slowByEitherMeasureOrBusyIsDemoted() {
    boolean[] demoted = {false, false, true}; // the third said it is busy
    order.demoteSlow(new int[] {20, 20, 20}, new long[] {MS, MS, MS}, demoted); // packets: even
    order.demoteSlow(new int[] {20, 20, 0}, new long[] {400 * MS, 2 * MS, 0}, demoted); // starts
    assertArrayEquals(new boolean[] {true, false, true}, demoted);
    assertArrayEquals(new int[] {1, 0, 2}, ReplicaOrder.order(demoted));
  }

  @Test
  void aBusyReplicaComesAfterEveryOtherEvenWhenAllAreDemoted() {
    // The NameNode lists the busy one first, and the others are slow or loaded: the busy one,
    // which asked to be left alone, is still tried last.
    int[] rank = {ReplicaOrder.BUSY, ReplicaOrder.DEMOTED, ReplicaOrder.DEMOTED};
    assertArrayEquals(new int[] {1, 2, 0}, ReplicaOrder.order(rank));
    rank = new int[] {ReplicaOrder.BUSY, ReplicaOrder.DEMOTED, ReplicaOrder.FIRST};
    assertArrayEquals(new int[] {2, 1, 0}, ReplicaOrder.order(rank));
    assertThrows(IllegalArgumentException.class, () -> ReplicaOrder.order(new int[] {4}));
  }

  @Test
  void aLoadedReplicaComesBeforeOneTheJvmKnowsSlow() {
    // The NameNode's count is a heartbeat's proxy; the JVM's packets are measured. A slow
    // DataNode that readers left shows few transfers, so the healthy ones look loaded beside
    // it: they must still come first.
    int[] rank = {ReplicaOrder.DEMOTED, ReplicaOrder.LOADED, ReplicaOrder.FIRST};
    assertArrayEquals(new int[] {2, 1, 0}, ReplicaOrder.order(rank));
    rank = new int[] {ReplicaOrder.DEMOTED, ReplicaOrder.LOADED, ReplicaOrder.LOADED};
    assertArrayEquals(new int[] {1, 2, 0}, ReplicaOrder.order(rank));
  }

  @Test
  void mismatchedArraysAreRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> order.demoteSlow(new int[2], new long[3], new boolean[3]));
  }
}
