package io.curtail.client.read;

import io.curtail.client.trace.BlockObserver;
import io.curtail.client.track.NodeTracker;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one byte range of one block, packet by packet (a replica on this host, with short-circuit
 * reads on, piece by piece from its block file: both through a {@link ReplicaReader}, timed and
 * hedged alike), carrying out the hedging policy (paper §4.3): each packet read is timed and
 * recorded for its DataNode; a packet slower than the client's threshold starts a hedge to the next
 * eligible replica, which reads the same bytes on a connection of its own; whichever delivers first
 * wins, the range carries on from the winner and the loser's connection is cut. A replica that
 * fails or serves a bad checksum is dropped (a bad checksum is reported to the NameNode) and the
 * read fails over to the next; when every replica failed, the block's locations are fetched again
 * after stock's wait, and after stock's number of rounds the read fails as stock's does
 * ({@link ReadRetries}). A hedge, once this read chose its replica, runs as a {@link Hedge}.
 *
 * <p>Not thread-safe: one reader thread drives it; hedges run on the client's hedge threads.
 */
final class BlockRead implements Closeable, ReadContext.Watched<ReplicaReader> {
  private static final Logger LOG = LoggerFactory.getLogger(BlockRead.class);
  /**
   * How long a read that delivered its range waits for the DataNode's trailing packet, to keep
   * the connection. A healthy DataNode sends it right after the last data packet, so it is
   * usually there already; a throttled or queued one sends it only after that packet's delay, and
   * waiting for it (stock does, before handing over the last data) would add that delay to the
   * read: its connection is closed instead.
   */
  private static final int TRAILER_WAIT_MS = 2;
  /**
   * Packets between two looks at whether the current DataNode became known slow: a look costs a
   * few medians of 20 samples, a packet of a slow disk tens of milliseconds. A packet that took
   * as long as the least slowdown that can demote a DataNode brings the next look forward.
   */
  static final int LOOK_EVERY_PACKETS = 4;
  /**
   * A packet that takes this long, overtaken or not, is logged with the race's state: every
   * packet is either delivered or hedged within a threshold of tens of milliseconds, so one this
   * late says something blocked that should not have.
   */
  private static final long LATE_PACKET_WARN_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final ReadContext ctx;
  private final DFSClient client;
  private final String file;
  private final long end;
  private final BlockSource source;
  /** How the DataNode caches what it reads (readahead, drop-behind), as the stream was told. */
  private final CachingStrategy caching;
  /** Whether the DataNodes send checksums and the read verifies them (as the stream was told). */
  private final boolean verifyChecksum;
  /** The plan being followed: its block, replicas in order and what each is known to take. */
  private ReplicaPlan plan;
  private LocatedBlock block;
  private DatanodeInfo[] replicas;
  private NodeTracker[] trackers;
  /** What each replica is known to take, per the plan; a hedge goes only where it is less. */
  private long[] knownNanos;
  private boolean[] failed;
  /** What to do when replicas fail: renewals, how long to wait; made on the first failure. */
  private ReadRetries retries;
  private int current = -1;
  /** Packets read from the current replica since the read last looked at what the JVM knows. */
  private int packetsSinceLook;
  /** Whether the current replica's last packet took the least slowdown that can demote it. */
  private boolean lastPacketSlow;
  /** The hedge threshold of the current packet; the watchdog reads it to choose a target. */
  private volatile long thresholdNanos;
  /** The packet being read, for the watchdog; null between packets. */
  private volatile Race<ReplicaReader> pending;
  /** Its DataNode's tracker, written before it. */
  private volatile NodeTracker pendingTracker;
  /** Whether the NameNode reports its DataNode loaded, written before it too. */
  private volatile boolean pendingLoaded;
  /** The last packet's race, rearmed for the next packet if no hedge joined it. */
  private Race<ReplicaReader> lastRace;
  private ReplicaReader reader;
  private long position;
  private final long start;
  /** Who watches this read: its statistics record, its span (a child of the reader's). */
  private final BlockObserver observer;
  /** The network distance to the DataNode of the bytes {@link #next()} returned last. */
  private int distance;
  /** Whether those bytes came from the block file itself (a short-circuit read). */
  private boolean shortCircuit;

