package io.curtail.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A scenario's files split at the moment stock-best's NameNode first named a slow node. */
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
  void aFileStartedAtTheMomentItActedIsAfter() {
    Phases p = Phases.actedAt(5 * S, 30 * S);
    assertEquals(List.of(10, 20), starts(p.before(files())));
    assertEquals(List.of(30, 40, 50, 60), starts(p.after(files())));
    assertEquals("25 s into the scenario (seen within 5 s)", p.when());
  }

  @Test
  void actedBeforeTheScenarioLeavesNoBeforePhaseAndSaysSo() {
    Phases p = Phases.actedBefore(5 * S);
    assertTrue(p.before(files()).isEmpty());
    assertEquals(6, p.after(files()).size());
    assertTrue(p.when().contains("no before phase"), p.when());
  }

  @Test
  void neverActedLeavesNoAfterPhaseAndSaysSo() {
    Phases p = Phases.never(5 * S);
    assertEquals(6, p.before(files()).size());
    assertTrue(p.after(files()).isEmpty());
    assertTrue(p.when().contains("no after phase"), p.when());
  }

  @Test
  void unwatchedSplitsNothing() {
    assertFalse(Phases.UNKNOWN.known());
    assertTrue(Phases.UNKNOWN.before(files()).isEmpty());
    assertTrue(Phases.UNKNOWN.after(files()).isEmpty());
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
