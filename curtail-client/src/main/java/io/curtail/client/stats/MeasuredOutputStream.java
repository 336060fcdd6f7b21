package io.curtail.client.stats;

import io.curtail.client.stream.HdfsOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.CanSetDropBehind;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream.SyncFlag;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stock output stream, timed per block for per-block statistics where a file system with
 * statistics on writes through stock's streams (an A/B cohort {@code none}, or fail-fast off).
 * Every call goes to the stock stream as it came.
 *
 * <p>Stock's writer tells nobody when a block starts or is acknowledged, so a block's time here
 * is as the application saw it: from the call that wrote its first byte to the call that wrote
 * the next block's first byte (or {@code close} returning, for the last). Stock keeps up to
 * {@code dfs.client.write.max-packets} packets in flight, so a file's first block looks faster and
 * its last slower than their pipelines took; a file's total is exact. Curtail's writer times a
 * block from its allocation to its last acknowledgement. Block ids and DataNodes are asked of the
 * NameNode as each new block begins (for those two or more behind, once it lists them) and at
 * {@code close}: about one {@code getBlockLocations} per block, only with statistics on. Right
 * after {@code close} the NameNode may not yet list every replica of the last block.
 */
public final class MeasuredOutputStream extends OutputStream implements Syncable,
    StreamCapabilities, CanSetDropBehind, HdfsOutput {
  private static final Logger LOG = LoggerFactory.getLogger(MeasuredOutputStream.class);

  private final HdfsDataOutputStream out;
  private final DFSClient client;
  private final StatsLog log;
  private final String file;
  private final long blockSize;
  /** Blocks written and not yet recorded, the oldest first; the last is being written. */
  private final ArrayDeque<Written> pending = new ArrayDeque<>();
  private long pos;
  private boolean closed;

  /** Bytes the application wrote into one block. */
  private static final class Written {
    final long index;
    final long startNanos;
    final long startMillis;
    long bytes;
    long endNanos;

    Written(long index, long startNanos, long startMillis) {
      this.index = index;
      this.startNanos = startNanos;
      this.startMillis = startMillis;
    }
  }

  /**
   * @param out the stock stream, at the file's end ({@code out.getPos()}: 0, or an append's
   *     length)
   */
  public MeasuredOutputStream(HdfsDataOutputStream out, DFSClient client, StatsLog log, String file,
      long blockSize) {
    this.out = out;
    this.client = client;
    this.log = log;
    this.file = file;
    this.blockSize = blockSize;
    this.pos = out.getPos();
  }

  @Override
  public synchronized void write(int b) throws IOException {
    long nanos = System.nanoTime();
    long millis = System.currentTimeMillis();
    out.write(b);
    wrote(nanos, millis, 1);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    long nanos = System.nanoTime();
    long millis = System.currentTimeMillis();
    out.write(b, off, len);
    wrote(nanos, millis, len);
  }

  /** Files {@code len} bytes written by a call begun at {@code nanos} under their blocks. */
  private void wrote(long nanos, long millis, int len) {
    long now = System.nanoTime();
    long end = pos + len;
    boolean newBlock = false;
    while (pos < end) {
      long index = pos / blockSize;
      Written last = pending.peekLast();
      if (last == null || last.index != index) {
        if (last != null) {
          last.endNanos = nanos; // the next block's first byte: the application is past it
        }
        last = new Written(index, nanos, millis);
        pending.addLast(last);
        newBlock = true;
      }
      long n = Math.min(end, (index + 1) * blockSize) - pos;
      last.bytes += n;
      last.endNanos = now;
      pos += n;
    }
    if (newBlock && pending.size() > 2) {
      record(pending.size() - 2, false);
    }
  }

  /**
   * Records the oldest of the first {@code count} pending blocks the NameNode already lists whole
   * (stock's writer may still be sending a block the application is long past), in order; with
   * {@code all}, every one of them, those it does not list with no block id.
   */
  private void record(int count, boolean all) {
    Written first = pending.peekFirst();
    List<LocatedBlock> located;
    try {
      located = client.getLocatedBlocks(file, first.index * blockSize,
          (long) count * blockSize).getLocatedBlocks();
    } catch (IOException | RuntimeException e) {
      LOG.debug("No block ids for statistics file={} reason={}", file, e.toString());
      located = new ArrayList<>();
    }
    for (int i = 0; i < count; i++) {
      Written w = pending.peekFirst();
      LocatedBlock b = blockAt(located, w.index * blockSize);
      if (b == null && !all) {
        return;
      }
      pending.pollFirst();
      BlockRecord rec = log.stock(true, file, b == null ? -1 : b.getBlock().getBlockId(),
          w.startNanos, w.startMillis);
      if (b != null) {
        List<String> nodes = new ArrayList<>();
        for (DatanodeInfo d : b.getLocations()) {
          nodes.add(d.getXferAddr());
        }
        rec.dataNodes(nodes);
      }
      rec.done(w.bytes, w.endNanos);
    }
  }

  private static LocatedBlock blockAt(List<LocatedBlock> blocks, long offset) {
    for (LocatedBlock b : blocks) {
      if (b.getStartOffset() == offset && b.getBlockSize() > 0) {
        return b;
      }
    }
    return null;
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void hflush() throws IOException {
    out.hflush();
  }

  @Override
  public void hsync() throws IOException {
    out.hsync();
  }

  @Override
  public void hsync(EnumSet<SyncFlag> flags) throws IOException {
    out.hsync(flags);
  }

  @Override
  public int getCurrentBlockReplication() throws IOException {
    return out.getCurrentBlockReplication();
  }

  @Override
  public boolean hasCapability(String capability) {
    return out.hasCapability(capability);
  }

  @Override
  public void setDropBehind(Boolean dropBehind) throws IOException {
    out.setDropBehind(dropBehind);
  }

  /** Closes the stock stream, then records what is left: the last block ends as close returns. */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
    } finally {
      Written last = pending.peekLast();
      if (last != null) {
        last.endNanos = System.nanoTime();
        record(pending.size(), true);
      }
    }
  }

  @Override
  public String toString() {
    return "MeasuredOutputStream{" + out + '}';
  }
}
