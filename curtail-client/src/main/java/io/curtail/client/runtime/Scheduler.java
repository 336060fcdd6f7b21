package io.curtail.client.runtime;

import java.util.concurrent.ThreadFactory;
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

  /** One daemon thread named {@code name} that runs every task ({@link DaemonScheduler}). */
  static Scheduler daemon(String name) {
    return new DaemonScheduler(name);
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
