package io.curtail.client.read;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSClient;
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

  /**
   * The file system's configuration, for the RPCs of reads of block files on this host where
   * short-circuit reads are on; null where no replica is to be read so: a file being written
   * (stock's stream forbids it then), a read outside a stream.
   */
  default Configuration localReads() {
    return null;
  }

  /**
   * {@code plan} while it is fresh, and locations asked again kept by nobody: for a read of one
   * block outside a stream.
   */
  static BlockSource fixed(ReadContext ctx, DFSClient client, String file, ReplicaPlan plan) {
    return new BlockSource() {
      @Override
      public ReplicaPlan plan(LocatedBlock b) {
        return b == plan.block && plan.fresh(ctx) ? plan : ReplicaPlan.of(ctx, b);
      }

      @Override
      public LocatedBlock refetch(LocatedBlock b) throws IOException {
        for (LocatedBlock l : client.getLocatedBlocks(file, b.getStartOffset(), 1)
            .getLocatedBlocks()) {
          if (l.getStartOffset() == b.getStartOffset()) {
            return l;
          }
        }
        throw new IOException("The NameNode no longer lists " + b.getBlock() + " of " + file
            + " at offset " + b.getStartOffset());
      }
    };
  }
}
