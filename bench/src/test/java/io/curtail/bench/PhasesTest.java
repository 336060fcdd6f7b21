package io.curtail.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A scenario's files split by whether stock-best's NameNode named a slow node then. */
class PhasesTest {
  private static final long S = 1_000_000_000L;

  /** A file started {@code startS} seconds into the benchmark, labelled by its start. */
  private static FileSample file(long startS) {
    return new FileSample("read-throttled", "stock", 0, 0, (int) startS, "read", startS * S,
        100_000_000L, 1);
  }

  /** Files started at 10, 20, … 60 s; the scenario began at 5 s. */
  private static List<FileSample> files() {
    List<FileSample> out = new ArrayList<>();
    for (long s = 10; s <= 60; s += 10) {
      out.add(file(s));
    }
    return out;
  }

  private static List<Integer> starts(List<FileSample> files) {
    List<Integer> out = new ArrayList<>();
    files.forEach(f -> out.add(f.file));
    return out;
  }

  @Test
  void aFileStartedAtTheMomentItActedIsActing() {
    Phases p = Phases.watched(5 * S, 30 * S);
    assertEquals(List.of(10, 20), starts(p.notActing(files())));
    assertEquals(List.of(30, 40, 50, 60), starts(p.acting(files())));
    assertEquals("from 25 s to its end (looked at every 5 s)", p.when());
  }

  @Test
  void filesAfterItStoppedNamingTheNodeAreNotActingAgain() {
    // Named from 25 s to 45 s into the scenario: the DataNodes' reports expired.
    Phases p = Phases.watched(5 * S, 30 * S, 50 * S);
    assertEquals(List.of(10, 20, 50, 60), starts(p.notActing(files())));
    assertEquals(List.of(30, 40), starts(p.acting(files())));
    assertEquals("from 25 s to 45 s (looked at every 5 s)", p.when());
  }

  @Test
  void namedBeforeTheScenarioBeganLeavesNoNotActingPhase() {
    Phases p = Phases.watched(5 * S, Long.MIN_VALUE);
    assertTrue(p.notActing(files()).isEmpty());
    assertEquals(6, p.acting(files()).size());
    assertEquals("from before the scenario began to its end (looked at every 5 s)", p.when());
  }

  @Test
  void neverNamedLeavesNoActingPhase() {
    Phases p = Phases.watched(5 * S);
    assertEquals(6, p.notActing(files()).size());
    assertTrue(p.acting(files()).isEmpty());
    assertEquals("never during this scenario", p.when());
  }

  @Test
  void unwatchedSplitsNothing() {
    assertFalse(Phases.UNKNOWN.known());
    assertTrue(Phases.UNKNOWN.notActing(files()).isEmpty());
    assertTrue(Phases.UNKNOWN.acting(files()).isEmpty());
  }

  @Test
  void aReportNamesASlowNodeOnlyWhenItListsOne() {
    assertFalse(Phases.namesASlowNode(null));
    assertFalse(Phases.namesASlowNode("slowPeers= slowDisks="));
    assertFalse(Phases.namesASlowNode("slowPeers=[] slowDisks=null"));
    assertTrue(Phases.namesASlowNode(
        "slowPeers=[{\"SlowNode\":\"127.0.0.1:40123\",\"SlowPeerLatencyWithReportingNodes\":[]}]"
            + " slowDisks="));
  }
}
