package io.curtail.client.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The hedge budget's token arithmetic, worked by hand. */
class HedgeBudgetTest {
  private static final long TOKEN = HedgeBudget.UNIT;

  @Test
  void startsFullSoTheFirstSlowReadsHedgeAtOnce() {
    HedgeBudget b = new HedgeBudget(0.1, 3);
    assertTrue(b.tryHedge());
    assertTrue(b.tryHedge());
    assertTrue(b.tryHedge());
    assertFalse(b.tryHedge(), "3 tokens, 3 hedges: empty");
    assertEquals(0, b.microTokens(), "a refusal spends nothing");
  }

  @Test
  void tenPacketsAtOneTenthEarnOneHedge() {
    HedgeBudget b = emptied(new HedgeBudget(0.1, 3));
    for (int i = 0; i < 9; i++) {
      b.onRead();
    }
    assertEquals(9 * TOKEN / 10, b.microTokens());
    assertFalse(b.tryHedge(), "0.9 tokens after 9 packets: not yet");
    b.onRead();
    assertTrue(b.tryHedge(), "1.0 token after the 10th");
    assertFalse(b.tryHedge());
  }

  @Test
  void theBucketHoldsNoMoreThanTheBurst() {
    HedgeBudget b = emptied(new HedgeBudget(0.5, 2));
    for (int i = 0; i < 1000; i++) { // 500 tokens' worth of healthy reads
      b.onRead();
    }
    assertEquals(2 * TOKEN, b.microTokens(), "capped at the burst, 2");
    assertTrue(b.tryHedge());
    assertTrue(b.tryHedge());
    assertFalse(b.tryHedge(), "a long healthy spell buys only the burst");
  }

  @Test
  void hedgesNeverExceedBurstPlusRatioTimesPackets() {
    // A watchdog that hedges every packet while it is in flight; the packet's token comes when
    // it is read. A burst of 5 and 1000 packets at 0.1 earn 5 + 0.1 × 1000 = 105 tokens: packets
    // 1-5 spend the burst (leaving 0.5 after packet 5's deposit), packet 11 finds 1.0, and so do
    // 21, 31, ..., 991: 5 + 99 = 104 hedges, and packet 1000 leaves the 105th token unspent.
    HedgeBudget b = new HedgeBudget(0.1, 5);
    int hedges = 0;
    for (int i = 0; i < 1000; i++) {
      hedges += b.tryHedge() ? 1 : 0;
      b.onRead();
    }
    assertEquals(104, hedges);
    assertEquals(TOKEN, b.microTokens());
  }

  @Test
  void aRefundedTokenIsThereForTheNextHedge() {
    HedgeBudget b = new HedgeBudget(0.1, 1);
    assertTrue(b.tryHedge());
    assertFalse(b.tryHedge());
    b.refund(); // the primary delivered before the hedge could start
    assertTrue(b.tryHedge());
  }

  @Test
  void aRatioOfOneAllowsAHedgePerPacket() {
    HedgeBudget b = emptied(new HedgeBudget(1, 1));
    for (int i = 0; i < 5; i++) {
      b.onRead();
      assertTrue(b.tryHedge(), "packet " + i);
    }
  }

  @Test
  void concurrentSpendersNeverTakeMoreTokensThanThere() throws InterruptedException {
    HedgeBudget b = new HedgeBudget(0.1, 100);
    AtomicInteger granted = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      threads.add(new Thread(() -> {
        for (int i = 0; i < 1000; i++) {
          granted.addAndGet(b.tryHedge() ? 1 : 0);
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(100, granted.get());
    assertEquals(0, b.microTokens());
  }

  @Test
  void refusesRatiosOutsideZeroToOneAndAnEmptyBurst() {
    for (double bad : new double[] {0, -0.1, 1.01, Double.NaN}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> new HedgeBudget(bad, 10));
      assertTrue(e.getMessage().contains("0 < ratio <= 1"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> new HedgeBudget(0.1, 0));
  }

  private static HedgeBudget emptied(HedgeBudget b) {
    while (b.tryHedge()) {
      // spend the initial burst
    }
    return b;
  }
}
