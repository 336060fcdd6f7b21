package io.curtail.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A study changes one threshold at a time; the rest stay at the client's defaults. */
class PolicyTest {
  @Test
  void defaultsAreTheClients() {
    Policy p = Policy.defaults();
    assertEquals(0.95, p.percentile());
    assertEquals(20, p.readWindow());
    assertEquals(100, p.writeWindow());
    assertEquals(1024, p.knowledgeMaxNodes());
    assertEquals(50 * Policy.MS, p.stockHedgeThresholdNanos());
    assertEquals(300_000 * Policy.MS, p.knowledgeMemoryNanos());
    assertNotNull(p.reportedLoad(), "the NameNode-load rule is on by default, as the client's");
  }

  @Test
  void withChangesOneThresholdAndLeavesTheOriginal() {
    Policy p = Policy.defaults();
    Policy q = p.with("window", 50);
    assertEquals(50, q.readWindow());
    assertEquals(250, q.writeWindow(), "write windows follow read windows, 5 to 1");
    assertEquals(20, p.readWindow(), "the original is unchanged");
    assertEquals(p.percentile(), q.percentile());
    assertNull(p.with("load-factor", 0).reportedLoad(), "factor 0 turns the rule off");
  }

  @Test
  void everyStudiedNameIsAThreshold() {
    for (String name : Policy.NAMES) {
      Policy.defaults().with(name, 1.5);
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Policy.defaults().with("windw", 5));
    assertTrue(e.getMessage().contains("'windw'") && e.getMessage().contains("window"),
        e.getMessage());
  }
}
