package io.curtail.datanode.fault;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A flapping schedule one tick either side of each change. */
class FlappingTest {
  private static final long S = 1_000_000_000L;

  @Test
  void slowThenHealthyThenSlowAgain() {
    Flapping f = Flapping.of(Duration.ofSeconds(2), Duration.ofSeconds(3));
    long start = 7 * S;
    assertTrue(f.slowAt(start, start));
    assertTrue(f.slowAt(start, start + 2 * S - 1));
    assertFalse(f.slowAt(start, start + 2 * S));
    assertFalse(f.slowAt(start, start + 5 * S - 1));
    assertTrue(f.slowAt(start, start + 5 * S));
    assertFalse(f.slowAt(start, start + 7 * S));
  }

  @Test
  void emptySpellsAreRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> Flapping.of(Duration.ZERO, Duration.ofSeconds(1)));
  }
}
