package io.curtail.client.runtime;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a client's periodic checks (the hedge watchdog, the fail-fast check of silent pipelines,
 * lease renewal) while there is something to check: a task ticks only while its {@link Periodic}
 * is held (by open streams, reads in flight), and at most once more, so an idle file system wakes
 * no thread — an application holding many (HBase, a Spark driver) pays nothing for those it is
 * not using.
 * Injected so that unit tests run a check by hand at the moment they choose instead of waiting
 * for a timer thread.
 */
public interface Scheduler extends AutoCloseable {
  /**
   * Runs {@code task} every {@code periodNanos} while the returned handle is held, the first time
   * at most one period after it is held; until closed.
   */
  Periodic every(long periodNanos, Runnable task);

  /** Stops every task; one running finishes. */
  @Override
  void close();

  /**
   * One daemon thread named {@code name} that runs every task. A released task is not cancelled
   * at once: its next tick finds it unwanted and stops it, on the pool's own thread. Holding it
   * again before then costs nothing: scheduling a task, or cancelling one, signals the pool's
   * thread, a futex wake of a few microseconds on the holder's thread, which a client reading
   * small ranges back to back (its watchdog held and released with every read) paid on every
   * read. An idle file system's tasks still stop, one period after it went idle.
   */
  static Scheduler daemon(String name) {
    ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1, daemonThreads(name));
    pool.setRemoveOnCancelPolicy(true); // an idle pool's thread waits with no timeout
    return new Scheduler() {
      @Override
      public Periodic every(long periodNanos, Runnable task) {
        Object lock = new Object();
        ScheduledFuture<?>[] ticking = new ScheduledFuture<?>[1]; // guarded by lock
        boolean[] wanted = new boolean[1]; // guarded by lock
        Runnable tick = () -> {
          synchronized (lock) {
            if (!wanted[0]) { // released since the last tick: stop here, no thread to wake
              ticking[0].cancel(false);
              ticking[0] = null;
              return;
            }
          }
          task.run();
        };
        return new Periodic(() -> {
          synchronized (lock) {
            wanted[0] = true;
            if (ticking[0] == null && !pool.isShutdown()) {
              ticking[0] = pool.scheduleWithFixedDelay(tick, periodNanos, periodNanos,
                  TimeUnit.NANOSECONDS);
            }
          }
        }, () -> {
          synchronized (lock) {
            wanted[0] = false;
          }
        });
      }

      @Override
      public void close() {
        pool.shutdownNow();
      }
    };
  }

  /** Threads named {@code prefix-1}, {@code prefix-2}, …, all daemons: never keep a JVM alive. */
  public static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
