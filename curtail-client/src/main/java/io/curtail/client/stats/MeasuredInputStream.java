package io.curtail.client.stats;

import io.curtail.client.stream.PositionalInputStream;
import io.curtail.client.stream.HdfsInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanSetDropBehind;
import org.apache.hadoop.fs.CanSetReadahead;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.ReadStatistics;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * A stock {@link DFSInputStream}, timed per block for per-block statistics where a file system
 * with statistics on reads through stock's streams (an A/B cohort {@code none}, or hedging off),
 * so that a control cohort has records to compare with. It changes nothing stock does: each call
 * goes to the stock stream as it came, except that a positional read spanning blocks is made as
 * one call per block, as stock's own positional read fetches them one by one anyway.
 *
 * <p>Records are as Curtail's readers make them: one per range of a block that sequential reads
 * covered (from the first call that read from the block to the last, ended by a seek, the next
 * block or {@code close}) and one per block a positional read covered, with the replica order
 * the NameNode gave (stock does not tell which replica served a positional read).
 */
public final class MeasuredInputStream extends PositionalInputStream implements
    ByteBufferReadable, CanSetReadahead, CanSetDropBehind, CanUnbuffer, StreamCapabilities,
    HdfsInput {
  private final DFSInputStream in;
  private final StatsLog log;
  /** The file's blocks, for positional reads; fetched on the first, again past their end. */
  private List<LocatedBlock> blocks;
  /** The range of a block sequential reads are covering; null between ranges. */
  private Range sequential;

  /** What sequential reads have taken from one block so far. */
  private static final class Range {
    final long blockId;
    final long startNanos;
    final long startMillis;
    final String dataNode;
    long bytes;
    long lastNanos;

    Range(long blockId, long startNanos, long startMillis, String dataNode) {
      this.blockId = blockId;
      this.startNanos = startNanos;
      this.startMillis = startMillis;
      this.dataNode = dataNode;
    }
  }

  public MeasuredInputStream(DFSInputStream in, StatsLog log, String file) {
    super(file);
    this.in = in;
    this.log = log;
  }

  @Override
  public synchronized int read() throws IOException {
    long nanos = System.nanoTime();
    long millis = System.currentTimeMillis();
    int b = in.read();
    readSequentially(nanos, millis, b < 0 ? -1 : 1);
    return b;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    long nanos = System.nanoTime();
    long millis = System.currentTimeMillis();
    int n = in.read(b, off, len);
    readSequentially(nanos, millis, n);
    return n;
  }

  @Override
  public synchronized int read(ByteBuffer buf) throws IOException {
    long nanos = System.nanoTime();
    long millis = System.currentTimeMillis();
    int n = in.read(buf);
    readSequentially(nanos, millis, n);
    return n;
  }

  /**
   * Notes {@code n} bytes a sequential read call begun at {@code nanos} took from the block stock
   * now reads (a stock read call never crosses a block's end), ending the previous range if that
   * was another block's.
   */
  private void readSequentially(long nanos, long millis, int n) {
    if (n <= 0) {
      return;
    }
    ExtendedBlock block = in.getCurrentBlock();
    long id = block == null ? -1 : block.getBlockId();
    if (sequential == null || sequential.blockId != id) {
      endSequential();
      DatanodeInfo dn = in.getCurrentDatanode();
      sequential = new Range(id, nanos, millis, dn == null ? null : dn.getXferAddr());
    }
    sequential.bytes += n;
    sequential.lastNanos = System.nanoTime();
  }

  private void endSequential() {
    Range r = sequential;
    sequential = null;
    if (r != null) {
      BlockRecord rec = log.stock(false, file, r.blockId, r.startNanos, r.startMillis);
      if (r.dataNode != null) {
        rec.dataNodes(Collections.singletonList(r.dataNode));
      }
      rec.done(r.bytes, r.lastNanos);
    }
  }

  @Override
  public synchronized void seek(long pos) throws IOException {
    if (pos != in.getPos()) {
      endSequential();
    }
    in.seek(pos);
  }

  @Override
  public synchronized long getPos() {
    return in.getPos();
  }

  @Override
  public synchronized boolean seekToNewSource(long targetPos) throws IOException {
    endSequential();
    return in.seekToNewSource(targetPos);
  }

  @Override
  public synchronized int available() throws IOException {
    return in.available();
  }

  /**
   * One stock positional read per block the range covers, each recorded; stops at the first
   * that returns short, as a positional read may.
   */
  @Override
  protected int positionalRead(long position, ByteBuffer dst) throws IOException {
    if (!dst.hasRemaining() || position < 0 || position >= in.getFileLength()) {
      return in.read(position, dst); // stock's answer and stock's errors
    }
    int total = 0;
    while (dst.hasRemaining() && position < in.getFileLength()) {
      LocatedBlock b = blockAt(position);
      long blockEnd = b == null ? Long.MAX_VALUE : b.getStartOffset() + b.getBlockSize();
      int piece = (int) Math.min(dst.remaining(), Math.max(1, blockEnd - position));
      int limit = dst.limit();
      dst.limit(dst.position() + piece);
      long nanos = System.nanoTime();
      long millis = System.currentTimeMillis();
      int n;
      try {
        n = in.read(position, dst);
      } finally {
        dst.limit(limit);
      }
      if (n <= 0) {
        return total == 0 ? n : total;
      }
      BlockRecord rec = log.stock(false, file, b == null ? -1 : b.getBlock().getBlockId(), nanos,
          millis);
      if (b != null) {
        rec.dataNodes(addresses(b.getLocations()));
      }
      rec.done(n, System.nanoTime());
      total += n;
      position += n;
      if (n < piece) {
        break;
      }
    }
    return total;
  }

  /** The block holding {@code position}, from the list fetched once; null if none is known. */
  private synchronized LocatedBlock blockAt(long position) throws IOException {
    for (int attempt = 0; attempt < 2; attempt++) {
      if (blocks == null || attempt == 1) {
        blocks = in.getAllBlocks();
      }
      for (LocatedBlock b : blocks) {
        if (position >= b.getStartOffset() && position < b.getStartOffset() + b.getBlockSize()) {
          return b;
        }
      }
    }
    return null;
  }

  private static List<String> addresses(DatanodeInfo[] nodes) {
    List<String> out = new ArrayList<>(nodes.length);
    for (DatanodeInfo d : nodes) {
      out.add(d.getXferAddr());
    }
    return out;
  }

  /** Bytes the stock stream delivered so far, sequentially and by position. */
  public long bytesRead() {
    return in.getReadStatistics().getTotalBytesRead();
  }

  @Override
  public void setReadahead(Long readahead) throws IOException {
    in.setReadahead(readahead);
  }

  @Override
  public void setDropBehind(Boolean dropBehind) throws IOException {
    in.setDropBehind(dropBehind);
  }

  @Override
  public synchronized void unbuffer() {
    endSequential();
    in.unbuffer();
  }

  @Override
  public boolean hasCapability(String capability) {
    return in.hasCapability(capability);
  }

  // What HdfsDataInputStream tells of the stream: the stock stream's own answers.

  @Override
  public DatanodeInfo getCurrentDatanode() {
    return in.getCurrentDatanode();
  }

  @Override
  public ExtendedBlock getCurrentBlock() {
    return in.getCurrentBlock();
  }

  @Override
  public List<LocatedBlock> getAllBlocks() throws IOException {
    return in.getAllBlocks();
  }

  @Override
  public long getVisibleLength() {
    return in.getFileLength();
  }

  @Override
  public ReadStatistics getReadStatistics() {
    return in.getReadStatistics();
  }

  @Override
  public void clearReadStatistics() {
    in.clearReadStatistics();
  }

  @Override
  public synchronized void close() throws IOException {
    endSequential();
    in.close();
  }

  @Override
  public String toString() {
    return "MeasuredInputStream{" + in + '}';
  }
}
