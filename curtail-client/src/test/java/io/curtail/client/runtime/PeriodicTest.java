package io.curtail.client.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PeriodicTest {
  private final List<String> calls = new ArrayList<>();
  private final Periodic task = new Periodic(() -> calls.add("start"), () -> calls.add("stop"));

  @Test
  void ticksFromTheFirstHoldToTheLastRelease() {
    assertFalse(task.ticking(), "nothing ticks before anyone holds it");
    task.hold();
    task.hold();
    task.release();
    assertTrue(task.ticking(), "one holder left");
    task.release();
    assertFalse(task.ticking());
    task.hold();
    assertEquals(List.of("start", "stop", "start"), calls);
  }

  @Test
  void holdsAndReleasesRacingPastZeroEndAsTheCountSays() throws Exception {
    int threads = 4;
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread th = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < 20_000; i++) {
          task.hold();
          task.release();
        }
      });
      th.start();
      all.add(th);
    }
    go.countDown();
    for (Thread th : all) {
      th.join();
    }
    assertFalse(task.ticking(), "every hold was released");
    synchronized (task) {
      for (int i = 0; i < calls.size(); i++) {
        assertEquals(i % 2 == 0 ? "start" : "stop", calls.get(i), "start and stop alternate");
      }
    }
  }

  @Test
  void aDaemonSchedulerRunsATaskOnlyWhileHeld() throws Exception {
    try (Scheduler s = Scheduler.daemon("periodic-test")) {
      CountDownLatch ticked = new CountDownLatch(3);
      Periodic p = s.every(1_000_000, ticked::countDown);
      Thread.sleep(50);
      assertEquals(3, ticked.getCount(), "not held, never ran");
      p.hold();
      ticked.await();
      p.release();
      assertFalse(p.ticking());
    }
  }

  @Test
  void aReleasedTaskStopsAtItsNextTickAndStartsAgainWhenHeld() throws Exception {
    try (Scheduler s = Scheduler.daemon("periodic-test")) {
      AtomicInteger runs = new AtomicInteger();
      Periodic p = s.every(1_000_000, runs::incrementAndGet);
      p.hold();
      while (runs.get() < 2) {
        Thread.sleep(1);
      }
      p.release();
      Thread.sleep(200); // its next tick stops it; one running at the release may finish
      int after = runs.get();
      Thread.sleep(50);
      assertEquals(after, runs.get(), "ran while released");
      p.hold();
      while (runs.get() < after + 2) {
        Thread.sleep(1); // held again after it stopped itself: scheduled afresh
      }
      p.release();
    }
  }
}
