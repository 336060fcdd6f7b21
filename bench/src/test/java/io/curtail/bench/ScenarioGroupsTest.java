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
    for (List<Scenario> g : Scenarios.groups().values()) {
      for (Scenario s : g) {
        assertTrue(seen.add(s.name()), s.name() + " is in two groups");
        total++;
      }
    }
    assertEquals(Scenarios.all().size(), total);
  }

  @Test
  void theDefaultRunLeavesOutTheKindsOfSlowAndErasureCoding() {
    List<Scenario> defaults = Scenarios.group("default");
    assertTrue(defaults.contains(Scenarios.byName("write-slow-disk")));
    assertTrue(!defaults.contains(Scenarios.byName("write-slow-nic")));
    assertTrue(!defaults.contains(Scenarios.byName("ec-healthy-read")));
    assertEquals(Scenarios.group("kinds"), Scenarios.named("kinds"));
    assertEquals(List.of(Scenarios.byName("write-slow-link")), Scenarios.named("write-slow-link"));
    assertEquals(Scenarios.all(), Scenarios.named("all"));
  }

  @Test
  void anUnknownNameListsTheGroups() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Scenarios.named("slow-everything"));
    assertTrue(e.getMessage().endsWith("groups are all, default, kinds, ec"), e.getMessage());
  }
}