  /**
   * Reads bytes [{@code offset}, {@code offset + length}) of {@code block}, in the order
   * {@code source} gives (the stream's plans, made again only once stale, which the read looks at
   * every few packets), asking the DataNodes to cache as {@code caching} says, and for checksums
   * to verify if {@code verifyChecksum}.
   */
  BlockRead(ReadContext ctx, DFSClient client, String file, BlockSource source,
      CachingStrategy caching, boolean verifyChecksum, LocatedBlock block, long offset,
      long length) {
    this.ctx = ctx;
    this.client = client;
    this.file = file;
    this.source = source;
    this.caching = caching;
    this.verifyChecksum = verifyChecksum;
    this.position = offset;
    this.start = offset;
    this.end = offset + length;
    this.observer = ctx.observe(file, block.getBlock().getBlockId());
    follow(source.plan(block));
    ctx.watch(this);
  }

  /**
   * Reads bytes [{@code offset}, {@code offset + length}) of {@code plan}'s block, keeping
   * nothing of a refetch for later reads.
   */
  BlockRead(ReadContext ctx, DFSClient client, String file, ReplicaPlan plan, long offset,
      long length) {
    this(ctx, client, file, BlockSource.fixed(ctx, client, file, plan),
        client.getDefaultReadCachingStrategy(), true, plan.block, offset, length);
  }

  /** Reads the block's replicas in {@code plan}'s order; none has failed yet. */
  private void follow(ReplicaPlan plan) {
    this.plan = plan;
    this.block = plan.block;
    this.replicas = plan.replicas;
    this.trackers = plan.trackers;
    this.knownNanos = plan.knownNanos;
    this.failed = new boolean[replicas.length];
    if (observer != BlockObserver.NONE) {
      plan.tell(observer, ctx.clock.nanoTime());
    }
  }

  /** The DataNode the range is being read from, or null between replicas. */
  DatanodeInfo currentDataNode() {
    return reader == null ? null : reader.dataNode();
  }

  /** The file offset just past the range this read delivers. */
  long fileEnd() {
    return block.getStartOffset() + end;
  }

  /** Offset in the block of the next byte {@link #next()} returns. */
  long position() {
    return position;
  }

  /**
   * The network distance to the DataNode whose bytes {@link #next()} returned last (0 on the
   * same host), for the file system's statistics by distance.
   */
  int distance() {
    return distance;
  }

  /** Whether the bytes {@link #next()} returned last were read from the block file itself. */
  boolean shortCircuit() {
    return shortCircuit;
  }

  /**
   * The next bytes of the range (valid until the next call), or null when it is done (and then
   * finished, see {@link #finishRange}).
   */
  ByteBuffer next() throws IOException {
    finishRange();
    while (position < end) {
      if (reader != null && (++packetsSinceLook >= LOOK_EVERY_PACKETS || lastPacketSlow)) {
        leaveIfKnownSlow();
      }
      if (reader == null) {
        openNextReplica();
      }
      try {
        ByteBuffer data = nextPacket();
        if (data == null) {
          throw new IOException(replicas[current] + " ended " + block.getBlock() + " at "
              + position + ", before " + end);
        }
        position += data.remaining();
        distance = reader.networkDistance();
        shortCircuit = reader.shortCircuit();
        if (retries != null) {
          retries.delivered();
        }
        return data;
      } catch (ChecksumException e) {
        LOG.warn("Bad checksum, reporting replica file={} block={} datanode={} offset={}", file,
            block.getBlock(), replicas[current], e.getPos());
        client.reportBadBlocks(new LocatedBlock[] {
            new LocatedBlock(block.getBlock(), new DatanodeInfo[] {replicas[current]})});
        dropCurrent();
      } catch (IOException e) {
        goOnAfter(e);
      }
    }
    return null;
  }

  private ReadRetries retries() {
    if (retries == null) {
      retries = new ReadRetries();
    }
    return retries;
  }

  /** Carries on after the current replica failed with {@code e} ({@link ReadRetries}). */
  private void goOnAfter(IOException e) throws IOException {
    ReadRetries.Next next = retries().after(e);
    if (next == ReadRetries.Next.NEXT_REPLICA) {
      LOG.warn("Read failed, trying another replica file={} block={} datanode={} offset={}",
          file, block.getBlock(), replicas[current], position, e);
      dropCurrent();
      return;
    }
    LOG.info("Fetching a new {} file={} block={} datanode={} reason={}",
        next == ReadRetries.Next.NEW_KEY ? "encryption key" : "block token", file,
        block.getBlock(), replicas[current], e.toString());
    reader.close();
    reader = null;
    if (next == ReadRetries.Next.NEW_KEY) {
      client.clearDataEncryptionKey(); // the same replica is tried again with a new one
    } else {
      follow(source.plan(source.refetch(block))); // kept by the stream for the reads after
    }
  }

