package io.curtail.client.read;

import io.curtail.client.policy.HedgeBackoff;
import io.curtail.client.runtime.NanoClock;
import io.curtail.client.track.NodeId;
import io.curtail.client.track.NodeTracker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * The narrow hook Curtail's striped reader ({@code read.striped}) has into the replicated
 * reader's machinery, and no more: reading a range of one internal block from its one DataNode
 * ({@link PacketReader}, checksums verified), each packet timed and recorded for that DataNode
 * as every read's are; the hedge threshold and what the JVM knows of DataNodes (the same
 * {@link ReplicaPlan} judgement replicated reads use); and the hedge budget, the per-DataNode
 * bounds on hedges in flight and a backoff, which every parity read taken in place of a slow cell
 * goes through, so that reading around a slow DataNode never piles reads onto healthy ones.
 *
 * <p>Thread-safe.
 */
public final class CellReads {
  private final ReadContext ctx;
  /** Parity-read backoffs, by DataNode: a read around that lost makes the next one wait. */
  private final Map<NodeId, HedgeBackoff> backoffs = new ConcurrentHashMap<>();

  public CellReads(ReadContext ctx) {
    this.ctx = ctx;
  }

  /**
   * The blocks {@code metadata} was opened with, with the file's erasure-coding policy; null
   * where this Hadoop hides them ({@link VisibleLength}).
   */
  public static LocatedBlocks locatedBlocks(DFSInputStream metadata) {
    return VisibleLength.locatedBlocks(metadata);
  }

  /** Whether the file of {@code blocks} is still being written. */
  public static boolean beingWritten(LocatedBlocks blocks) {
    return VisibleLength.beingWritten(blocks);
  }

  public NanoClock clock() {
    return ctx.clock;
  }

  /** How often the client's watchdog looks for late reads; a late cell waits at most this. */
  public long checkNanos() {
    return ctx.config.readHedgingCheckNanos();
  }

  /** This JVM's tracker of {@code dn}, which the client now compares with the others it reads. */
  public NodeTracker tracker(DatanodeInfo dn) {
    NodeTracker t = ctx.runtime.registry().tracker(NodeId.of(dn.getXferAddr()));
    ctx.thresholds.readsFrom(t);
    return t;
  }

  /** How long a packet from {@code t}'s DataNode may take before it is late: the hedge rule. */
  public long thresholdNanos(NodeTracker t) {
    return ctx.thresholds.nanos(t);
  }

  /**
   * Which of {@code group}'s locations the JVM knows slow or busy now, by transfer address: the
   * judgement replica order makes of a block's replicas, here made of a block group's DataNodes,
   * on the JVM's own knowledge only. Not on the NameNode's load ({@code ReportedLoad}): every
   * read of a group keeps its data cells' DataNodes busy and never touches its parity ones, whose
   * count then makes the baseline, so load alone would send healthy reads to parity; and reading
   * around a cell costs a parity read and a decode, where choosing between replicas costs nothing.
   */
  public Map<String, Boolean> knownSlow(LocatedBlock group) {
    ReplicaPlan plan = ReplicaPlan.of(ctx, group);
    Map<String, Boolean> slow = new HashMap<>();
    for (int i = 0; i < plan.replicas.length; i++) {
      slow.put(plan.replicas[i].getXferAddr(), plan.slow[i]);
    }
    return slow;
  }

  /**
   * Takes what a parity read in place of a slow cell needs: its DataNode not backed off, a slot
   * under the client's and the DataNode's bounds on hedges in flight, and a token of the hedge
   * budget. False, and nothing taken, if any is missing. Give the slot back with
   * {@link #readAroundDone}.
   */
  public boolean tryReadAround(NodeTracker to) {
    if (!backoffs.getOrDefault(to.node(), HedgeBackoff.NONE).allows(ctx.packets())) {
      return false;
    }
    if (!ctx.takeHedgeSlot(to.node())) {
      return false;
    }
    if (!ctx.runtime.hedgeBudget().tryHedge()) {
      ctx.releaseHedgeSlot(to.node());
      return false;
    }
    return true;
  }

  /**
   * A read around ended: its slot goes back; one that was not needed after all (the slow cell
   * came first) backs its DataNode off, one that was resets it (the hedges' rule).
   */
  public void readAroundDone(NodeTracker to, boolean used) {
    ctx.releaseHedgeSlot(to.node());
    backoffs.compute(to.node(), (n, b) -> used ? ctx.hedging.afterWin()
        : ctx.hedging.afterLoss(b == null ? HedgeBackoff.NONE : b, ctx.packets()));
  }

  /** A reader of {@code length} bytes at {@code offset} of {@code internal}'s one replica. */
  public Cell open(DFSClient client, String file, LocatedBlock internal, long offset, int length,
      boolean verifyChecksum) {
    DatanodeInfo dn = internal.getLocations()[0];
    return new Cell(PacketReader.create(ctx, client, file, internal, dn, offset, length,
        client.getDefaultReadCachingStrategy(), verifyChecksum), tracker(dn), length);
  }

  /**
   * One cell's range of one internal block, read whole into an array. Its packets are timed and
   * recorded as a replicated read's are; its progress can be watched, and it can be aborted, from
   * any other thread.
   */
  public final class Cell {
    private final PacketReader reader;
    private final NodeTracker tracker;
    private final int length;
    private volatile long lastProgressNanos;
    private volatile boolean aborted;

    private Cell(PacketReader reader, NodeTracker tracker, int length) {
      this.reader = reader;
      this.tracker = tracker;
      this.length = length;
      // Opened is when the wait starts: a cell whose thread has not yet run is not late, which
      // it would look (against a clock's arbitrary origin) with no time set.
      this.lastProgressNanos = ctx.clock.nanoTime();
    }

    public NodeTracker tracker() {
      return tracker;
    }

    /** When the read was opened, started or last received a packet. */
    public long lastProgressNanos() {
      return lastProgressNanos;
    }

    /** Reads the whole range into {@code dst} from {@code off}; the reader is closed after. */
    public void readInto(byte[] dst, int off) throws IOException {
      long start = ctx.clock.nanoTime();
      lastProgressNanos = start;
      int left = length;
      try {
        while (left > 0) {
          ByteBuffer data = next(left == length);
          if (data == null) {
            throw new IOException(reader + " ended " + left + " bytes short of its cell");
          }
          int n = data.remaining();
          data.get(dst, off, n);
          off += n;
          left -= n;
        }
        // Without waiting on a slow DataNode's trailer: the connection is then only closed.
        reader.finishRange(2);
      } finally {
        if (aborted) {
          // Cut while late: it took at least this long, and without the sample a DataNode that
          // stalls after fast packets (as throttled ones do) would never look slow.
          long now = ctx.clock.nanoTime();
          tracker.reads().record(now - lastProgressNanos);
        }
        reader.close();
      }
    }

    private ByteBuffer next(boolean first) throws IOException {
      long before = ctx.clock.nanoTime();
      ByteBuffer data = reader.next();
      long now = ctx.clock.nanoTime();
      ctx.nextPacket();
      if (data == null) {
        return null;
      }
      if (first) {
        tracker.recordStart(reader.sinceRequest(now, now - before), now);
      } else {
        tracker.reads().record(now - before);
      }
      lastProgressNanos = now;
      return data;
    }

    /** Cuts the read, from any thread: its {@link #readInto} fails at once. */
    public void abort() {
      aborted = true;
      reader.abort();
    }
  }
}
