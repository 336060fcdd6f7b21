package io.curtail.client.read;

import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.conf.HedgingMode;
import io.curtail.client.metrics.ClientMetrics;
import io.curtail.client.policy.HedgeBackoff;
import io.curtail.client.policy.Hedging;
import io.curtail.client.policy.ReplicaOrder;
import io.curtail.client.policy.ReportedLoad;
import io.curtail.client.policy.Slowness;
import io.curtail.client.runtime.CurtailRuntime;
import io.curtail.client.runtime.NanoClock;
import io.curtail.client.runtime.Periodic;
import io.curtail.client.runtime.Scheduler;
import io.curtail.client.stats.StatsLog;
import io.curtail.client.trace.BlockObserver;
import io.curtail.client.trace.Tracing;
import io.curtail.client.track.NodeId;
import io.curtail.client.track.NodeTracker;
import io.curtail.client.track.Pauses;
import io.curtail.client.wire.Abortable;
import io.curtail.client.wire.ConnectionPool;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import javax.net.SocketFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the read streams of one Curtail file system share: the hedging policy and thresholds
 * ({@link HedgeThresholds}), each DataNode's hedge backoff, the client's packet count that
 * backoffs are measured in, the bound on hedges in flight, the watchdog and the threads that run
 * hedges, and the counters the benchmark reads.
 *
 * <p>Hedging is per client (paper §4.3): one client's hedges and backoffs do not leak into
 * another's, unlike stock HDFS, whose hedged-read pool is JVM-wide. Latency knowledge and the
 * hedge budget are the exceptions: they live in the {@link CurtailRuntime} file systems share, so
 * that many short-lived clients of one JVM hedge no more than one would.
 */