  /**
   * Every few packets, and after a slow one: moves the rest of the read to another replica if the
   * JVM now knows the current one slow ({@link ReplicaPlan#failedIfLeaving}). A hedge overtakes
   * a packet slower than the threshold; this keeps a read from staying where every packet is
   * slow but under it, as on a slow disk serving each packet in tens of milliseconds. The
   * regular look takes the stream's plan, made again only once stale; after a slow packet the
   * look makes one from what the JVM knows now, so that a read leaves a slow disk as soon as the
   * rule can judge it, not when the plan next goes stale (with one reader, 16 packets on).
   */
  private void leaveIfKnownSlow() {
    ReplicaPlan fresh = lastPacketSlow ? ReplicaPlan.of(ctx, block) : source.plan(block);
    packetsSinceLook = 0;
    lastPacketSlow = false;
    boolean[] stillFailed = fresh == plan ? null // nothing learnt since the read took it up
        : fresh.failedIfLeaving(replicas[current].getXferAddr(), replicas, failed);
    if (stillFailed == null) {
      return;
    }
    LOG.debug("Leaving a DataNode known slow file={} block={} offset={} datanode={}", file,
        block.getBlock(), position, replicas[current]);
    follow(fresh);
    failed = stillFailed;
    reader.close(); // mid-range: its connection is closed, never pooled
    reader = null;
  }

  private void dropCurrent() {
    failed[current] = true;
    reader.close();
    reader = null;
  }

  /**
   * Takes the first replica in order that has not failed; when none is left, waits and asks the
   * NameNode for the block's locations again, or gives up, on stock's schedule
   * ({@link AcquireRetry}). It connects with its first packet, inside that packet's race: a
   * DataNode slow to accept, to open the replica or to send its first packet is timed and hedged
   * like a slow packet.
   */
  private void openNextReplica() throws IOException {
    while (true) {
      for (int i = 0; i < replicas.length; i++) {
        if (!failed[i]) {
          reader = ReplicaReader.open(ctx, client, file, block, replicas[i], position,
              end - position, caching, verifyChecksum, source.localReads());
          nowReading(i);
          return;
        }
      }
      retries().awaitRefetch(client.getConf(), file, block, block.getStartOffset() + position,
          replicas);
      follow(source.plan(source.refetch(block)));
    }
  }

  /** One packet from the current replica, hedged if it is slow. */
  private ByteBuffer nextPacket() throws IOException {
    ReplicaReader primary = reader;
    int primaryIndex = current;
    NodeTracker primaryTracker = trackers[primaryIndex];
    boolean primaryLoaded = plan.loaded[primaryIndex];
    thresholdNanos = ctx.thresholds.nanos(primaryTracker, primaryLoaded);
    boolean starting = !primary.connected(); // its time is the read's time to first byte
    long start = ctx.clock.nanoTime();
    Race<ReplicaReader> race = lastRace;
    if (race == null || !race.rearm(start, thresholdNanos, primary, primaryIndex,
        primary.position())) {
      race = new Race<>(start, thresholdNanos, primary, primaryIndex, primary.position());
      lastRace = race;
    }
    pendingTracker = primaryTracker;
    pendingLoaded = primaryLoaded;
    pending = race; // the client's watchdog hedges it if it is still pending at its deadline
    ByteBuffer data = null;
    IOException failure = null;
    try {
      data = primary.next();
    } catch (IOException e) {
      failure = e;
    }
    long now = ctx.clock.nanoTime();
    long took = now - start;
    long startTook = starting ? primary.sinceRequest(now, took) : 0;
    pending = null;
    ctx.nextPacket();
    if (race.claimForPrimary()) { // the primary finished first, well or badly
      race.cancelHedge();
      warnIfLate(race, starting, took, failure == null ? "delivered" : failure.toString());
      if (failure != null) {
        throw failure;
      }
      record(primaryTracker, starting, startTook, took, now);
      lastPacketSlow = !starting && took >= ctx.config.readMinSlowdownNanos();
      return data;
    }
    // The hedge delivered first and cut the primary's connection: carry on from the hedge. The
    // primary took at least this long; without recording it, a DataNode that stalls after a fast
    // first packet (as throttled ones do) would never look slow.
    record(primaryTracker, starting, startTook, took, now);
    ctx.overtaken(primaryTracker.node());
    Race.Winner<ReplicaReader> hedge = race.awaitHedge();
    warnIfLate(race, starting, ctx.clock.nanoTime() - start, "overtaken by a hedge to "
        + replicas[hedge.replica] + " after " + TimeUnit.NANOSECONDS.toMillis(took) + " ms");
    primary.close();
    reader = hedge.reader;
    nowReading(hedge.replica);
    return hedge.data;
  }

