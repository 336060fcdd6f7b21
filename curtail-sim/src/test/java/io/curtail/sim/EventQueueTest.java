package io.curtail.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The clock stands at each event's time when it fires; ties fire in the order scheduled. */
class EventQueueTest {
  private final EventQueue q = new EventQueue();
  private final List<String> fired = new ArrayList<>();

  private EventQueue.Event named(String name) {
    return (now, tag) -> fired.add(name + "@" + now + "/" + tag + " clock=" + q.nanoTime());
  }

  @Test
  void firesInTimeOrderWithTheClockAtEachEventsTime() {
    q.at(30, named("c"), 3);
    q.at(10, named("a"), 1);
    q.at(20, named("b"), 2);
    q.runUntil(100);
    assertEquals(List.of("a@10/1 clock=10", "b@20/2 clock=20", "c@30/3 clock=30"), fired);
    assertEquals(100, q.nanoTime(), "the clock is left at the end of the run");
  }

  @Test
  void simultaneousEventsFireInTheOrderTheyWereScheduled() {
    for (int i = 0; i < 50; i++) {
      q.at(7, named("e" + i), i);
    }
    q.runUntil(7);
    for (int i = 0; i < 50; i++) {
      assertEquals("e" + i + "@7/" + i + " clock=7", fired.get(i));
    }
  }

  @Test
  void anEventDueAfterTheEndWaitsOneTickAfterNot() {
    q.at(1000, named("late"), 0);
    q.runUntil(999);
    assertEquals(List.of(), fired, "one tick before it is due, nothing");
    assertEquals(999, q.nanoTime());
    q.runUntil(1000);
    assertEquals(List.of("late@1000/0 clock=1000"), fired, "at its time, it fires");
    assertEquals(0, q.pending(), "nothing left pending");
  }

  @Test
  void anEventMayScheduleAnotherAtTheSameTime() {
    q.at(5, (now, tag) -> {
      fired.add("first@" + now);
      q.after(0, named("second"), 9);
    }, 0);
    q.at(5, named("peer"), 1);
    q.runUntil(5);
    assertEquals(List.of("first@5", "peer@5/1 clock=5", "second@5/9 clock=5"), fired,
        "scheduled later, so after the peer scheduled before it");
  }

  @Test
  void refusesThePast() {
    q.at(10, named("a"), 0);
    q.runUntil(10);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> q.at(9, named("b"), 0));
    assertEquals("an event at 9 ns is in the past: the clock stands at 10 ns", e.getMessage());
  }

  @Test
  void growsPastItsFirstArrayKeepingOrder() {
    long[] seen = new long[5000];
    int[] n = {0};
    for (int i = 4999; i >= 0; i--) {
      q.at(i / 2, (now, tag) -> seen[n[0]++] = tag, i);
    }
    q.runUntil(Long.MAX_VALUE);
    assertEquals(5000, q.fired());
    for (int i = 1; i < 5000; i++) {
      // by time; within a time, by scheduling order (the larger tag was scheduled first)
      assertFalse(seen[i] / 2 < seen[i - 1] / 2, "out of order at " + i);
      if (seen[i] / 2 == seen[i - 1] / 2) {
        assertEquals(seen[i - 1] - 1, seen[i]);
      }
    }
  }
}
