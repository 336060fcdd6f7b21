package io.curtail.client.read;

import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * Where a {@link BlockRead} gets its block's replica order, and the block's locations again when
 * those it has failed: the stream that started it, which keeps what the NameNode said (new
 * replicas, new block tokens) for the reads after, so that one refetch serves them all.
 */
interface BlockSource {
  /** The order to read {@code block}'s replicas in. */
  ReplicaPlan plan(LocatedBlock block);

  /**
   * {@code block}'s locations and token as the NameNode gives them now.
   *
   * @throws IOException if the NameNode fails, or lists no replica of the block
   */
  LocatedBlock refetch(LocatedBlock block) throws IOException;
}
