package io.curtail.datanode.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A starved CPU's delays at the ends and middle of its spread, worked by hand. */
class CpuStarvationTest {
  @Test
  void delaysSpreadUniformlyAroundTheMean() {
    CpuStarvation c = CpuStarvation.of(Duration.ofMillis(10), 0.5); // 5 to 15 ms
    assertEquals(5_000_000, c.delayNanos(0));
    assertEquals(10_000_000, c.delayNanos(0.5));
    assertEquals(14_000_000, c.delayNanos(0.9));
    assertEquals(10_000_000, CpuStarvation.of(Duration.ofMillis(10), 0).delayNanos(0.9));
  }

  @Test
  void badStarvationIsRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> CpuStarvation.of(Duration.ZERO, 0.5));
    assertThrows(IllegalArgumentException.class,
        () -> CpuStarvation.of(Duration.ofMillis(1), 1.5));
  }
}
