package io.curtail.client.write.striped;

import io.curtail.client.policy.StripedDrop;
import io.curtail.client.policy.StripedDrop.Decision;
import io.curtail.client.stats.StatsLog;
import io.curtail.client.trace.BlockObserver;
import io.curtail.client.track.LatencyStats;
import io.curtail.client.write.striped.StripedStreams.StreamerState;
import io.curtail.client.write.striped.StripedStreams.Streamers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stock striped stream under watch: its streamers as last seen, the pace of each one's
 * DataNode in the current block group ({@link StreamerPace}), and the group's drops and statistics
 * record.
 * Each {@link #look} asks {@link StripedDrop} about the group and, on a drop, lets the streamer go
 * through {@link Streamers#letGo}. Owned by the watch's one thread.
 */
final class WatchedStream {
  private static final Logger LOG = LoggerFactory.getLogger(WatchedStream.class);
  /** What a look found. */
  enum Outcome {
    /** Still open, nothing let go. */
    WATCHING,
    /** A streamer of the current group was let go. */
    DROPPED,
    /** The stream is closed: stop watching it. */
    CLOSED
  }

  final String src;
  private final Streamers streamers;
  private final int dataUnits;
  private final int parityUnits;
  private final StreamerState[] seen;
  private final int window;
  /** The file system's knowledge of each DataNode's pace, shared with its other streams. */
  private final DataNodePaces known;
  /** The pace measuring each index of the current group; null until its DataNode is known. */
  private final StreamerPace[] paces;
  /** The streamer and the block each index's pace follows: either new, it follows afresh. */
  private final Object[] measured;
  private final long[] measuredBlock;
  private final List<LatencyStats> stats;
  /** Whether a group is under way; then its id (its internal blocks' ids less their index). */
  private boolean inGroup;
  private long group;
  private long groupStartNanos;
  private int dropsInGroup;
  private long groups;
  /** The group's DataNodes by internal block index, as seen; and each one's bytes acknowledged. */
  private final String[] groupNodes;
  private final long[] groupAcked;
  private BlockObserver record = BlockObserver.NONE;
  /** The last drop's details, for the watch to log and list. */
  private Dropped lastDrop;
  /** Why the group was last kept whole, logged when it changes (debug). */
  private StripedDrop.Reason lastReason;

  WatchedStream(String src, Streamers streamers, int dataUnits, int parityUnits, int window,
      DataNodePaces known) {
    this.src = src;
    this.streamers = streamers;
    this.dataUnits = dataUnits;
    this.parityUnits = parityUnits;
    int width = dataUnits + parityUnits;
    this.seen = new StreamerState[width];
    this.window = window;
    this.known = known;
    this.paces = new StreamerPace[width];
    this.measured = new Object[width];
    this.measuredBlock = new long[width];
    this.groupNodes = new String[width];
    this.groupAcked = new long[width];
    this.stats = new ArrayList<>(width);
    for (int i = 0; i < width; i++) {
      seen[i] = new StreamerState();
    }
  }

  /**
   * Looks at the stream at {@code nowNanos}: ends the previous group's record when its streamers
   * moved on, measures each streamer of the current group and, while {@code drop} is non-null
   * and the group has not let one go, asks it. {@code scratch} must hold a window and one more;
   * {@code log} takes the groups' records (null for none).
   */
  Outcome look(long nowNanos, StripedDrop drop, Slack slack, long[] scratch, StatsLog log)
      throws ReflectiveOperationException {
    if (streamers.closed()) {
      endGroup(nowNanos);
      return Outcome.CLOSED;
    }
    boolean any = false;
    long current = Long.MIN_VALUE;
    for (int i = 0; i < seen.length; i++) {
      streamers.read(i, seen[i]);
      if (seen[i].hasBlock) {
        // Group ids only grow: streamers still on the previous group have yet to move on.
        current = any ? Math.max(current, groupOf(seen[i].blockId, i))
            : groupOf(seen[i].blockId, i);
        any = true;
      }
    }
    if (!any) {
      return Outcome.WATCHING; // no group yet
    }
    if (!inGroup || current != group) {
      endGroup(nowNanos);
      beginGroup(current, nowNanos, log);
    }
    stats.clear();
    long outstanding = 0;
    for (int i = 0; i < seen.length; i++) {
      StreamerState s = seen[i];
      if (!s.healthy || !s.hasBlock || groupOf(s.blockId, i) != group) {
        // Failed, let go, given no DataNode, or not started on this group: the group is not
        // whole, and the rule keeps the rest.
        stats.add(null);
        continue;
      }
      groupAcked[i] = s.ackedBytes;
      if (s.dataNode == null) {
        stats.add(LatencyStats.EMPTY); // setting up its pipeline: nothing to judge yet
        continue;
      }
      groupNodes[i] = s.dataNode.getXferAddr();
      if (paces[i] == null || measured[i] != s.streamer || measuredBlock[i] != s.blockId) {
        measured[i] = s.streamer;
        measuredBlock[i] = s.blockId;
        paces[i] = new StreamerPace(known.of(groupNodes[i], nowNanos));
      }
      paces[i].observe(s.queuedSeqno, s.ackedSeqno, nowNanos);
      outstanding = Math.max(outstanding, paces[i].outstanding());
      stats.add(paces[i].stats(window, slack.percentile, slack.floorNanos, nowNanos, scratch));
    }
    if (drop == null || dropsInGroup > 0) {
      return Outcome.WATCHING;
    }
    Decision d = drop.decide(stats, parityUnits, dropsInGroup, outstanding, slack.recoveryNanos);
    String held = d.drop() ? heldBack(d.dropIndex(), nowNanos, slack.floorNanos) : null;
    if (held != null) {
      d = null;
    }
    if (d == null || !d.drop()) {
      StripedDrop.Reason why = d == null ? null : d.reason();
      if (LOG.isDebugEnabled() && (d == null || why != lastReason)) {
        LOG.debug("Keeping file={} group={} reason={} afterMs={} outstanding={} stats={}", src,
            group, d == null ? held : why,
            (nowNanos - groupStartNanos) / 1_000_000, outstanding, stats);
      }
      lastReason = why;
      return Outcome.WATCHING;
    }
    int i = d.dropIndex();
    StreamerState s = seen[i];
    if (!streamers.letGo(s.streamer, s.blockId)) {
      return Outcome.WATCHING; // it moved on meanwhile: the next look judges afresh
    }
    dropsInGroup++;
    lastDrop = new Dropped(src, group, s.blockId, i, s.dataNode, stats.get(i), d.toString(),
        nowNanos - groupStartNanos);
    tellDrop(i, s.dataNode, d, nowNanos);
    return Outcome.DROPPED;
  }

  /**
   * Why the streamer at {@code index}, which the rule would let go, is kept all the same; null if
   * it is not. It must be streaming to a DataNode known, with bytes of its internal block the
   * writer gave it that the DataNode has not acknowledged: stock bumps the group's generation
   * stamp for a streamer lost while data is in flight (at the next stripe or in {@code close}),
   * so the group goes on without it, but not for one lost once all its data is acknowledged,
   * while it sends its block's last, empty packet. And it must be slow now, waiting on a packet
   * for longer than the margin: the rule may judge on what earlier groups showed of its DataNode,
   * and one that has recovered acknowledges within the margin and is kept, its new samples
   * soon clearing its name.
   */
  private String heldBack(int index, long nowNanos, long floorNanos) {
    StreamerState s = seen[index];
    if (!s.streaming || s.dataNode == null || s.ackedBytes >= s.bytesCurBlock) {
      return "data all acknowledged";
    }
    if (paces[index].waitingNanos(nowNanos) <= floorNanos) {
      return "not waiting now";
    }
    return null;
  }

  /** The last streamer let go, after {@link Outcome#DROPPED}. */
  Dropped lastDrop() {
    return lastDrop;
  }

  /** Block groups this stream was seen writing. */
  long groups() {
    return groups;
  }

  /** Ends the current group's record, if any: the stream closed, or it went on to the next. */
  void endGroup(long nowNanos) {
    if (!inGroup) {
      return;
    }
    long bytes = 0;
    for (int i = 0; i < dataUnits; i++) {
      bytes += groupAcked[i];
    }
    record.dataNodes(Arrays.asList(groupNodes.clone()));
    record.done(bytes, nowNanos);
    LOG.debug("Group done file={} group={} ms={} drops={} datanodes={} stats={}", src, group,
        (nowNanos - groupStartNanos) / 1_000_000, dropsInGroup, groupNodes, stats);
    record = BlockObserver.NONE;
    inGroup = false;
  }

  private void beginGroup(long id, long nowNanos, StatsLog log) {
    inGroup = true;
    group = id;
    groups++;
    groupStartNanos = nowNanos;
    dropsInGroup = 0;
    lastReason = null;
    Arrays.fill(groupNodes, "");
    Arrays.fill(groupAcked, 0);
    Arrays.fill(paces, null); // the group has streamers of its own
    Arrays.fill(measured, null);
    record = log == null ? BlockObserver.NONE : log.group(src, id, nowNanos, nowNanos);
  }

  /** Tells the group's record what was known and what was let go. */
  private void tellDrop(int index, DatanodeInfo node, Decision d, long nowNanos) {
    long[] p = new long[stats.size()];
    int[] n = new int[stats.size()];
    for (int i = 0; i < p.length; i++) {
      LatencyStats s = stats.get(i);
      p[i] = s == null ? 0 : s.percentileNanos();
      n[i] = s == null ? 0 : s.samples();
    }
    record.samples(Arrays.asList(groupNodes.clone()), p, n, groupAcked[index], nowNanos);
    record.replaced(index, node.getXferAddr(), "", "slow", "dropped from the block group: " + d);
  }

  /** The group of internal block {@code blockId}, the {@code index}th: its id less its index. */
  static long groupOf(long blockId, int index) {
    return blockId - index;
  }

  /**
   * What the rule is judged with: the percentile compared, a floor under which a wait on a packet
   * says nothing (the rule's margin: looks a period apart measure within a period either way),
   * and what letting a streamer go costs the others.
   */
  static final class Slack {
    final double percentile;
    final long floorNanos;
    final long recoveryNanos;

    Slack(double percentile, long floorNanos, long recoveryNanos) {
      this.percentile = percentile;
      this.floorNanos = floorNanos;
      this.recoveryNanos = recoveryNanos;
    }
  }
}
