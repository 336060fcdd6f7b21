package io.curtail.client.read;

import java.io.EOFException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * The blocks of a file a {@link CurtailInputStream} reads, up to its visible length: their
 * locations as last asked of the NameNode and each one's replica order. Locations asked again (a
 * block token expired, every replica failed) replace the ones held, so the reads after use them:
 * one refetch per expiry, not one per read, and memory bounded by the file's blocks.
 *
 * <p>The blocks past the first {@code dfs.client.read.prefetch.size} bytes are asked of the
 * NameNode again when first read, as a stock stream asks for them only then: a file truncated
 * since the open then ends there with stock's {@link EOFException}, rather than the stream reading
 * a removed block from a DataNode that has not deleted it yet.
 *
 * <p>Thread-safe: positional reads look blocks up from any number of threads.
 */
final class FileBlocks implements BlockSource {
  private final ReadContext ctx;
  private final DFSClient client;
  private final String file;
  private final long length;
  /** What reads of local block files use; null if none is to be made (see BlockSource). */
  private final Configuration localReads;
  /** The file's blocks in order, each replaced when its locations are fetched again. */
  private final AtomicReferenceArray<LocatedBlock> blocks;
  /** Each block's replica order, by the index of its block in {@link #blocks}. */
  private final AtomicReferenceArray<ReplicaPlan> plans;
  /** Bytes each ask of the NameNode covers, as stock's ({@code dfs.client.read.prefetch.size}). */
  private final long prefetch;
  /** 1 for each block located as a stock stream would have by now: see the class comment. */
  private final AtomicIntegerArray located;

  /**
   * @param all the file's blocks as the NameNode listed them on open (none if it is empty)
   * @param lastBeingWritten whether the last of them is still being written: the NameNode,
   *     which knows no length for it yet, is never asked for it again (its assertions refuse
   *     a block of length 0), as stock's stream never asks
   */
  FileBlocks(ReadContext ctx, DFSClient client, String file, long length,
      List<LocatedBlock> all, boolean lastBeingWritten, Configuration localReads) {
    this.localReads = localReads;
    this.ctx = ctx;
    this.client = client;
    this.file = file;
    this.length = length;
    this.blocks = new AtomicReferenceArray<>(all.toArray(new LocatedBlock[0]));
    this.plans = new AtomicReferenceArray<>(all.size());
    this.prefetch = Math.max(1, client.getConf().getPrefetchSize());
    this.located = new AtomicIntegerArray(all.size());
    for (int i = 0; i < all.size() && all.get(i).getStartOffset() < prefetch; i++) {
      located.set(i, 1); // what a stock stream's open locates
    }
    if (lastBeingWritten && !all.isEmpty()) {
      located.set(all.size() - 1, 1);
    }
  }

  @Override
  public Configuration localReads() {
    return localReads;
  }

  /** The file's blocks with their locations as last fetched, in order. */
  List<LocatedBlock> all() {
    LocatedBlock[] all = new LocatedBlock[blocks.length()];
    for (int i = 0; i < all.length; i++) {
      all[i] = blocks.get(i);
    }
    return java.util.Collections.unmodifiableList(java.util.Arrays.asList(all));
  }

  /**
   * The block holding file offset {@code offset}, which must be below the length.
   *
   * @throws EOFException if the NameNode now lists no block there (the file was truncated)
   */
  LocatedBlock at(long offset) throws IOException {
    int i = indexAt(offset);
    if (located.get(i) == 0) {
      LocatedBlock held = blocks.get(i);
      List<LocatedBlock> fresh =
          client.getLocatedBlocks(file, offset, prefetch).getLocatedBlocks();
      if (fresh.isEmpty()) {
        throw new EOFException("Could not find target position " + offset); // stock's text
      }
      return keep(fresh, held);
    }
    return blocks.get(i);
  }

  /** The index in {@link #blocks} of the block holding {@code offset}. */
  private int indexAt(long offset) throws IOException {
    int lo = 0;
    int hi = blocks.length() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      LocatedBlock b = blocks.get(mid);
      if (offset < b.getStartOffset()) {
        hi = mid - 1;
      } else if (offset >= b.getStartOffset() + readable(b)) {
        lo = mid + 1;
      } else {
        return mid;
      }
    }
    throw new IOException("no block of " + file + " holds offset " + offset + " (length "
        + length + ")");
  }

  /** The order to read {@code b}'s replicas in: the last one made for it, while fresh. */
  @Override
  public ReplicaPlan plan(LocatedBlock b) {
    int i;
    try {
      i = indexAt(b.getStartOffset());
    } catch (IOException notOurs) {
      return ReplicaPlan.of(ctx, b); // cannot be: every block read is one of the file's
    }
    ReplicaPlan plan = plans.get(i);
    if (plan == null || plan.block != b || !plan.fresh(ctx)) {
      plan = ReplicaPlan.of(ctx, b);
      plans.set(i, plan);
    }
    return plan;
  }

  /**
   * Asks the NameNode for {@code stale}'s locations again, and for those of the blocks after it
   * as far as a stock stream prefetches ({@code dfs.client.read.prefetch.size}), and keeps them
   * in place of the stream's: their tokens expired together, so one call renews them all.
   */
  @Override
  public LocatedBlock refetch(LocatedBlock stale) throws IOException {
    return keep(client.getLocatedBlocks(file, stale.getStartOffset(), prefetch)
        .getLocatedBlocks(), stale);
  }

  /**
   * Keeps {@code fresh}, the NameNode's answer, in place of the blocks held, and returns its
   * {@code stale}.
   *
   * @throws IOException if the NameNode lists another block, or none, where {@code stale} was
   */
  private LocatedBlock keep(List<LocatedBlock> fresh, LocatedBlock stale) throws IOException {
    LocatedBlock wanted = null;
    for (LocatedBlock b : fresh) {
      if (b.getStartOffset() >= length) {
        break; // past what this stream may read
      }
      int i = indexAt(b.getStartOffset());
      if (blocks.get(i).getStartOffset() == b.getStartOffset()
          && blocks.get(i).getBlock().getBlockId() == b.getBlock().getBlockId()) {
        blocks.set(i, b);
        located.set(i, 1);
      }
      if (b.getStartOffset() == stale.getStartOffset()) {
        wanted = b;
      }
    }
    if (wanted == null || wanted.getBlock().getBlockId() != stale.getBlock().getBlockId()) {
      throw new IOException("The NameNode no longer lists " + stale.getBlock() + " of " + file
          + " at offset " + stale.getStartOffset() + ": " + fresh);
    }
    return wanted;
  }

  /**
   * Bytes of {@code b} within the file's visible length. The last block may be still being written,
   * and then the visible length (asked of every replica on open) is what counts, not the NameNode's
   * size of the block.
   */
  long readable(LocatedBlock b) {
    long rest = length - b.getStartOffset();
    boolean last = b.getStartOffset() == blocks.get(blocks.length() - 1).getStartOffset();
    return last ? rest : Math.min(b.getBlockSize(), rest);
  }
}
