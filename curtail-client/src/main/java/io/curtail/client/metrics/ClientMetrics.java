package io.curtail.client.metrics;

import io.curtail.client.runtime.CurtailRuntime;
import io.curtail.client.track.LatencyWindow;
import io.curtail.client.track.NodeTracker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.impl.MetricsSystemImpl;
import org.apache.hadoop.metrics2.lib.Interns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every Curtail file system of this JVM did, as a Hadoop metrics2 source: over JMX as
 * {@code Hadoop:service=CurtailClient,name=CurtailClient}, and to any metrics2 sink configured
 * for the prefix {@code curtailclient} ({@code hadoop-metrics2-curtailclient.properties} or
 * {@code hadoop-metrics2.properties}). Counters are the JVM's since it started; the DataNodes
 * part names the few slowest DataNodes the JVM knows, by their reads' p95, with their read and
 * write p50 and p95. Curtail's metrics system is its own, so a client JVM that also runs a
 * DataNode or NodeManager (tests, the benchmark) keeps both apart.
 */
public final class ClientMetrics implements MetricsSource {
  private static final Logger LOG = LoggerFactory.getLogger(ClientMetrics.class);
  /** The JVM's counters, which every file system adds to. */
  public static final ClientMetrics JVM = new ClientMetrics();
  static final String NAME = "CurtailClient";
  /** Slowest DataNodes reported. */
  static final int SLOWEST = 5;
  private static final int WINDOW = 20;
  private static MetricsSystem system;

  public final LongAdder hedgesTried = new LongAdder();
  public final LongAdder hedgesWon = new LongAdder();
  public final LongAdder hedgesLost = new LongAdder();
  public final LongAdder hedgesDenied = new LongAdder();
  public final LongAdder hedgedBytes = new LongAdder();
  public final LongAdder replacements = new LongAdder();
  public final LongAdder stripedDrops = new LongAdder();
  public final LongAdder rebuildsAborted = new LongAdder();
  public final LongAdder pipelineRecoveries = new LongAdder();
  public final LongAdder busyAvoided = new LongAdder();
  public final LongAdder statsDropped = new LongAdder();

  private ClientMetrics() {
  }

  /**
   * Registers the JVM's source with Curtail's metrics system, starting it on first use. Never
   * fails a file system: a metrics system that cannot start is logged and left out.
   */
  public static synchronized void register() {
    if (system != null) {
      return;
    }
    try {
      MetricsSystem s = new MetricsSystemImpl(NAME);
      s.init(NAME); // the JMX service name; the config prefix is its lower case
      s.register(NAME, "What Curtail's file systems in this JVM did", JVM);
      system = s;
    } catch (RuntimeException e) {
      LOG.warn("Curtail's client metrics are off reason={}", e.toString());
    }
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder r = collector.addRecord(NAME).setContext("curtail");
    counter(r, "HedgesTried", "hedged reads started", hedgesTried);
    counter(r, "HedgesWon", "hedges that delivered first", hedgesWon);
    counter(r, "HedgesLost", "hedges that failed or came second", hedgesLost);
    counter(r, "HedgesDenied", "slow packets the hedge budget refused a hedge", hedgesDenied);
    counter(r, "HedgedBytes", "bytes hedges received while racing", hedgedBytes);
    counter(r, "Replacements", "slow DataNodes fail-fast replaced", replacements);
    counter(r, "StripedDrops", "streamers of block groups let go for falling behind",
        stripedDrops);
    counter(r, "RebuildsAborted", "rebuilds on a replacement aborted", rebuildsAborted);
    counter(r, "PipelineRecoveries", "pipelines recovered after a failure", pipelineRecoveries);
    counter(r, "BusyAvoided", "DataNodes avoided for saying they are busy", busyAvoided);
    counter(r, "StatsDropped", "per-block records dropped on a full queue", statsDropped);
    List<NodeTracker> slowest = slowest();
    for (int i = 0; i < slowest.size(); i++) {
      NodeTracker t = slowest.get(i);
      String n = "SlowDataNode" + (i + 1);
      r.tag(Interns.info(n, "DataNode, by reads' p95, rank " + (i + 1)), t.node().toString());
      gauge(r, n + "ReadP50Micros", "its reads' p50", t.reads(), 0.5);
      gauge(r, n + "ReadP95Micros", "its reads' p95", t.reads(), 0.95);
      gauge(r, n + "WriteP50Micros", "its writes' p50", t.writes(), 0.5);
      gauge(r, n + "WriteP95Micros", "its writes' p95", t.writes(), 0.95);
    }
  }

  private static void counter(MetricsRecordBuilder r, String name, String what, LongAdder v) {
    r.addCounter(Interns.info(name, what), v.sum());
  }

  private static void gauge(MetricsRecordBuilder r, String name, String what, LatencyWindow w,
      double percentile) {
    long nanos = w.stats(WINDOW, percentile, new long[WINDOW]).percentileNanos();
    r.addGauge(Interns.info(name, what), TimeUnit.NANOSECONDS.toMicros(nanos));
  }

  /** The DataNodes with the slowest reads' p95 among those the JVM's runtimes know. */
  static List<NodeTracker> slowest() {
    // Each tracker's p95 once, then sorted by it: a window's samples keep moving meanwhile.
    Map<NodeTracker, Long> p95 = new HashMap<>();
    long[] scratch = new long[WINDOW];
    for (CurtailRuntime runtime : CurtailRuntime.shared()) {
      for (NodeTracker t : runtime.registry().trackers()) {
        if (t.reads().available(WINDOW) > 0) {
          p95.put(t, t.reads().stats(WINDOW, 0.95, scratch).percentileNanos());
        }
      }
    }
    List<NodeTracker> known = new ArrayList<>(p95.keySet());
    known.sort(Comparator.comparingLong((NodeTracker t) -> p95.get(t)).reversed());
    return known.subList(0, Math.min(SLOWEST, known.size()));
  }
}
