package io.curtail.client.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The rule that reads a block's replicas by the load the NameNode reports, with its arithmetic
 * worked: factor 2, margin 4 transfers over the block's typical (upper median) replica, reports
 * stale after 30 s.
 */
class ReportedLoadTest {
  private static final long NOW = 1_700_000_000_000L;
  private final ReportedLoad rule = new ReportedLoad(2.0, 4, 30_000);

  private boolean[] loaded(int[] transfers, long... reportedAt) {
    boolean[] flags = new boolean[transfers.length];
    rule.markLoaded(transfers, reportedAt, new boolean[transfers.length], NOW, flags);
    return flags;
  }

  private static long[] fresh(int n) {
    long[] at = new long[n];
    java.util.Arrays.fill(at, NOW - 1_000);
    return at;
  }

  @Test
  void aDataNodeServingManyMoreTransfersThanTheTypicalReplicaIsLoaded() {
    // Typical (the median of 9, 1, 2) 2. 9 >= 2 x 2 and 9 - 2 = 7 >= 4: loaded. 1 and 2 not.
    assertArrayEquals(new boolean[] {true, false, false},
        loaded(new int[] {9, 1, 2}, fresh(3)));
  }

  @Test
  void theFactorAndTheMarginBothCount() {
    // Typical 1. The margin exactly: 5 - 1 = 4 and 5 >= 2: loaded; 4 - 1 = 3: not.
    assertArrayEquals(new boolean[] {true, false, false}, loaded(new int[] {5, 1, 1}, fresh(3)));
    assertArrayEquals(new boolean[] {false, false, false}, loaded(new int[] {4, 1, 1}, fresh(3)));
    // Typical 20: loaded needs 40 (the factor) and 24 (the margin); 39 is not.
    assertArrayEquals(new boolean[] {false, false, false},
        loaded(new int[] {20, 39, 20}, fresh(3)));
    assertArrayEquals(new boolean[] {false, false, true},
        loaded(new int[] {20, 20, 40}, fresh(3)));
  }

  @Test
  void aReplicaReadersAvoidMakesNoOtherLookLoaded() {
    // dn0 is slow and every client's reads left it: 1 transfer, the others 6 and 7. Against the
    // least (1) both healthy ones would be loaded and a cold client sent to dn0; against the
    // typical (6) nobody is.
    assertArrayEquals(new boolean[] {false, false, false},
        loaded(new int[] {1, 6, 7}, fresh(3)));
  }

  @Test
  void twoReplicasNeverTellLoadedFromAvoided() {
    // The typical of two is the larger: nothing is ever twice it.
    assertArrayEquals(new boolean[] {false, false}, loaded(new int[] {50, 1}, fresh(2)));
  }

  @Test
  void staleReportsAreNeitherLoadedNorCountedInTheTypical() {
    // Fresh 12, 1, 2 and 1: the typical is the upper median, 2, and 12 is loaded. With the
    // fourth report 30.001 s old it is left out: the typical of 12, 1, 2 is 2 still; with the
    // second and fourth stale, the typical of 12 and 2 is 12, and nothing is loaded. Exactly
    // 30 s old is still fresh.
    assertArrayEquals(new boolean[] {true, false, false, false},
        loaded(new int[] {12, 1, 2, 1}, fresh(4)));
    assertArrayEquals(new boolean[] {false, false, false, false}, loaded(new int[] {12, 1, 2, 1},
        NOW - 1_000, NOW - 30_001, NOW - 1_000, NOW - 30_001));
    assertArrayEquals(new boolean[] {true, false, false, false}, loaded(new int[] {12, 1, 2, 1},
        NOW - 1_000, NOW - 30_000, NOW - 1_000, NOW - 30_000));
    // A stale loaded DataNode is not judged either.
    assertArrayEquals(new boolean[] {false, false, false},
        loaded(new int[] {50, 1, 1}, NOW - 60_000, NOW - 1_000, NOW - 1_000));
  }

  @Test
  void unknownReportTimesAndNoFreshReportMarkNothing() {
    assertArrayEquals(new boolean[] {false, false}, loaded(new int[] {50, 0}, 0, 0));
    assertArrayEquals(new boolean[] {false, false, false},
        loaded(new int[] {50, 0, 0}, NOW - 40_000, NOW - 40_000, NOW - 40_000));
  }

  @Test
  void aReplicaOnTheClientsHostIsComparedOnlyWithOthersOnIt() {
    boolean[] flags = new boolean[4];
    // The local DataNode serves 12 beside remote ones' 1, 1 and 9: not loaded, as it is compared
    // only with itself. The remote one at 9 is compared with all four (typical 9): not loaded.
    assertEquals(0, rule.markLoaded(new int[] {12, 1, 9, 1}, fresh(4),
        new boolean[] {true, false, false, false}, NOW, flags));
    assertArrayEquals(new boolean[4], flags);
    // Every replica local (a test cluster): compared as usual (typical 9, 12 is not twice it);
    // and a remote one at 30 beside a local 12: loaded.
    rule.markLoaded(new int[] {12, 1, 9, 1}, fresh(4), new boolean[] {true, true, true, true},
        NOW, flags);
    assertArrayEquals(new boolean[4], flags);
    assertEquals(1, rule.markLoaded(new int[] {12, 1, 30, 2}, fresh(4),
        new boolean[] {true, false, false, false}, NOW, flags));
    assertArrayEquals(new boolean[] {false, false, true, false}, flags);
  }

  @Test
  void aReportFromAClockAheadOfTheClientsCountsAsFresh() {
    assertArrayEquals(new boolean[] {true, false, false},
        loaded(new int[] {9, 1, 1}, NOW + 5_000, NOW + 5_000, NOW + 5_000));
  }

  @Test
  void flagsAlreadySetStayAndTheCountSaysWhatWasMarked() {
    boolean[] flags = {false, true, false};
    assertEquals(1, rule.markLoaded(new int[] {12, 0, 1}, fresh(3), new boolean[3], NOW, flags));
    // (typical 1: 12 >= 2 and 12 - 1 >= 4)
    assertArrayEquals(new boolean[] {true, true, false}, flags);
  }

  @Test
  void theNameNodesLoadOrderIsKept() {
    // With dfs.namenode.read.considerLoad the NameNode lists replicas least loaded first: the
    // demoted are already last, and the order it gave is the order read.
    boolean[] demoted = loaded(new int[] {1, 2, 12}, fresh(3));
    assertArrayEquals(new int[] {0, 1, 2}, ReplicaOrder.order(demoted));
    // Without it, a loaded first replica goes last and the others keep their order.
    assertArrayEquals(new int[] {1, 2, 0},
        ReplicaOrder.order(loaded(new int[] {12, 2, 1}, fresh(3))));
  }

  @Test
  void badSettingsAndMismatchedArraysAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new ReportedLoad(1.0, 4, 30_000));
    assertThrows(IllegalArgumentException.class, () -> new ReportedLoad(2.0, 0, 30_000));
    assertThrows(IllegalArgumentException.class, () -> new ReportedLoad(2.0, 4, 0));
    assertThrows(IllegalArgumentException.class,
        () -> rule.markLoaded(new int[2], new long[3], new boolean[2], NOW, new boolean[2]));
  }
}
