package io.curtail.client.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A/B cohorts: the definition's rules, stable placement of hosts, and what a cohort overrides. */
class CohortsTest {
  private static final String DEFINITION = "control=50:none,ff=25:failfast,all=25:failfast+smart";

  private static CurtailConfig config(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return CurtailConfig.from(m);
  }

  @Test
  void hostsSpreadOverCohortsByTheirShares() {
    Cohorts c = Cohorts.parse("k", DEFINITION);
    Map<String, Integer> count = new HashMap<>();
    for (int i = 0; i < 20_000; i++) {
      count.merge(c.of("host-" + i, "curtail").name, 1, Integer::sum);
    }
    assertEquals(10_000, count.get("control"), 300);
    assertEquals(5_000, count.get("ff"), 300);
    assertEquals(5_000, count.get("all"), 300);
  }

  @Test
  void placementIsStableAndTheSaltRedrawsIt() {
    // Fixed forever: a host must stay in its cohort across JVMs, releases and Java versions.
    assertEquals(21, Cohorts.bucket("dn-17.example.com", "curtail"));
    int moved = 0;
    for (int i = 0; i < 100; i++) {
      moved += Cohorts.bucket("h" + i, "curtail") != Cohorts.bucket("h" + i, "run-2") ? 1 : 0;
    }
    assertTrue(moved > 80, moved + " of 100 hosts moved under a new salt");
  }

  @Test
  void aCohortOverridesTheTechniqueKeys() {
    // Find a host in each cohort, then check what its clients run.
    Cohorts c = Cohorts.parse("k", DEFINITION);
    Map<String, String> hostOf = new HashMap<>();
    for (int i = 0; hostOf.size() < 3; i++) {
      hostOf.putIfAbsent(c.of("h" + i, "curtail").name, "h" + i);
    }
    CurtailConfig control = config("curtail.ab.cohorts", DEFINITION,
        "curtail.ab.host", hostOf.get("control"), "curtail.write.failfast.enabled", "true");
    assertEquals("control", control.cohort());
    assertTrue(control.allTechniquesOff()); // exactly the stock client's streams
    CurtailConfig ff = config("curtail.ab.cohorts", DEFINITION,
        "curtail.ab.host", hostOf.get("ff"), "curtail.read.hedging", "smart");
    assertTrue(ff.writeFailFastEnabled());
    assertEquals(HedgingMode.OFF, ff.readHedging());
    CurtailConfig all = config("curtail.ab.cohorts", DEFINITION,
        "curtail.ab.host", hostOf.get("all"), "curtail.write.failfast.enabled", "false");
    assertTrue(all.writeFailFastEnabled());
    assertEquals(HedgingMode.SMART, all.readHedging());
    assertEquals(hostOf.get("all"), all.host());
  }

  @Test
  void withoutCohortsTheKeysApply() {
    CurtailConfig c = config("curtail.read.hedging", "static");
    assertNull(c.cohort());
    assertEquals(HedgingMode.STATIC, c.readHedging());
    assertEquals("", c.host()); // no host name looked up for nothing
  }

  @Test
  void badDefinitionsNameKeyValueAndRule() {
    assertBad("a=50:none,b=40:smart", "shares sum to 90, not 100");
    assertBad("a=50:none,b=50:hedge", "unknown technique 'hedge'");
    assertBad("a=50:none,b=50:smart+static", "two hedging techniques");
    assertBad("a=50:none,a=50:smart", "cohort name 'a' must be a unique word");
    assertBad("a=half:none,b=50:smart", "share 'half'");
    assertBad("a=50,b=50:smart", "cohort 'a=50'");
    assertBad("a=150:none", "not a whole percent");
  }

  private static void assertBad(String definition, String says) {
    InvalidConfigException e = assertThrows(InvalidConfigException.class,
        () -> config("curtail.ab.cohorts", definition));
    assertEquals("curtail.ab.cohorts", e.key());
    assertTrue(e.getMessage().contains("'" + definition + "'"), e.getMessage());
    assertTrue(e.getMessage().contains(says), e.getMessage());
    assertTrue(e.getMessage().contains("percents summing to 100"), e.getMessage());
    assertFalse(e.getMessage().isEmpty());
  }
}
