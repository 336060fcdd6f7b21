package io.curtail.client.write.striped;

import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.metrics.ClientMetrics;
import io.curtail.client.policy.Slowness;
import io.curtail.client.policy.StripedDrop;
import io.curtail.client.runtime.AvoidedNodes;
import io.curtail.client.runtime.NanoClock;
import io.curtail.client.runtime.Periodic;
import io.curtail.client.runtime.Scheduler;
import io.curtail.client.stats.StatsLog;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hdfs.DFSOutputStream;
import org.apache.hadoop.hdfs.DFSStripedOutputStream;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the stock striped streams of one file system and lets the one streamer of a block
 * group that falls behind go, as stock lets a <em>failed</em> one go ({@code curtail.write.
 * striped.drop}; issue 36). Every {@link #PERIOD_NANOS} it looks at each open stream's streamers
 * ({@link StripedStreams.Streamers}: sequence numbers, block, DataNode), turns what it sees into
 * the time each one's DataNode takes per packet ({@link StreamerPace}) and asks
 * {@link StripedDrop}, the rule, whether to let the slowest go; if so it closes that streamer's
 * connection, and stock's own handling of
 * a failed DataNode does the rest: the other streamers go on under a new generation stamp, the
 * group completes with {@code k + m − 1} internal blocks, and the NameNode reconstructs the
 * missing one. Policies with one parity unit (XOR-2-1) are not watched: the rule never drops
 * there.
 *
 * <p>The rule is the pipelines' ({@link Slowness}: the factor, the percentile, the samples), with
 * a margin of at least two looks, since a packet's time measured by looks a period apart is
 * within a period of the truth at each end. What a stream learns of a DataNode's pace its file
 * system's other streams share ({@link DataNodePaces}), as pipelines share the JVM's trackers: a
 * DataNode one group found slow is judged so as soon as the next group, or the next file, starts
 * on it; but it is let go only while it is slow now (waiting on a packet for longer than the
 * margin), so one that has recovered is kept and its new samples clear its name.
 *
 * <p>Thread-safe: streams are added by writers, looked at by the scheduler's one thread, which
 * alone owns each {@link WatchedStream}. A stream whose streamers cannot be read (a Hadoop that
 * changed under the members found at start-up) is logged and left to stock, unwatched.
 */
public final class StripedWatch {
  private static final Logger LOG = LoggerFactory.getLogger(StripedWatch.class);
  /**
   * How often streams are looked at: a slow DataNode's packet takes several periods, a healthy
   * one's a fraction of one. A look costs a few microseconds a streamer.
   */
  static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
  /**
   * What letting a streamer go costs the group's others: a new generation stamp from the
   * NameNode, each remaining streamer connecting again, the NameNode told the new pipeline. Tens
   * of milliseconds on a healthy cluster; counted generously.
   */
  static final long RECOVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  /** Drops remembered for {@link #recentDrops()}, the newest. */
  static final int RECENT = 256;

  private final StripedDrop policy;
  private final WatchedStream.Slack slack;
  private final int window;
  private final NanoClock clock;
  private final AvoidedNodes slowNodes;
  private final Periodic looks;
  private final Set<WatchedStream> streams = ConcurrentHashMap.newKeySet();
  /** What the streams learnt of DataNodes' pace: the scheduler thread's. */
  private final DataNodePaces paces;
  /** The scheduler thread's, sized for a window and a wait. */
  private final long[] scratch;
  private final LongAdder groups = new LongAdder();
  private final LongAdder drops = new LongAdder();
  private final Deque<Dropped> recent = new ArrayDeque<>();
  private volatile StatsLog stats;

  /**
   * @param slowNodes where a DataNode let go is remembered as slow (new blocks avoid it)
   */
  public StripedWatch(CurtailConfig config, NanoClock clock, Scheduler scheduler,
      AvoidedNodes slowNodes) {
    long margin = Math.max(config.minSlowdownNanos(), 2 * PERIOD_NANOS);
    this.window = config.writeWindowPackets();
    this.policy = new StripedDrop(new Slowness(config.slownessFactor(), margin,
        Slowness.minSamples(config.slownessPercentile(), window)));
    this.slack = new WatchedStream.Slack(config.slownessPercentile(), margin, RECOVERY_NANOS);
    this.clock = clock;
    this.slowNodes = slowNodes;
    this.scratch = new long[window + 1];
    this.paces = new DataNodePaces(config.knowledgeMemoryNanos());
    this.looks = scheduler.every(PERIOD_NANOS, this::lookAtAll);
  }

  /**
   * Watches {@code out}, stock's striped stream just started for {@code src}, until it closes;
   * does nothing for a policy with a single parity unit.
   */
  public void watch(DFSOutputStream out, String src, ErasureCodingPolicy ec) {
    if (!(out instanceof DFSStripedOutputStream) || ec == null || ec.getNumParityUnits() < 2) {
      return;
    }
    WatchedStream w = new WatchedStream(src,
        StripedStreams.streamers((DFSStripedOutputStream) out), ec.getNumDataUnits(),
        ec.getNumParityUnits(), window, paces);
    streams.add(w);
    looks.hold();
  }

  /** Sends a record of every block group watched from now on to {@code log}. */
  public void logStatsTo(StatsLog log) {
    this.stats = log;
  }

  /** Block groups seen being written by watched streams. */
  public long groups() {
    return groups.sum();
  }

  /** Streamers let go, each of its own block group. */
  public long drops() {
    return drops.sum();
  }

  /** The latest streamers let go, oldest first. */
  public List<Dropped> recentDrops() {
    synchronized (recent) {
      return new ArrayList<>(recent);
    }
  }

  /** Streams under watch now. */
  public int watching() {
    return streams.size();
  }

  /** One look at every stream: the scheduler's task, which must not throw (it would stop). */
  private void lookAtAll() {
    long now = clock.nanoTime();
    StatsLog log = stats;
    for (Iterator<WatchedStream> it = streams.iterator(); it.hasNext(); ) {
      WatchedStream w = it.next();
      long groupsBefore = w.groups();
      WatchedStream.Outcome outcome;
      try {
        outcome = w.look(now, policy, slack, scratch, log);
      } catch (ReflectiveOperationException | RuntimeException e) {
        LOG.warn("Cannot watch the striped stream of file={} any longer; stock's stream goes on"
            + " unwatched", w.src, e);
        outcome = WatchedStream.Outcome.CLOSED;
        w.endGroup(now);
      }
      groups.add(w.groups() - groupsBefore);
      if (outcome == WatchedStream.Outcome.DROPPED) {
        dropped(w.lastDrop());
      } else if (outcome == WatchedStream.Outcome.CLOSED) {
        it.remove();
        looks.release();
        paces.forgetStale(now);
      }
    }
  }

  private void dropped(Dropped d) {
    drops.increment();
    ClientMetrics.JVM.stripedDrops.increment();
    slowNodes.avoid(d.dataNode()); // new blocks avoid it, as a DataNode fail-fast replaced
    synchronized (recent) {
      if (recent.size() == RECENT) {
        recent.removeFirst();
      }
      recent.addLast(d);
    }
    LOG.info("Striped drop file={} group={} block={} index={} datanode={} afterMs={} stats={}"
        + " decision={}", d.file(), d.groupId(), d.blockId(), d.index(),
        d.dataNode().getXferAddr(), TimeUnit.NANOSECONDS.toMillis(d.afterNanos()), d.stats(),
        d.decision());
  }
}
