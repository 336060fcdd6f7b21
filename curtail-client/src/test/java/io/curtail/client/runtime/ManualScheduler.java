package io.curtail.client.runtime;

import java.util.ArrayList;
import java.util.List;

/** A {@link Scheduler} whose tasks run when a test says so, on the test's thread. */
public final class ManualScheduler implements Scheduler {
  private final List<Runnable> tasks = new ArrayList<>();
  private final List<Long> periods = new ArrayList<>();
  private final List<Periodic> handles = new ArrayList<>();
  private boolean closed;

  @Override
  public Periodic every(long periodNanos, Runnable task) {
    tasks.add(task);
    periods.add(periodNanos);
    Periodic p = new Periodic(() -> { }, () -> { });
    handles.add(p);
    return p;
  }

  /** Runs every task once, in the order they were scheduled, held or not. */
  public void runAll() {
    for (Runnable t : tasks) {
      t.run();
    }
  }

  /** The period of the {@code i}-th task scheduled. */
  public long periodNanos(int i) {
    return periods.get(i);
  }

  /** Whether the {@code i}-th task scheduled would be ticking now (someone holds it). */
  public boolean ticking(int i) {
    return handles.get(i).ticking();
  }

  public boolean closed() {
    return closed;
  }

  @Override
  public void close() {
    closed = true;
  }
}
