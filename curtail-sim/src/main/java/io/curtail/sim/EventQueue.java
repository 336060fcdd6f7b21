package io.curtail.sim;

import io.curtail.client.runtime.NanoClock;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * The simulation's clock and its pending events: a binary heap ordered by time, then by the order
 * events were scheduled, so that a run is a function of its seed alone (two events due at the same
 * nanosecond fire in the order they were scheduled, whatever the heap's layout).
 *
 * <p>The clock is what the client's classes read ({@link NanoClock}, and the registry's
 * {@link LongSupplier}): it stands at the time of the event being fired and moves only when the
 * next one is taken. Single-threaded, as the whole simulation is. The heap holds parallel arrays,
 * not an object per entry: a run at scale fires billions of events.
 */
public final class EventQueue implements NanoClock, LongSupplier {
  /** What fires: {@code tag} says which of its steps, so an object can stand for several. */
  public interface Event {
    void fire(long now, int tag);
  }

  private long[] times = new long[1024];
  private long[] seqs = new long[1024];
  private Event[] events = new Event[1024];
  private int[] tags = new int[1024];
  private int size;
  private long nextSeq;
  private long now;
  private long fired;

  /** Schedules {@code e} with {@code tag} at {@code time}, which must not be in the past. */
  public void at(long time, Event e, int tag) {
    if (time < now) {
      throw new IllegalArgumentException("an event at " + time + " ns is in the past: the clock"
          + " stands at " + now + " ns");
    }
    if (size == times.length) {
      int n = size * 2;
      times = Arrays.copyOf(times, n);
      seqs = Arrays.copyOf(seqs, n);
      events = Arrays.copyOf(events, n);
      tags = Arrays.copyOf(tags, n);
    }
    int i = size++;
    long seq = nextSeq++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!before(time, seq, times[parent], seqs[parent])) {
        break;
      }
      move(parent, i);
      i = parent;
    }
    put(i, time, seq, e, tag);
  }

  /** Schedules {@code e} {@code delay} ns from now. */
  public void after(long delay, Event e, int tag) {
    at(now + delay, e, tag);
  }

  /** Fires the earliest event; false if there is none or it is after {@code until}. */
  public boolean step(long until) {
    if (size == 0 || times[0] > until) {
      return false;
    }
    long time = times[0];
    Event e = events[0];
    int tag = tags[0];
    removeTop();
    now = time;
    fired++;
    e.fire(time, tag);
    return true;
  }

  /** Fires every event due up to {@code until}, then leaves the clock there. */
  public void runUntil(long until) {
    while (step(until)) {
      // each step fires one event
    }
    now = Math.max(now, until);
  }

  @Override
  public long nanoTime() {
    return now;
  }

  @Override
  public long getAsLong() {
    return now;
  }

  public int pending() {
    return size;
  }

  /** Events fired since the start. */
  public long fired() {
    return fired;
  }

  private void removeTop() {
    int last = --size;
    long t = times[last];
    long s = seqs[last];
    Event e = events[last];
    int tag = tags[last];
    events[last] = null;
    if (last == 0) {
      return;
    }
    int i = 0;
    while (true) {
      int child = 2 * i + 1;
      if (child >= last) {
        break;
      }
      if (child + 1 < last && before(times[child + 1], seqs[child + 1], times[child], seqs[child])) {
        child++;
      }
      if (!before(times[child], seqs[child], t, s)) {
        break;
      }
      move(child, i);
      i = child;
    }
    put(i, t, s, e, tag);
  }

  private static boolean before(long t1, long s1, long t2, long s2) {
    return t1 < t2 || (t1 == t2 && s1 < s2);
  }

  private void move(int from, int to) {
    put(to, times[from], seqs[from], events[from], tags[from]);
  }

  private void put(int i, long t, long s, Event e, int tag) {
    times[i] = t;
    seqs[i] = s;
    events[i] = e;
    tags[i] = tag;
  }
}
