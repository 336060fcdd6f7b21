package io.curtail.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every scenario is in one group, and a run names scenarios and groups alike. */
class ScenarioGroupsTest {
  @Test
  void everyScenarioIsInExactlyOneGroup() {
    Set<String> seen = new HashSet<>();
    int total = 0;
    for (List<Scenario> g : Scenario.groups().values()) {
      for (Scenario s : g) {
        assertTrue(seen.add(s.name()), s.name() + " is in two groups");
        total++;
      }
    }
    assertEquals(Scenario.all().size(), total);
  }

  @Test
  void theDefaultRunLeavesOutTheKindsOfSlowAndErasureCoding() {
    List<Scenario> defaults = Scenario.group("default");
    assertTrue(defaults.contains(Scenario.byName("write-slow-disk")));
    assertTrue(!defaults.contains(Scenario.byName("write-slow-nic")));
    assertTrue(!defaults.contains(Scenario.byName("ec-healthy-read")));
    assertEquals(Scenario.group("kinds"), Scenario.named("kinds"));
    assertEquals(List.of(Scenario.byName("write-slow-link")), Scenario.named("write-slow-link"));
    assertEquals(Scenario.all(), Scenario.named("all"));
  }

  @Test
  void anUnknownNameListsTheGroups() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Scenario.named("slow-everything"));
    assertTrue(e.getMessage().endsWith("groups are all, default, kinds, ec"), e.getMessage());
  }
}
