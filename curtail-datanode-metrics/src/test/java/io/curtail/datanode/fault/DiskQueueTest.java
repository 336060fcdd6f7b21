package io.curtail.datanode.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The disk model in virtual time: no sleeps. */
class DiskQueueTest {
  private static final long S = 1_000_000; // 1 ms service time

  @Test
  void requestsQueueFirstInFirstOut() {
    DiskQueue disk = new DiskQueue(S, 0, 1, 0);
    assertEquals(S, disk.admit(0));
    assertEquals(2 * S, disk.admit(0));
    assertEquals(3 * S, disk.admit(S / 2)); // arrives while two are ahead of it
    assertEquals(11 * S, disk.admit(10 * S)); // idle disk: just the service time
  }

  @Test
  void backgroundLoadDelaysAsTheMD1QueuePredicts() {
    double background = 0.5;
    double foreground = 0.05; // rare foreground arrivals, so the prediction is for their sum
    DiskQueue disk = new DiskQueue(S, background, 42, 0);
    SplittableRandom arrivals = new SplittableRandom(7);
    long now = 0;
    double totalWait = 0;
    int n = 50_000;
    for (int i = 0; i < n; i++) {
      now += (long) (-Math.log(1 - arrivals.nextDouble()) * S / foreground);
      totalWait += disk.admit(now) - now - S;
    }
    double rho = background + foreground;
    double predicted = rho * S / (2 * (1 - rho)); // Pollaczek–Khinchine, deterministic service
    assertEquals(predicted, totalWait / n, predicted * 0.1);
  }

  @Test
  void longIdlePeriodsCostBoundedWork() {
    DiskQueue disk = new DiskQueue(S, 0.9, 3, 0);
    long later = Long.MAX_VALUE / 4;
    long done = disk.admit(later);
    // Within the backlog a 0.9-utilised disk can plausibly hold, and computed without looping
    // over the ~10^15 arrivals in between.
    assertEquals(true, done - later >= S && done - later < 10_000 * S, "waited " + (done - later));
  }

  @Test
  void rejectsNonsense() {
    assertThrows(IllegalArgumentException.class, () -> new DiskQueue(0, 0, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new DiskQueue(S, 1.0, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new DiskQueue(S, -0.1, 1, 0));
  }
}
