package io.curtail.client.read;

import io.curtail.client.wire.Abortable;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;

/**
 * Reads a byte range of one replica, a piece at a time: over TCP from its DataNode
 * ({@link PacketReader}) or, where short-circuit reads are on and the replica is on this host,
 * from its block file ({@link LocalReplica}). {@link BlockRead} times each piece and hedges a slow
 * one the same way whichever it is: one mechanism for both.
 *
 * <p>Not thread-safe, except {@link #abort()}.
 */
abstract class ReplicaReader implements Closeable, Abortable {
  /**
   * A reader of {@code length} bytes of {@code block}'s replica on {@code dataNode} from
   * {@code offset} within it, not yet started (its first {@link #next()} opens the replica).
   * {@code localReads}, the file system's configuration, is null where no replica of this block
   * is to be read from its file.
   */
  static ReplicaReader open(ReadContext ctx, DFSClient client, String file, LocatedBlock block,
      DatanodeInfo dataNode, long offset, long length, CachingStrategy caching,
      boolean verifyChecksum, Configuration localReads) {
    if (localReads != null && LocalReplica.worthTrying(client, dataNode)) {
      return new LocalReplica(ctx, client, localReads, file, block, dataNode, offset, length,
          caching, verifyChecksum);
    }
    return PacketReader.create(ctx, client, file, block, dataNode, offset, length, caching,
        verifyChecksum);
  }

  /**
   * The next bytes of the range, valid until the next call; null once the range is done.
   *
   * @throws org.apache.hadoop.fs.ChecksumException if the replica is corrupt
   */
  abstract ByteBuffer next() throws IOException;

  /** After the range's last byte: readies what it read through for reuse; whether it could. */
  abstract boolean finishRange(int timeoutMs);

  /** How long ago the replica was asked for the range, {@code fallbackNanos} if not yet. */
  abstract long sinceRequest(long nowNanos, long fallbackNanos);

  /** Whether it has started: its next piece is not the read's first. */
  abstract boolean connected();

  /** Offset in the block of the next byte {@link #next()} returns. */
  abstract long position();

  abstract DatanodeInfo dataNode();

  /** The network distance to the DataNode, as stock counts it for the statistics. */
  abstract int networkDistance();

  /** Whether the bytes came from the block file, not from the DataNode (stock's statistics). */
  boolean shortCircuit() {
    return false;
  }

  /** Ends the read; what it read through is pooled if it finished, else closed. */
  @Override
  public abstract void close();
}
