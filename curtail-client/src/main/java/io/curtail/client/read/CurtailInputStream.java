package io.curtail.client.read;

import io.curtail.client.stream.HdfsInput;
import io.curtail.client.stream.PositionalInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanSetDropBehind;
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
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Curtail's input stream: sequential and positional reads of a replicated file, block by block,
 * with every packet timed and slow packets hedged (see {@link BlockRead}); where short-circuit
 * reads are on, replicas on this host are read from their block files as stock reads them, each
 * piece timed and hedged as a packet is ({@link LocalReplica}). It reads the bytes the DataNodes
 * hold: a file in an encryption zone is decrypted by Hadoop's crypto stream around it. Checksums
 * are verified unless the stream was opened with verification off, as stock's.
 *
 * <p>The file's metadata comes from a stock {@link DFSInputStream} opened the usual way, so
 * errors on open and the block list are exactly the stock client's; that stream never reads data.
 * The visible length of a file still being written is the least its last block's replicas show
 * ({@link VisibleLength}), which never goes back from one open to the next.
 *
 * <p>Sequential reads are for one thread at a time, like any {@code InputStream}; positional
 * reads may run from any number of threads alongside them, each on its own connections.
 */
public final class CurtailInputStream extends CurtailReadStream implements ByteBufferReadable,
    CanUnbuffer, CanSetReadahead, CanSetDropBehind, StreamCapabilities, HdfsInput {
  private static final Logger LOG = LoggerFactory.getLogger(CurtailInputStream.class);
  private final ReadContext ctx;
  private final DFSClient client;
  private final DFSInputStream metadata;
  private final FileSystem.Statistics statistics;
  private final long length;
  /** The blocks, their locations as last fetched and their replica order. */
  private final FileBlocks blocks;
  /** How DataNodes are to cache what they read for this stream: readahead, drop-behind. */
  private volatile CachingStrategy caching;
  private final boolean verifyChecksum;
  /** Bytes delivered, local and remote, as stock streams count them. */
  private final ReadStatistics readStatistics = new ReadStatistics();
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
  /** The network distance to the DataNode {@link #buffered} came from. */
  private int bufferedDistance;
  /** Whether {@link #buffered} was read from a block file (short-circuit). */
  private boolean bufferedShortCircuit;
  /** Bytes this stream delivered, sequentially and by position. */
  private final LongAdder bytesRead = new LongAdder();

  /**
   * @param conf the file system's configuration, for RPCs to DataNodes
   * @param verifyChecksum whether the DataNodes send checksums and reads verify them: the flag
   *     {@code metadata} was opened with
   */
  public CurtailInputStream(ReadContext ctx, DFSClient client, Configuration conf, String file,
      DFSInputStream metadata, boolean verifyChecksum, FileSystem.Statistics statistics)
      throws IOException {
    super(file, client);
    this.ctx = ctx;
    this.client = client;
    this.metadata = metadata;
    this.verifyChecksum = verifyChecksum;
    this.statistics = statistics;
    LocatedBlocks located = VisibleLength.locatedBlocks(metadata); // one reflective call
    this.length = VisibleLength.of(client, conf, metadata, located, file);
    this.blocks = new FileBlocks(ctx, client, file, length,
        length == 0 ? java.util.Collections.emptyList() : metadata.getAllBlocks(),
        VisibleLength.lastBlockBeingWritten(located),
        VisibleLength.beingWritten(located) ? null : conf);
    this.caching = client.getDefaultReadCachingStrategy();
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    checkRead(b, off, len);
    if (len == 0) {
      return 0;
    }
    if (!fill()) {
      return -1;
    }
    int n = Math.min(len, buffered.remaining());
    buffered.get(b, off, n);
    pos += n;
    account(n, bufferedDistance, bufferedShortCircuit);
    return n;
  }

  @Override
  public synchronized int read(ByteBuffer dst) throws IOException {
    checkOpen();
    if (!dst.hasRemaining()) {
      return pos >= length ? -1 : 0; // stock's answers, at the end of the file and before it
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
    account(n, bufferedDistance, bufferedShortCircuit);
    return n;
  }

  /**
   * Counts {@code n} bytes delivered from a DataNode {@code distance} away, as stock streams do:
   * in the file system's statistics, by distance, and in the stream's own read statistics (bytes
   * read from a block file as short-circuit, which stock counts as local too).
   */
  private void account(int n, int distance, boolean shortCircuit) {
    statistics.incrementBytesRead(n);
    statistics.incrementBytesReadByDistance(distance, n);
    if (shortCircuit) {
      readStatistics.addShortCircuitBytes(n);
    } else if (distance == 0) {
      readStatistics.addLocalBytes(n);
    } else {
      readStatistics.addRemoteBytes(n);
    }
    bytesRead.add(n);
  }

  /** Makes {@code buffered} hold the bytes at {@code pos}; false at the end of the file. */
  private boolean fill() throws IOException {
    while (buffered == null || !buffered.hasRemaining()) {
      if (pos >= length) {
        return false;
      }
      if (sequential == null) {
        LocatedBlock b = blocks.at(pos);
        long inBlock = pos - b.getStartOffset();
        sequential = new BlockRead(ctx, client, file, blocks, caching, verifyChecksum, b,
            inBlock, blocks.readable(b) - inBlock);
      }
      try {
        buffered = sequential.next();
      } catch (IOException e) {
        dropSequential(); // the next read starts afresh, its failures counted anew, as stock's
        throw e;
      }
      if (buffered == null) {
        sequential.close();
        sequential = null;
      } else {
        bufferedDistance = sequential.distance();
        bufferedShortCircuit = sequential.shortCircuit();
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
          bufferedDistance = sequential.distance();
          bufferedShortCircuit = sequential.shortCircuit();
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
      LocatedBlock b = blocks.at(position);
      long inBlock = position - b.getStartOffset();
      long want = Math.min(dst.remaining(), blocks.readable(b) - inBlock);
      try (BlockRead read = new BlockRead(ctx, client, file, blocks, caching, verifyChecksum, b,
          inBlock, want)) {
        for (ByteBuffer data = read.next(); data != null; data = read.next()) {
          int n = data.remaining();
          dst.put(data);
          position += n;
          total += n;
          account(n, read.distance(), read.shortCircuit());
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
   * What this stream read, local and remote (a copy), as stock's
   * {@code DFSInputStream.getReadStatistics}: bytes read from local block files count as
   * short-circuit (and local); nothing as zero-copy, which Curtail does not do.
   */
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
    return blocks.all();
  }

  /**
   * The block holding the stream's position; at the end of the file, the last block, which the
   * read that got there came from (stock's answers the block it last read: tests and tools read
   * one byte and ask); null for an empty file.
   */
  @Override
  public synchronized ExtendedBlock getCurrentBlock() {
    if (length == 0) {
      return null;
    }
    try {
      return blocks.at(Math.min(pos, length - 1)).getBlock();
    } catch (IOException e) {
      return null; // no block holds it: the block list and the length disagree
    }
  }

  @Override
  public synchronized void unbuffer() {
    dropSequential();
  }

  /**
   * Sets how far ahead the DataNodes read the replica from disk for this stream's reads, as
   * stock's does (null: the DataNodes' default); reads from now on ask for it.
   */
  @Override
  public synchronized void setReadahead(Long readahead) {
    caching = new CachingStrategy.Builder(caching).setReadahead(readahead).build();
    dropSequential(); // its DataNode reads with the old setting, as stock's reader would
  }

  /**
   * Sets whether the DataNodes drop what they read for this stream from the page cache, as
   * stock's does (null: the DataNodes' default); reads from now on ask for it.
   */
  @Override
  public synchronized void setDropBehind(Boolean dropBehind) {
    caching = new CachingStrategy.Builder(caching).setDropBehind(dropBehind).build();
    dropSequential();
  }

  @Override
  public boolean hasCapability(String capability) {
    switch (capability.toLowerCase(Locale.ROOT)) {
      case StreamCapabilities.READAHEAD:
      case StreamCapabilities.DROPBEHIND:
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
