package io.curtail.client.runtime;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a client's periodic checks (the hedge watchdog, the fail-fast check of silent pipelines,
 * lease renewal). Injected so that unit tests run a check by hand at the moment they choose
 * instead of waiting for a timer thread.
 */
public interface Scheduler extends AutoCloseable {
  /** Runs {@code task} every {@code periodNanos}, first after one period, until closed. */
  void every(long periodNanos, Runnable task);

  /** Stops every task; one running finishes. */
  @Override
  void close();

  /** One daemon thread named {@code name} that runs every task. */
  static Scheduler daemon(String name) {
    ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1, daemonThreads(name));
    pool.setRemoveOnCancelPolicy(true);
    return new Scheduler() {
      @Override
      public void every(long periodNanos, Runnable task) {
        pool.scheduleWithFixedDelay(task, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
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
