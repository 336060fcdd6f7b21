package io.curtail.client.write.striped;

import io.curtail.client.track.LatencyStats;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;

/** A streamer of a block group let go for falling behind: which, where, and on what evidence. */
public final class Dropped {
  private final String file;
  private final long groupId;
  private final long blockId;
  private final int index;
  private final DatanodeInfo dataNode;
  private final LatencyStats stats;
  private final String decision;
  private final long afterNanos;

  Dropped(String file, long groupId, long blockId, int index, DatanodeInfo dataNode,
      LatencyStats stats, String decision, long afterNanos) {
    this.file = file;
    this.groupId = groupId;
    this.blockId = blockId;
    this.index = index;
    this.dataNode = dataNode;
    this.stats = stats;
    this.decision = decision;
    this.afterNanos = afterNanos;
  }

  public String file() {
    return file;
  }

  /** The block group's id. */
  public long groupId() {
    return groupId;
  }

  /** The internal block the streamer was writing. */
  public long blockId() {
    return blockId;
  }

  /** Its index in the group: data units first, then parity. */
  public int index() {
    return index;
  }

  public DatanodeInfo dataNode() {
    return dataNode;
  }

  /** The lateness of its packets when it was let go. */
  public LatencyStats stats() {
    return stats;
  }

  /** What {@code StripedDrop} decided, with its predictions. */
  public String decision() {
    return decision;
  }

  /** How long after the group was first seen it was let go. */
  public long afterNanos() {
    return afterNanos;
  }

  @Override
  public String toString() {
    return "Dropped{file=" + file + ", group=" + groupId + ", block=" + blockId + ", index="
        + index + ", datanode=" + dataNode.getXferAddr() + ", afterMs=" + afterNanos / 1_000_000
        + ", stats=" + stats + ", " + decision + '}';
  }
}
