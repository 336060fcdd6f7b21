package io.curtail.client.read;

import io.curtail.client.trace.BlockObserver;
import io.curtail.client.track.NodeTracker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One hedge (paper §4.3), run on a hedge thread: reads the packet a {@link BlockRead}'s primary is
 * late with from another replica, on a connection of its own, and offers it to the packet's
 * {@link Race}. Winning, it cuts the primary's connection, so the reader thread takes its packet;
 * losing or failing, it closes its own, and its DataNode is told so (it backs off). Either way its
 * time to first byte is recorded for its DataNode (cut short when it lost: a lower bound) and its
 * slot among the hedges in flight freed.
 */
final class Hedge implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(Hedge.class);

  /** Opens the hedge's replica at the race's offset, for the rest of the read's range. */
  @FunctionalInterface
  interface Opening {
    ReplicaReader open() throws IOException;
  }

  private final ReadContext ctx;
  private final BlockObserver observer;
  private final String file;
  private final ExtendedBlock block;
  private final Race<ReplicaReader> race;
  /** The race's primary and offset when the hedge was started, as the race is rearmed later. */
  private final ReplicaReader primary;
  private final long from;
  private final int target;
  private final DatanodeInfo dn;
  private final NodeTracker tracker;
  /** The threshold the primary overran: the evidence, for the log. */
  private final long overranNanos;
  private final Opening opening;

  /**
   * A hedge of {@code race}'s packet of {@code block} to replica {@code target} of the read's
   * plan, on DataNode {@code dn} ({@code tracker}'s), opened by {@code opening}.
   */
  Hedge(ReadContext ctx, BlockObserver observer, String file, ExtendedBlock block,
      Race<ReplicaReader> race, int target, DatanodeInfo dn, NodeTracker tracker,
      long overranNanos, Opening opening) {
    this.ctx = ctx;
    this.observer = observer;
    this.file = file;
    this.block = block;
    this.race = race;
    this.primary = race.primary();
    this.from = race.from();
    this.target = target;
    this.dn = dn;
    this.tracker = tracker;
    this.overranNanos = overranNanos;
    this.opening = opening;
  }

  @Override
  public void run() {
    ReplicaReader r = null;
    try {
      long start = ctx.clock.nanoTime();
      r = opening.open();
      if (!race.publishHedge(r)) {
        r.close(); // the primary delivered before the hedge began
        ctx.hedgeLost(tracker.node());
        return;
      }
      ByteBuffer data;
      try {
        data = r.next(); // connects first
      } finally {
        long done = ctx.clock.nanoTime();
        tracker.recordStart(r.sinceRequest(done, done - start), done); // cut short: a lower bound
      }
      ctx.hedgeReceived(data);
      if (data != null && race.hedgeDelivered(new Race.Winner<>(r, target, data))) {
        ctx.hedgeWon(tracker.node());
        observer.hedgeWon(dn.getXferAddr());
        LOG.debug("Hedge won file={} block={} offset={} from={} to={} thresholdMs={}"
            + " hedgeTookMs={}", file, block, from, primary.dataNode(), dn,
            TimeUnit.NANOSECONDS.toMillis(overranNanos),
            TimeUnit.NANOSECONDS.toMillis(ctx.clock.nanoTime() - start));
        primary.abort(); // unblocks the reader thread, which takes the hedge's packet
      } else {
        r.close();
        ctx.hedgeLost(tracker.node());
      }
    } catch (IOException e) {
      if (r != null) {
        r.close();
      }
      ctx.hedgeLost(tracker.node());
      race.hedgeFailed();
    } finally {
      ctx.releaseHedgeSlot(tracker.node());
      race.hedgeDone();
    }
  }
}
