package io.curtail.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
  private final Map<Target.Cluster, String> last = new ConcurrentHashMap<>();
  /** When each cluster's reports first named a slow node; MIN_VALUE: at the first look. */
  private final Map<Target.Cluster, Long> firstNamed = new ConcurrentHashMap<>();

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
    boolean named;
    try {
      now = c.slowNodeReports();
      named = Phases.namesASlowNode(now);
    } catch (RuntimeException e) {
      now = "unreadable: " + e;
      named = false;
    }
    if (named) {
      firstNamed.putIfAbsent(c, last.containsKey(c) ? System.nanoTime() : Long.MIN_VALUE);
    }
    if (now != null && !now.equals(last.put(c, now))) {
      long s = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos);
      events.accept(String.format("%d:%02d cluster %d (%s): %s", s / 60, s % 60, index, c.uri(),
          now));
    }
  }

  /**
   * What {@code c}'s NameNode did while watched, in ns since {@code epochNanos}: named a slow node
   * before the watch began, at a time, or never; unknown if its reports could not be seen.
   */
  Phases phases(Target.Cluster c, long epochNanos) {
    long start = startNanos - epochNanos;
    Long named = firstNamed.get(c);
    if (named != null) {
      return named == Long.MIN_VALUE ? Phases.actedBefore(start)
          : Phases.actedAt(start, named - epochNanos);
    }
    return last.get(c) == null ? Phases.UNKNOWN : Phases.never(start);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
