package io.curtail.datanode.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Stalls in virtual time: one tick before a freeze ends, at its end, and after. */
class StallsTest {
  private static final long MS = 1_000_000;

  @Test
  void anAccessDuringAFreezeWaitsForItsEndAndOthersPassAtOnce() {
    Stalls stalls = new Stalls(4000 * MS, 1500 * MS, 100 * MS); // freezes 0.1–1.6 s, 4.1–5.6 s…
    assertEquals(1600 * MS, stalls.admit(100 * MS)); // the first instant of a freeze
    assertEquals(1600 * MS, stalls.admit(1600 * MS - 1)); // one tick before it ends
    assertEquals(1600 * MS, stalls.admit(1600 * MS)); // healthy from its end
    assertEquals(3000 * MS, stalls.admit(3000 * MS));
    assertEquals(5600 * MS, stalls.admit(5000 * MS)); // the next period's freeze
    assertEquals(99 * MS, stalls.admit(99 * MS)); // before the fault was injected
  }

  @Test
  void badStallsAreRefusedNamingTheRule() {
    assertThrows(IllegalArgumentException.class,
        () -> DiskFault.stalls(Duration.ofSeconds(1), Duration.ofSeconds(1)));
    assertThrows(IllegalArgumentException.class,
        () -> DiskFault.stalls(Duration.ZERO, Duration.ofSeconds(1)));
    assertThrows(IllegalArgumentException.class,
        () -> DiskFault.stalls(Duration.ofSeconds(3), Duration.ZERO));
    assertThrows(IllegalArgumentException.class,
        () -> DiskFault.serviceTime(Duration.ofMillis(1)).on(java.util.EnumSet.noneOf(
            DiskFault.Access.class)));
  }
}
