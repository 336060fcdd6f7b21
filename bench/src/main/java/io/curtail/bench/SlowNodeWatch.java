package io.curtail.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Watches, during a long run, what each cluster's NameNode knows of slow DataNodes (its slow peers
 * and slow disks reports), and notes every change with the time it was seen: whether, and when,
 * stock's NameNode-driven slow-node features had anything to act on.
 */
final class SlowNodeWatch implements AutoCloseable {
  private static final long PERIOD_SECONDS = 5;

  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "curtail-bench-slow-node-watch");
    t.setDaemon(true);
    return t;
  });
  private final long startNanos = System.nanoTime();
  private final Map<Target.Cluster, String> last = new HashMap<>();

  private SlowNodeWatch() {}

  /** Starts watching {@code clusters}; each change goes to {@code events} as one line. */
  static SlowNodeWatch start(Iterable<Target.Cluster> clusters, Consumer<String> events) {
    SlowNodeWatch w = new SlowNodeWatch();
    List<Target.Cluster> list = new ArrayList<>();
    clusters.forEach(list::add);
    w.timer.scheduleWithFixedDelay(() -> {
      for (int i = 0; i < list.size(); i++) {
        w.look(i, list.get(i), events);
      }
    }, 0, PERIOD_SECONDS, TimeUnit.SECONDS);
    return w;
  }

  private void look(int index, Target.Cluster c, Consumer<String> events) {
    String now;
    try {
      now = c.slowNodeReports();
    } catch (RuntimeException e) {
      now = "unreadable: " + e;
    }
    if (now != null && !now.equals(last.put(c, now))) {
      long s = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos);
      events.accept(String.format("%d:%02d cluster %d (%s): %s", s / 60, s % 60, index, c.uri(),
          now));
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
