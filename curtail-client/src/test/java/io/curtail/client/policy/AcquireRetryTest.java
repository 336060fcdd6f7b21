package io.curtail.client.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AcquireRetryTest {
  private final AcquireRetry stockDefaults = new AcquireRetry(3, 3000);

  @Test
  void theFirstWaitIsARandomPartOfOneWindow() {
    assertEquals(0, stockDefaults.waitMs(0, 0.0));
    assertEquals(1500, stockDefaults.waitMs(0, 0.5));
    assertEquals(2999, stockDefaults.waitMs(0, 0.9999));
  }

  @Test
  void laterWaitsSitOutThePreviousWindowsThenAGrowingRandomPart() {
    // Round 1: 3000 × 1 + 3000 × 2 × r, so 3–9 s.
    assertEquals(3000, stockDefaults.waitMs(1, 0.0));
    assertEquals(6000, stockDefaults.waitMs(1, 0.5));
    // Round 2: 3000 × 2 + 3000 × 3 × r, so 6–15 s.
    assertEquals(6000, stockDefaults.waitMs(2, 0.0));
    assertEquals(10500, stockDefaults.waitMs(2, 0.5));
  }

  @Test
  void givesUpAfterTheConfiguredRounds() {
    assertFalse(stockDefaults.givesUp(0));
    assertFalse(stockDefaults.givesUp(2));
    assertTrue(stockDefaults.givesUp(3));
    assertTrue(new AcquireRetry(0, 3000).givesUp(0), "0 rounds: give up at once, as stock");
  }

  @Test
  void refusesNegativeSettingsNamingThem() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new AcquireRetry(-1, 3000));
    assertTrue(e.getMessage().contains("dfs.client.max.block.acquire.failures"), e.getMessage());
  }
}
