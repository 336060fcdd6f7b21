package io.curtail.client.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The rule that reads a block's replicas by the load the NameNode reports, with its arithmetic
 * worked: factor 2, margin 4 transfers, reports stale after 30 s.
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
  void aDataNodeServingManyMoreTransfersThanTheLeastLoadedIsLoaded() {
    // Least 1 (an idle DataNode's listener). 9 >= 2 x 1 and 9 - 1 = 8 >= 4: loaded. 3 >= 2 x 1
    // but 3 - 1 = 2 < 4: not.
    assertArrayEquals(new boolean[] {true, false, false},
        loaded(new int[] {9, 1, 3}, fresh(3)));
  }

  @Test
  void twoAgainstOneIsNotLoad() {
    assertArrayEquals(new boolean[] {false, false}, loaded(new int[] {2, 1}, fresh(2)));
    // The margin exactly: 5 - 1 = 4 and 5 >= 2: loaded; 4 - 1 = 3: not.
    assertArrayEquals(new boolean[] {true, false}, loaded(new int[] {5, 1}, fresh(2)));
    assertArrayEquals(new boolean[] {false, false}, loaded(new int[] {4, 1}, fresh(2)));
  }

  @Test
  void busyButEvenDataNodesAreNotLoaded() {
    // Least 20: loaded needs 40 (the factor) and 24 (the margin); 39 is neither loaded.
    assertArrayEquals(new boolean[] {false, false, true},
        loaded(new int[] {20, 39, 40}, fresh(3)));
  }

  @Test
  void staleReportsAreNeitherLoadedNorTheBaseline() {
    // The idle DataNode's report is 30.001 s old: ignored, so the least fresh load is 8, and 9
    // is not loaded beside it. Exactly 30 s old is still fresh.
    assertArrayEquals(new boolean[] {false, false, false},
        loaded(new int[] {9, 0, 8}, NOW - 1_000, NOW - 30_001, NOW - 1_000));
    assertArrayEquals(new boolean[] {true, false, true},
        loaded(new int[] {9, 0, 8}, NOW - 1_000, NOW - 30_000, NOW - 1_000));
    // A stale loaded DataNode is not judged either.
    assertArrayEquals(new boolean[] {false, false},
        loaded(new int[] {50, 1}, NOW - 60_000, NOW - 1_000));
  }

  @Test
  void unknownReportTimesAndNoFreshReportMarkNothing() {
    assertArrayEquals(new boolean[] {false, false}, loaded(new int[] {50, 0}, 0, 0));
    assertArrayEquals(new boolean[] {false, false},
        loaded(new int[] {50, 0}, NOW - 40_000, NOW - 40_000));
  }

  @Test
  void aReplicaOnTheClientsHostIsComparedOnlyWithOthersOnIt() {
    boolean[] flags = new boolean[3];
    // The local DataNode serves 12 beside remote ones' 1 and 2: not loaded, as nothing local is
    // less loaded. A remote one at 9 is compared with all (least 1): loaded.
    assertEquals(1, rule.markLoaded(new int[] {12, 1, 9}, fresh(3),
        new boolean[] {true, false, false}, NOW, flags));
    assertArrayEquals(new boolean[] {false, false, true}, flags);
    // Every replica local (a test cluster): compared as usual.
    flags = new boolean[3];
    rule.markLoaded(new int[] {12, 1, 9}, fresh(3), new boolean[] {true, true, true}, NOW, flags);
    assertArrayEquals(new boolean[] {true, false, true}, flags);
  }

  @Test
  void aReportFromAClockAheadOfTheClientsCountsAsFresh() {
    assertArrayEquals(new boolean[] {true, false},
        loaded(new int[] {9, 1}, NOW + 5_000, NOW + 5_000));
  }

  @Test
  void flagsAlreadySetStayAndTheCountSaysWhatWasMarked() {
    boolean[] flags = {false, true, false};
    assertEquals(1, rule.markLoaded(new int[] {12, 0, 1}, fresh(3), new boolean[3], NOW, flags));
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
