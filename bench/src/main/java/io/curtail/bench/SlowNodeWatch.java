package io.curtail.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
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
  /**
   * When each cluster's reports began and stopped naming a slow node, alternately ({@link
   * Phases#watched}); written by the timer's one thread, read once it is done.
   */
  private final Map<Target.Cluster, List<Long>> changes = new ConcurrentHashMap<>();

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
    List<Long> seen = changes.computeIfAbsent(c, k -> new CopyOnWriteArrayList<>());
    if (named != (seen.size() % 2 == 1)) {
      seen.add(named && !last.containsKey(c) ? Long.MIN_VALUE : System.nanoTime());
    }
    if (now != null && !now.equals(last.put(c, now))) {
      long s = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos);
      events.accept(String.format("%d:%02d cluster %d (%s): %s", s / 60, s % 60, index, c.uri(),
          now));
    }
  }

  /**
   * What {@code c}'s NameNode did while watched, in ns since {@code epochNanos}; unknown if its
   * reports could not be seen.
   */
  Phases phases(Target.Cluster c, long epochNanos) {
    if (last.get(c) == null) {
      return Phases.UNKNOWN;
    }
    List<Long> seen = changes.getOrDefault(c, List.of());
    long[] since = new long[seen.size()];
    for (int i = 0; i < since.length; i++) {
      since[i] = seen.get(i) == Long.MIN_VALUE ? Long.MIN_VALUE : seen.get(i) - epochNanos;
    }
    return Phases.watched(startNanos - epochNanos, since);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
