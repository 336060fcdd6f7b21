package io.curtail.client;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Named daemon threads for Curtail's pools: they never keep a client JVM alive. */
public final class DaemonThreads {
  private DaemonThreads() {
  }

  /** Threads named {@code prefix-1}, {@code prefix-2}, …, all daemons. */
  public static ThreadFactory named(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