public final class ReadContext implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReadContext.class);
  private static final AtomicInteger CLIENTS = new AtomicInteger();
  /** The percentile of packet times and of starts that replica order takes as typical. */
  static final double TYPICAL_PERCENTILE = 0.5;

  /** A read whose packet in flight the watchdog may hedge. */
  interface Watched<R extends Abortable> {
    /** The packet being read, or null between packets. */
    Race<R> pending();

    /**
     * The hedge threshold of the pending packet's DataNode as the client knows it now (read after
     * {@link #pending()}): it may have adapted since the packet began.
     */
    long thresholdNowNanos();

    /** Called by the watchdog once {@code race} is overdue, {@code seen} its state then. */
    void startHedge(Race<R> race, long seen);
  }

  final CurtailConfig config;
  final CurtailRuntime runtime;
  final NanoClock clock;
  final Hedging hedging;
  /** How long a packet from each DataNode may take before it is hedged. */
  final HedgeThresholds thresholds;
  /** Demotes replicas typically slow to deliver packets: their packets' median. */
  final ReplicaOrder packetOrder;
  /** Demotes replicas typically slow to start reads: their starts' median. */
  final ReplicaOrder startOrder;
  /** Demotes replicas whose packets' tail is slow: their read percentile (p95). */
  final ReplicaOrder tailOrder;
  /** Demotes replicas the NameNode reports loaded; null when that rule is off. */
  final ReportedLoad reportedLoad;
  final SocketFactory sockets;
  /** Idle connections to DataNodes, for the next read to each. */
  final ConnectionPool connections;
  /** How far each DataNode is from this client, for the statistics by distance. */
  final NetworkDistances distances = new NetworkDistances();
  final ExecutorService hedgeThreads;
  /**
   * Reads the pieces of local replicas not known fast, so that their callers can leave a piece
   * waiting on a slow disk to a hedge ({@link LocalReplica}); a thread per such read at most.
   */
  final ExecutorService localPieces;
  final Semaphore hedgesInFlight;
  private final Scheduler scheduler;
  private final Periodic watchdog;
  private final Map<NodeId, HedgeBackoff> backoffs = new ConcurrentHashMap<>();
  /** This client's packet count when a hedge last overtook a read from each DataNode. */
  private final Map<NodeId, Long> overtakenAt = new ConcurrentHashMap<>();
  /** Reads a hedge overtook: a plan made before the last one is stale. */
  private final AtomicLong overtakes = new AtomicLong();
  /** Hedges in flight to each DataNode; taken on the watchdog thread only, given back anywhere. */
  private final Map<NodeId, AtomicInteger> hedgesInFlightTo = new ConcurrentHashMap<>();
  /** When the watchdog found this client paused, to tell that from a slow DataNode; its own. */
  private final Pauses pauses;
  private final Set<Watched<?>> inFlight = ConcurrentHashMap.newKeySet();
  private final AtomicLong packets = new AtomicLong();
  private final LongAdder hedgesTried = new LongAdder();
  private final LongAdder hedgesWon = new LongAdder();
  private final LongAdder hedgesLost = new LongAdder();
  private final LongAdder hedgesDenied = new LongAdder();
  private final LongAdder hedgedBytes = new LongAdder();
  /** Where each block read's record goes; null for nowhere. */
  private volatile StatsLog stats;

  /**
   * @param sockets makes the sockets to DataNodes: the file system's, from
   *     {@code NetUtils.getSocketFactory(conf, ClientProtocol.class)}, as stock reads use
   * @param connections idle connections reads take and give back; released with this
   * @param scheduler runs the watchdog; closed with this
   */
  public ReadContext(CurtailConfig config, CurtailRuntime runtime, SocketFactory sockets,
      ConnectionPool connections, Scheduler scheduler) {
    this.config = config;
    this.runtime = runtime;
    this.clock = runtime.clock();
    this.sockets = sockets;
    this.connections = connections;
    this.hedging = new Hedging(config.staticHedgeThresholdNanos(),
        config.minHedgeThresholdNanos(), config.readHedging() == HedgingMode.SMART,
        config.slownessFactor(), config.readWindowPackets(), config.readHedgingMaxRetries(),
        config.readHedgingBackoffPackets());
    // Replica order compares typical times, medians, judged from two samples (a DataNode gives
    // a read one start but many packets) yet slow only when most recent samples are, never on
    // one stall; and the tail of packet times, which alone shows a throttled DataNode (its
    // packets come in bursts), only from a full window. Each also needs a margin over the
    // fastest, as jitter says nothing: a millisecond or two between healthy packets, but up to
    // ten between healthy starts on a busy machine (a DataNode thread to start, two files to
    // open), so starts and tails need as much as a hedge would (its floor). Demoting a healthy
    // DataNode would move its reads onto the others and make them slower.
    long hedgeFloor = Math.max(config.readMinSlowdownNanos(), config.minHedgeThresholdNanos());
    int typicalSamples = Slowness.minSamples(TYPICAL_PERCENTILE, config.readWindowPackets());
    this.packetOrder = new ReplicaOrder(new Slowness(config.slownessFactor(),
        config.readMinSlowdownNanos(), typicalSamples));
    this.startOrder = new ReplicaOrder(new Slowness(config.slownessFactor(), hedgeFloor,
        typicalSamples));
    this.tailOrder = new ReplicaOrder(new Slowness(config.slownessFactor(), hedgeFloor,
        config.readWindowPackets()));
    this.reportedLoad = config.readNameNodeLoad()
        ? new ReportedLoad(config.readNameNodeLoadFactor(), config.readNameNodeLoadMargin(),
            config.readNameNodeLoadStaleMillis())
        : null;
    this.hedgesInFlight = new Semaphore(config.readHedgingMaxInFlight());
    this.thresholds = new HedgeThresholds(config, hedging, runtime.registry(), packets);
    this.pauses = new Pauses(config.readHedgingCheckNanos());
    this.scheduler = scheduler;
    // One watchdog per client looks at every packet in flight each tick, instead of a timer per
    // packet: scheduling one would wake a thread for every packet read.
    // It ticks only while a read is in flight: an idle client wakes no thread.
    this.watchdog = scheduler.every(config.readHedgingCheckNanos(), this::startOverdueHedges);
    // Hedges are bounded by the semaphore, so this pool never holds more than that many threads.
    int client = CLIENTS.incrementAndGet();
    this.hedgeThreads = Executors.newCachedThreadPool(
        Scheduler.daemonThreads("curtail-hedge-" + client));
    this.localPieces = Executors.newCachedThreadPool(
        Scheduler.daemonThreads("curtail-local-" + client));
  }

  /** Lets the watchdog hedge {@code read}'s packets while it is open. */
  void watch(Watched<?> read) {
    if (inFlight.add(read)) {
      watchdog.hold();
    }
  }

  void unwatch(Watched<?> read) {
    if (inFlight.remove(read)) {
      watchdog.release();
    }
  }

  /**
   * The watchdog's tick (its thread's alone). A tick that comes more than a period late finds
   * the client itself was paused (a garbage collection, a starved CPU): a packet is judged on
   * the rest of its wait only ({@link Pauses}), as the DataNodes are not to blame for that.
   */
  private void startOverdueHedges() {
    long now = clock.nanoTime();
    pauses.look(now);
    for (Watched<?> read : inFlight) {
      try {
        hedgeIfOverdue(read, now);
      } catch (RuntimeException e) {
        LOG.warn("Hedge check failed read={}", read, e); // must not stop the watchdog
      }
    }
  }

  private <R extends Abortable> void hedgeIfOverdue(Watched<R> read, long nowNanos) {
    Race<R> race = read.pending();
    if (race == null) {
      return;
    }
    long threshold = read.thresholdNowNanos();
    long seen = race.overdue(nowNanos, threshold, pauses);
    if (seen >= 0) {
      read.startHedge(race, seen);
    } else if (LOG.isDebugEnabled() && race.overdue(nowNanos, threshold) >= 0) {
      LOG.debug("Not hedging a packet late by the client's pause read={} pausedMs={}", read,
          pauses.within(nowNanos - threshold, nowNanos) / 1e6);
    }
  }

  /**
   * Counts a packet read by this client, which earns the runtime's hedge budget its share of a
   * hedge; returns the count, the clock backoffs run on.
   */
  long nextPacket() {
    runtime.hedgeBudget().onRead();
    return packets.incrementAndGet();
  }

  long packets() {
    return packets.get();
  }

  HedgeBackoff backoff(NodeId node) {
    return backoffs.getOrDefault(node, HedgeBackoff.NONE);
  }

  void hedgeLost(NodeId node) {
    hedgesLost.increment();
    ClientMetrics.JVM.hedgesLost.increment();
    backoffs.compute(node, (n, b) -> hedging.afterLoss(b == null ? HedgeBackoff.NONE : b,
        packets.get()));
  }

  void hedgeWon(NodeId node) {
    hedgesWon.increment();
    ClientMetrics.JVM.hedgesWon.increment();
    backoffs.put(node, hedging.afterWin());
  }

  /**
   * A hedge overtook a read from {@code node}: the mirror of a lost hedge's backoff. The DataNode
   * was slower than the threshold and than another replica, evidence the JVM's windows hold as
   * one sample only (the read's time so far, a lower bound), too few to judge it by. So this
   * client reads it last for the next {@code curtail.read.hedging.backoff.packets} packets
   * ({@link #recentlyOvertaken}), and the plans it made before are stale: the next read of the
   * same block (the next positional read of a file, say) does not begin there again.
   */
  void overtaken(NodeId node) {
    overtakenAt.put(node, packets.get());
    overtakes.incrementAndGet();
  }

  /** Whether a hedge overtook a read from {@code node} within the backoff's packets. */
  boolean recentlyOvertaken(NodeId node) {
    Long at = overtakenAt.get(node);
    return at != null && packets.get() - at < config.readHedgingBackoffPackets();
  }

  /** How many reads a hedge overtook so far; a plan made before the last is stale. */
  long overtakes() {
    return overtakes.get();
  }

  /**
   * The replica a hedge of a packet from replica {@code primary} goes to, the packet having
   * overrun {@code thresholdNanos}, or -1 if none may be hedged to now: the policy's next target
   * ({@link Hedging#nextTarget}) among the replicas that have not {@code failed}, are not busy,
   * are not known to take longer than that threshold ({@code knownNanos}: a hedge there would only
   * join its queue), were not overtaken by a hedge lately, and have a hedge slot free.
   */
  int hedgeTarget(int primary, NodeTracker[] trackers, boolean[] failed, long[] knownNanos,
      long thresholdNanos) {
    List<HedgeBackoff> backoffs = new ArrayList<>(trackers.length);
    for (NodeTracker t : trackers) {
      backoffs.add(backoff(t.node()));
    }
    boolean[] skip = failed.clone();
    long now = clock.nanoTime();
    for (int i = 0; i < skip.length; i++) {
      skip[i] |= !Hedging.worthHedgingTo(knownNanos[i], thresholdNanos) || trackers[i].busy(now)
          || recentlyOvertaken(trackers[i].node()) || !hedgeSlotFree(trackers[i].node());
    }
    return hedging.nextTarget(primary, backoffs, skip, packets.get());
  }

  /** Whether a hedge may go to {@code node} now: it has fewer than its bound in flight. */
  boolean hedgeSlotFree(NodeId node) {
    AtomicInteger n = hedgesInFlightTo.get(node);
    return n == null || n.get() < config.readHedgingMaxInFlightPerDataNode();
  }

  /**
   * Takes a slot for a hedge to {@code node} under both bounds, the client's and the DataNode's;
   * false if either is full. The watchdog's thread alone takes slots, so a free slot it saw stays
   * free until it takes it.
   */
  boolean takeHedgeSlot(NodeId node) {
    if (!hedgeSlotFree(node) || !hedgesInFlight.tryAcquire()) {
      return false;
    }
    hedgesInFlightTo.computeIfAbsent(node, n -> new AtomicInteger()).incrementAndGet();
    return true;
  }

  /** Gives back the slot of a hedge to {@code node} that ended (or never began). */
  void releaseHedgeSlot(NodeId node) {
    hedgesInFlightTo.get(node).decrementAndGet();
    hedgesInFlight.release();
  }

  /**
   * Starts a hedge of {@code race}'s packet (in state {@code seen}) to {@code node}, whose slot
   * the caller took, if the hedge budget has a token and the primary has not finished meanwhile;
   * else gives back the slot (and the token) and returns false. A refusal by the budget is counted
   * and logged once per packet; the watchdog tries again on its next tick.
   */
  boolean startHedge(Race<ReplicaReader> race, long seen, NodeId node) {
    if (!runtime.hedgeBudget().tryHedge()) {
      releaseHedgeSlot(node);
      if (race.firstDenial(seen)) {
        hedgesDenied.increment();
        ClientMetrics.JVM.hedgesDenied.increment();
        LOG.debug("Hedge denied by the budget from={} to={} offset={} microTokens={}",
            race.primary().dataNode(), node, race.from(), runtime.hedgeBudget().microTokens());
      }
      return false;
    }
    if (!race.startHedge(seen)) {
      releaseHedgeSlot(node);
      runtime.hedgeBudget().refund();
      return false;
    }
    hedgesTried.increment();
    ClientMetrics.JVM.hedgesTried.increment();
    return true;
  }

  /** Counts what a hedge received while racing: what it cost the DataNodes beyond the read. */
  void hedgeReceived(ByteBuffer data) {
    if (data != null) {
      hedgedBytes.add(data.remaining());
      ClientMetrics.JVM.hedgedBytes.add(data.remaining());
    }
  }

  /** Overdue packets the hedge budget refused a hedge, each counted once. */
  public long hedgesDenied() {
    return hedgesDenied.sum();
  }

  /** Bytes this client's hedges received while racing the packets they were to overtake. */
  public long hedgedBytes() {
    return hedgedBytes.sum();
  }

  /** Hedges this client started. */
  public long hedgesTried() {
    return hedgesTried.sum();
  }

  /** Hedges that failed or delivered after the read they were to overtake (each backs off). */
  public long hedgesLost() {
    return hedgesLost.sum();
  }

  /** Hedges that delivered before the read they overtook. */
  public long hedgesWon() {
    return hedgesWon.sum();
  }

  /** Who watches a read of {@code blockId}: its statistics record, its span, both or nobody. */
  BlockObserver observe(String file, long blockId) {
    StatsLog log = stats;
    return BlockObserver.both(
        log == null ? BlockObserver.NONE : log.read(file, blockId, clock.nanoTime()),
        Tracing.start("curtail.block.read", null, file, blockId, 0));
  }

  /** Sends a record of every block from now on to {@code log}. */
  public void logStatsTo(StatsLog log) {
    this.stats = log;
  }

  @Override
  public void close() {
    scheduler.close();
    connections.release();
    hedgeThreads.shutdownNow();
    localPieces.shutdown(); // a piece being read finishes, and lets its reader go
  }
}