  private void warnIfLate(Race<ReplicaReader> race, boolean starting, long tookNanos,
      String outcome) {
    if (tookNanos >= LATE_PACKET_WARN_NANOS) {
      LOG.warn("Late packet file={} block={} offset={} datanode={} starting={} tookMs={}"
          + " hedged={} outcome={}", file, block.getBlock(), race.from(),
          race.primary().dataNode(), starting, TimeUnit.NANOSECONDS.toMillis(tookNanos),
          race.wasHedged(), outcome);
    }
  }

  /** Makes replica {@code i} the one read from; what the read looks at starts afresh. */
  private void nowReading(int i) {
    current = i;
    packetsSinceLook = 0;
    lastPacketSlow = false;
    ctx.thresholds.readsFrom(trackers[i]);
  }

  /** Records a packet's time, or for a read's first packet its start (timed from the request). */
  private static void record(NodeTracker t, boolean start, long startNanos, long packetNanos,
      long nowNanos) {
    if (start) {
      t.recordStart(startNanos, nowNanos);
    } else {
      t.reads().record(packetNanos);
    }
  }

  @Override
  public Race<ReplicaReader> pending() {
    return pending;
  }

  @Override
  public long thresholdNowNanos() {
    return ctx.thresholds.nanos(pendingTracker, pendingLoaded);
  }

  /**
   * Runs on the watchdog thread when the packet {@code race} is for overran its threshold (in the
   * state {@code seen}): starts a hedge to the next eligible replica
   * ({@link ReadContext#hedgeTarget}), unless the budget, the bounds on hedges in flight or the
   * primary (finishing first) says no.
   */
  @Override
  public void startHedge(Race<ReplicaReader> race, long seen) {
    LocatedBlock located = block; // read after pending: the block this race's packet is of
    ReplicaReader primary = race.primary();
    int primaryIndex = race.primaryIndex();
    long from = race.from();
    int target = ctx.hedgeTarget(primaryIndex, trackers, failed, knownNanos, thresholdNanos);
    if (target < 0) {
      return;
    }
    DatanodeInfo dn = replicas[target];
    NodeTracker tracker = trackers[target];
    if (!ctx.takeHedgeSlot(tracker.node())) {
      return;
    }
    if (!ctx.startHedge(race, seen, tracker.node())) {
      return; // the budget said no, or the primary finished first
    }
    // The threshold the primary overran, the evidence: the one it was armed with, or the one
    // the client knows now if that is less (a packet armed cold, judged by what was learnt since).
    long overran = Math.min(thresholdNanos, thresholdNowNanos());
    observer.hedgeTried(primary.dataNode().getXferAddr(), dn.getXferAddr(), from, overran);
    LOG.debug("Hedging file={} block={} offset={} from={} to={} thresholdMs={} readsStart={}", file,
        located.getBlock(), from, primary.dataNode(), dn, overran / 1_000_000.0,
        from == start);
    ctx.hedgeThreads.execute(new Hedge(ctx, observer, file, located.getBlock(), race, target, dn,
        tracker, overran, () -> ReplicaReader.open(ctx, client, file, located, dn, from,
            end - from, caching, verifyChecksum, source.localReads())));
  }

  /**
   * Once the whole range was delivered, readies the connection for reuse (the DataNode's trailing
   * packet, then the read's status), waiting at most {@value #TRAILER_WAIT_MS} ms for the trailer.
   */
  private void finishRange() {
    if (position >= end && reader != null) {
      reader.finishRange(TRAILER_WAIT_MS);
    }
  }

  /**
   * Ends the read. A range delivered whole is finished first, so that its connection goes back
   * to the pool even when the reader never asked past its last byte: a stream read to its
   * length and closed, or one that stopped at the end of the file.
   */
  @Override
  public void close() {
    ctx.unwatch(this);
    observer.done(position - start, ctx.clock.nanoTime());
    finishRange();
    if (reader != null) {
      reader.close();
      reader = null;
    }
  }
}
