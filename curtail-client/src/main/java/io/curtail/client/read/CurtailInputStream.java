package io.curtail.client.read;

import io.curtail.client.stream.HdfsInput;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanSetReadahead;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.ReadStatistics;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.net.NetUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Curtail's input stream: sequential and positional reads of a replicated, unencrypted file,
 * block by block, with every packet timed and slow packets hedged (see {@link BlockRead}).
 *
 * <p>The file's metadata comes from a stock {@link DFSInputStream} opened the usual way, so
 * errors on open and the block list are exactly the stock client's; that stream never reads data.
 * The visible length of a file still being written is the least its last block's replicas show
 * ({@link VisibleLength}), which never goes back from one open to the next.
 *
 * <p>Sequential reads are for one thread at a time, like any {@code InputStream}; positional
 * reads may run from any number of threads alongside them, each on its own connections.
 */
public final class CurtailInputStream extends PositionalInputStream implements ByteBufferReadable,
    CanUnbuffer, CanSetReadahead, StreamCapabilities, HdfsInput {
  private static final Logger LOG = LoggerFactory.getLogger(CurtailInputStream.class);
  private final ReadContext ctx;
  private final DFSClient client;
  private final DFSInputStream metadata;
  private final FileSystem.Statistics statistics;
  private final long length;
  private final List<LocatedBlock> blocks;
  private final byte[] oneByte = new byte[1];
  /** Each block's replica order, by block (identity: the blocks of {@link #blocks}). */
  private final Map<LocatedBlock, ReplicaPlan> plans = new ConcurrentHashMap<>();
  /**
   * How far ahead a seek may read through the bytes the sequential read is already streaming
   * rather than cut it and start a new one; the TCP window stock reads through for the same
   * reason. Reading 128 KiB and verifying its checksums costs a fraction of a millisecond, well
   * under a new {@code readBlock}'s round trip and first packet.
   */
  static final int READ_THROUGH_BYTES = 128 * 1024;

  private long pos;
  private BlockRead sequential;
  private ByteBuffer buffered;
  private volatile boolean closed;
  /** Bytes this stream delivered, sequentially and by position. */
  private final LongAdder bytesRead = new LongAdder();
  /** The same bytes by where they came from, as {@code HdfsDataInputStream} tells them. */
  private final ReadStatistics readStatistics = new ReadStatistics();
  /** The DataNode bytes last came from and whether it is on this host: one lookup per change. */
  private volatile Locality lastSource;

  /** @param conf the file system's configuration, for RPCs to DataNodes */
  public CurtailInputStream(ReadContext ctx, DFSClient client, Configuration conf, String file,
      DFSInputStream metadata, FileSystem.Statistics statistics) throws IOException {
    super(file);
    this.ctx = ctx;
    this.client = client;
    this.metadata = metadata;
    this.statistics = statistics;
    this.length = VisibleLength.of(client, conf, metadata, file);
    this.blocks = length == 0 ? java.util.Collections.emptyList() : metadata.getAllBlocks();
  }

  /** The block holding file offset {@code offset}, which must be below the length. */
  private LocatedBlock blockAt(long offset) throws IOException {
    int lo = 0;
    int hi = blocks.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      LocatedBlock b = blocks.get(mid);
      if (offset < b.getStartOffset()) {
        hi = mid - 1;
      } else if (offset >= b.getStartOffset() + readable(b)) {
        lo = mid + 1;
      } else {
        return b;
      }
    }
    throw new IOException("no block of " + file + " holds offset " + offset + " (length "
        + length + ")");
  }

  /** The order to read {@code b}'s replicas in: the last one made for it, while fresh. */
  private ReplicaPlan planFor(LocatedBlock b) {
    ReplicaPlan plan = plans.get(b);
    if (plan == null || !plan.fresh(ctx)) {
      plan = ReplicaPlan.of(ctx, b);
      plans.put(b, plan);
    }
    return plan;
  }

  /**
   * Bytes of {@code b} within the file's visible length. The last block may be still being written,
   * and then the visible length (asked of every replica on open) is what counts, not the NameNode's
   * size of the block.
   */
  private long readable(LocatedBlock b) {
    long rest = length - b.getStartOffset();
    return b == blocks.get(blocks.size() - 1) ? rest : Math.min(b.getBlockSize(), rest);
  }

  /** Fails as stock's stream does, with its texts: a closed file system, then a closed stream. */
  private void checkOpen() throws IOException {
    if (!client.isClientRunning()) {
      throw new IOException("Filesystem closed");
    }
    if (closed) {
      throw new IOException("Stream closed");
    }
  }

  @Override
  public synchronized int read() throws IOException {
    int n = read(oneByte, 0, 1);
    return n < 0 ? -1 : oneByte[0] & 0xff;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    checkOpen();
    if (off < 0 || len < 0 || len > b.length - off) {
      throw new IndexOutOfBoundsException("off=" + off + " len=" + len + " length=" + b.length);
    }
    if (len == 0) {
      return 0;
    }
    if (!fill()) {
      return -1;
    }
    int n = Math.min(len, buffered.remaining());
    buffered.get(b, off, n);
    pos += n;
    counted(n, sequential == null ? null : sequential.currentDataNode());
    return n;
  }

  @Override
  public synchronized int read(ByteBuffer dst) throws IOException {
    checkOpen();
    if (!dst.hasRemaining()) {
      return 0;
    }
    if (!fill()) {
      return -1;
    }
    int n = Math.min(dst.remaining(), buffered.remaining());
    ByteBuffer slice = buffered.duplicate();
    slice.limit(slice.position() + n);
    dst.put(slice);
    buffered.position(buffered.position() + n);
    pos += n;
    counted(n, sequential == null ? null : sequential.currentDataNode());
    return n;
  }

  /** Makes {@code buffered} hold the bytes at {@code pos}; false at the end of the file. */
  private boolean fill() throws IOException {
    while (buffered == null || !buffered.hasRemaining()) {
      if (pos >= length) {
        return false;
      }
      if (sequential == null) {
        LocatedBlock b = blockAt(pos);
        long inBlock = pos - b.getStartOffset();
        sequential = new BlockRead(ctx, client, file, this::planFor, b, inBlock,
            readable(b) - inBlock);
      }
      buffered = sequential.next();
      if (buffered == null) {
        sequential.close();
        sequential = null;
      }
    }
    return true;
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    // Stock's texts (DFSInputStream's), which users' code and scripts match on.
    if (target < 0) {
      throw new EOFException("Cannot seek to negative offset");
    }
    if (target > length) {
      throw new EOFException("Cannot seek after EOF");
    }
    long ahead = target - pos;
    if (buffered != null && ahead >= 0 && ahead <= buffered.remaining()) {
      buffered.position(buffered.position() + (int) ahead); // within the packet in hand
    } else if (sequential != null && ahead > 0 && ahead <= READ_THROUGH_BYTES
        && target < sequential.fileEnd()) {
      readThrough(target);
    } else if (target != pos) {
      dropSequential();
    }
    pos = target;
  }

  /**
   * Moves the sequential read on to {@code target}, ahead in its range, by reading and dropping
   * the packets before it (every one verified, as any packet is). A failure drops the read
   * instead, as stock's seek does: the next read starts afresh at the target, and fails there if
   * it must. Only an interrupt ends the seek.
   */
  private void readThrough(long target) throws InterruptedIOException {
    long next = pos + (buffered == null ? 0 : buffered.remaining()); // where packets resume
    try {
      for (ByteBuffer data = sequential.next(); data != null; data = sequential.next()) {
        if (target < next + data.remaining()) {
          data.position(data.position() + (int) (target - next));
          buffered = data;
          return;
        }
        next += data.remaining();
      }
    } catch (InterruptedIOException e) {
      dropSequential();
      throw e; // the caller wants to stop, not to read on elsewhere
    } catch (IOException e) {
      LOG.debug("Reading through to {} of {} failed; the next read starts afresh", target, file,
          e);
    }
    dropSequential();
  }

  /** The DataNode sequential reads are being served by, or null when none is connected. */
  @Override
  public synchronized DatanodeInfo getCurrentDatanode() {
    return sequential == null ? null : sequential.currentDataNode();
  }

  @Override
  public synchronized long getPos() {
    return pos;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false; // every read already moves to another replica when one fails
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    return (int) Math.min(Integer.MAX_VALUE, length - pos);
  }

  /** Reads at {@code position} into {@code dst}, touching none of the sequential state. */
  @Override
  protected int positionalRead(long position, ByteBuffer dst) throws IOException {
    checkOpen();
    if (position < 0) {
      throw new EOFException("Negative position in a positional read of " + file + ": "
          + position);
    }
    if (!dst.hasRemaining()) {
      return 0;
    }
    if (position >= length) {
      return -1;
    }
    int total = 0;
    while (dst.hasRemaining() && position < length) {
      LocatedBlock b = blockAt(position);
      long inBlock = position - b.getStartOffset();
      long want = Math.min(dst.remaining(), readable(b) - inBlock);
      try (BlockRead read = new BlockRead(ctx, client, file, this::planFor, b, inBlock, want)) {
        for (ByteBuffer data = read.next(); data != null; data = read.next()) {
          int n = data.remaining();
          dst.put(data);
          position += n;
          total += n;
          counted(n, read.currentDataNode());
        }
      }
    }
    return total;
  }

  /**
   * The bytes this stream may read: the file's length, or for a file still being written what
   * every replica showed when it was opened (as {@code HdfsDataInputStream.getVisibleLength}).
   */
  @Override
  public long getVisibleLength() {
    return length;
  }

  /** Bytes this stream delivered so far, sequentially and by position. */
  public long bytesRead() {
    return bytesRead.sum();
  }

  /**
   * Counts {@code n} bytes delivered from {@code source} (null: not known), as stock counts a
   * read: local when the DataNode is on this host. Curtail reads over TCP alone, so no byte is
   * short-circuit or zero-copy.
   */
  private void counted(int n, DatanodeInfo source) {
    statistics.incrementBytesRead(n);
    bytesRead.add(n);
    Locality l = lastSource;
    if (l == null || l.node != source) {
      l = new Locality(source);
      lastSource = l;
    }
    if (l.local) {
      readStatistics.addLocalBytes(n);
    } else {
      readStatistics.addRemoteBytes(n);
    }
  }

  /** Whether a DataNode is on this host, decided once for each DataNode met in turn. */
  private static final class Locality {
    final DatanodeInfo node;
    final boolean local;

    Locality(DatanodeInfo node) {
      this.node = node;
      java.net.InetAddress address = node == null ? null
          : NetUtils.createSocketAddr(node.getXferAddr()).getAddress();
      this.local = address != null && NetUtils.isLocalAddress(address);
    }
  }

  @Override
  public ReadStatistics getReadStatistics() {
    return new ReadStatistics(readStatistics);
  }

  @Override
  public void clearReadStatistics() {
    readStatistics.clear();
  }

  @Override
  public List<LocatedBlock> getAllBlocks() {
    return java.util.Collections.unmodifiableList(blocks);
  }

  /** The block holding the stream's position, or null at the end of the file. */
  @Override
  public synchronized ExtendedBlock getCurrentBlock() {
    if (pos >= length) {
      return null;
    }
    try {
      return blockAt(pos).getBlock();
    } catch (IOException e) {
      return null; // no block holds it: the block list and the length disagree
    }
  }

  @Override
  public synchronized void unbuffer() {
    dropSequential();
  }

  @Override
  public void setReadahead(Long readahead) {
    // Reads ask DataNodes for exactly the ranges they need; there is no readahead to tune.
  }

  @Override
  public boolean hasCapability(String capability) {
    switch (capability.toLowerCase(Locale.ROOT)) {
      case StreamCapabilities.READAHEAD:
      case StreamCapabilities.UNBUFFER:
      case StreamCapabilities.READBYTEBUFFER:
      case StreamCapabilities.PREADBYTEBUFFER:
        return true;
      default:
        return false;
    }
  }

  private void dropSequential() {
    if (sequential != null) {
      sequential.close();
      sequential = null;
    }
    buffered = null;
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    dropSequential();
    metadata.close();
  }

  @Override
  public String toString() {
    return "CurtailInputStream{" + file + ", pos=" + pos + ", length=" + length + '}';
  }
}
