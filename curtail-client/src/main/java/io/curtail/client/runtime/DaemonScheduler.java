package io.curtail.client.runtime;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The {@link Scheduler} of a client: one daemon thread runs every task. A released task is not
 * cancelled at once: its next tick finds it released and stops it, on the pool's own thread.
 * Holding it again before then costs nothing. Scheduling a task, or cancelling one, signals the
 * pool's thread, a futex wake of a few microseconds on the caller's; a client reading small
 * ranges one after another holds and releases its watchdog with every read, and paid that on
 * every read. An idle file system's tasks still stop, within one period of going idle.
 */
final class DaemonScheduler implements Scheduler {
  private final ScheduledThreadPoolExecutor pool;

  DaemonScheduler(String name) {
    pool = new ScheduledThreadPoolExecutor(1, Scheduler.daemonThreads(name));
    pool.setRemoveOnCancelPolicy(true); // an idle pool's thread waits with no timeout
  }

  @Override
  public Periodic every(long periodNanos, Runnable task) {
    Ticks ticks = new Ticks(periodNanos, task);
    return new Periodic(ticks::want, ticks::release);
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }

  /** One task's schedule: ticking while wanted, and until its first tick after. */
  private final class Ticks implements Runnable {
    private final long periodNanos;
    private final Runnable task;
    // Guarded by this.
    private boolean wanted;
    private ScheduledFuture<?> scheduled;

    Ticks(long periodNanos, Runnable task) {
      this.periodNanos = periodNanos;
      this.task = task;
    }

    synchronized void want() {
      wanted = true;
      if (scheduled == null && !pool.isShutdown()) {
        scheduled = pool.scheduleWithFixedDelay(this, periodNanos, periodNanos,
            TimeUnit.NANOSECONDS);
      }
    }

    synchronized void release() {
      wanted = false;
    }

    @Override
    public void run() {
      synchronized (this) {
        if (!wanted) { // released since: stop here, on the pool's thread, which wakes nobody
          scheduled.cancel(false);
          scheduled = null;
          return;
        }
      }
      task.run();
    }
  }
}
