package io.curtail.client.read.striped;

import io.curtail.client.read.CurtailReadStream;
import io.curtail.client.stream.HdfsInput;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.ReadStatistics;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.protocol.LocatedStripedBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Curtail's stream of a complete erasure-coded file: a stripe at a time ({@link StripeRead}),
 * reading around a slow or failed DataNode from parity. Sequential reads read whole stripes,
 * their cells in parallel, and serve them from a buffer, the next stripe read ahead while the
 * caller reads one it entered at its start; positional reads read only the cells they ask for
 * (and, around a slow one, as many others as a decode needs).
 *
 * <p>The file's metadata comes from the stock stream it was opened with, which never reads data.
 * A stripe that cannot be read with the locations in hand is tried once more with its block
 * group located again (DataNodes come and go, block tokens expire), then fails.
 *
 * <p>Sequential reads are for one thread at a time; positional reads may run from any number.
 */
public final class StripedInputStream extends CurtailReadStream implements HdfsInput {
  private static final Logger LOG = LoggerFactory.getLogger(StripedInputStream.class);

  private final StripedReads reads;
  private final DFSClient client;
  private final DFSInputStream metadata;
  private final ErasureCodingPolicy policy;
  private final boolean verifyChecksum;
  private final FileSystem.Statistics statistics;
  private final long length;
  private final long stripeBytes;
  /** The block groups in file order, as last located. */
  private final List<LocatedBlock> groups;
  private final ReadStatistics readStatistics = new ReadStatistics();
  private byte[] stripe;
  /** File offset of {@link #stripe}'s first byte, and how many it holds. */
  private long stripeStart = -1;
  private int stripeLength;
  private long pos;
  /**
   * The next stripe, read ahead on a thread of {@link StripedReads#threads} while the caller
   * reads this one: into {@link #aheadBuffer}, from {@link #aheadStart}, {@link #aheadLength}
   * bytes; null when none is.
   */
  private Future<?> ahead;
  private byte[] aheadBuffer;
  private long aheadStart;
  private int aheadLength;

  StripedInputStream(StripedReads reads, DFSClient client, String file, DFSInputStream metadata,
      LocatedBlocks blocks, boolean verifyChecksum, FileSystem.Statistics statistics) {
    super(file, client);
    this.reads = reads;
    this.client = client;
    this.metadata = metadata;
    this.policy = blocks.getErasureCodingPolicy();
    this.verifyChecksum = verifyChecksum;
    this.statistics = statistics;
    this.length = metadata.getFileLength();
    this.stripeBytes = (long) policy.getCellSize() * policy.getNumDataUnits();
    this.groups = new ArrayList<>(blocks.getLocatedBlocks());
  }

  /** The block group holding file offset {@code at}. */
  private synchronized LocatedStripedBlock groupAt(long at) throws IOException {
    for (LocatedBlock g : groups) {
      if (at >= g.getStartOffset() && at < g.getStartOffset() + g.getBlockSize()) {
        return (LocatedStripedBlock) g;
      }
    }
    List<LocatedBlock> fetched = client.getLocatedBlocks(file, at, 1).getLocatedBlocks();
    if (fetched.isEmpty()) {
      throw new EOFException("no block group of " + file + " holds offset " + at);
    }
    groups.addAll(fetched);
    return (LocatedStripedBlock) fetched.get(0);
  }

  /** Locates {@code stale}'s block group again, for a stripe its locations could not read. */
  private synchronized LocatedStripedBlock relocate(LocatedStripedBlock stale) throws IOException {
    LocatedStripedBlock fresh = (LocatedStripedBlock) client.getLocatedBlocks(file,
        stale.getStartOffset(), 1).get(0);
    groups.replaceAll(g -> g.getStartOffset() == stale.getStartOffset() ? fresh : g);
    return fresh;
  }

  /**
   * Reads file bytes [{@code at}, {@code at + n}) into {@code dst} from {@code off}; they lie in
   * one stripe. A range of part of one cell, or of whole cells, is one {@link StripeRead}; any
   * other (a 1 MiB read across two cells) is cut into such pieces, read at once, so that no cell
   * is read beyond what was asked for while every one is on time.
   */
  private void readStripe(long at, int n, byte[] dst, int off) throws IOException {
    readStripe(groupAt(at), true, at, n, dst, off);
  }

  /**
   * {@link #readStripe(long, int, byte[], int)} in {@code group}, the block group holding
   * {@code at}, locating it again once if a piece fails and {@code relocate}.
   */
  private void readStripe(LocatedStripedBlock group, boolean relocate, long at, int n,
      byte[] dst, int off) throws IOException {
    long inGroup = at - group.getStartOffset();
    long index = inGroup / stripeBytes;
    int a = (int) (inGroup % stripeBytes);
    List<int[]> pieces = pieces(a, a + n, policy.getCellSize());
    List<Future<?>> others = new ArrayList<>();
    try {
      for (int i = 1; i < pieces.size(); i++) {
        int[] p = pieces.get(i);
        others.add(reads.threads.submit(() -> {
          readPiece(group, relocate, index, p[0], p[1], dst, off + p[0] - a);
          return null;
        }));
      }
      int[] p = pieces.get(0);
      readPiece(group, relocate, index, p[0], p[1], dst, off + p[0] - a);
      for (Future<?> f : others) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted reading " + file + " at " + at);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException ? (IOException) e.getCause()
          : new IOException("reading " + file + " at " + at, e.getCause());
    } finally {
      for (Future<?> f : others) {
        f.cancel(true);
      }
    }
  }

  /**
   * Stripe bytes [{@code a}, {@code b}) cut where the cells read would differ in range: a part
   * of the first cell, the whole cells, a part of the last.
   */
  static List<int[]> pieces(int a, int b, int cell) {
    List<int[]> out = new ArrayList<>(3);
    if (a / cell == (b - 1) / cell) {
      out.add(new int[] {a, b});
      return out;
    }
    int from = a;
    if (a % cell != 0) {
      from = (a / cell + 1) * cell;
      out.add(new int[] {a, from});
    }
    int to = b % cell == 0 ? b : (b - 1) / cell * cell;
    if (to > from) {
      out.add(new int[] {from, to});
    }
    if (to < b) {
      out.add(new int[] {Math.max(to, from), b});
    }
    return out;
  }

  /**
   * Reads stripe bytes [a, b), one {@link StripeRead}; again once, relocated, if it fails and
   * {@code relocate}.
   */
  private void readPiece(LocatedStripedBlock group, boolean relocate, long index, int a, int b,
      byte[] dst, int off) throws IOException {
    try {
      new StripeRead(reads, client, file, policy, group, index, a, b, verifyChecksum)
          .readInto(dst, off);
    } catch (InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      if (!relocate) {
        throw e;
      }
      LOG.info("Locating a block group again file={} block={} stripe={} reason={}", file,
          group.getBlock(), index, e.toString());
      new StripeRead(reads, client, file, policy, relocate(group), index, a, b, verifyChecksum)
          .readInto(dst, off);
    }
  }

  /** How many bytes from {@code at} lie in its stripe, at most {@code max}. */
  private int inStripe(long at, long max) throws IOException {
    LocatedStripedBlock group = groupAt(at);
    long inGroup = at - group.getStartOffset();
    long stripeEnd = Math.min((inGroup / stripeBytes + 1) * stripeBytes, group.getBlockSize());
    return (int) Math.min(max, stripeEnd - inGroup);
  }

  @Override
  protected int positionalRead(long position, ByteBuffer dst) throws IOException {
    checkOpen();
    if (position < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + " " + position + " in " + file);
    }
    if (position >= length) {
      return -1;
    }
    int want = (int) Math.min(dst.remaining(), length - position);
    int done = 0;
    while (done < want) {
      int n = inStripe(position + done, want - done);
      if (dst.hasArray()) {
        readStripe(position + done, n, dst.array(), dst.arrayOffset() + dst.position());
        dst.position(dst.position() + n);
      } else {
        byte[] tmp = new byte[n];
        readStripe(position + done, n, tmp, 0);
        dst.put(tmp);
      }
      done += n;
    }
    account(done);
    return done;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    checkRead(b, off, len);
    if (len == 0) {
      return 0;
    }
    if (pos >= length) {
      return -1;
    }
    if (pos < stripeStart || pos >= stripeStart + stripeLength) {
      long start = pos - (pos - groupAt(pos).getStartOffset()) % stripeBytes;
      stripeStart = -1; // until the stripe is whole
      if (!takeAhead(start)) {
        int n = inStripe(start, length - start);
        if (stripe == null) {
          stripe = new byte[(int) stripeBytes];
        }
        readStripe(start, n, stripe, 0);
        stripeStart = start;
        stripeLength = n;
      }
      if (pos == stripeStart) {
        readAhead(stripeStart + stripeLength); // read from its start: most likely sequential
      }
    }
    int n = (int) Math.min(len, stripeStart + stripeLength - pos);
    System.arraycopy(stripe, (int) (pos - stripeStart), b, off, n);
    pos += n;
    account(n);
    return n;
  }

  /**
   * Makes the stripe read ahead from {@code start}, if it was, the current one; returns whether it
   * did. One that failed is read again by the caller, as any stripe (and fails there if it must).
   */
  private boolean takeAhead(long start) throws IOException {
    Future<?> f = ahead;
    if (f == null) {
      return false;
    }
    if (aheadStart != start) {
      dropAhead();
      return false;
    }
    ahead = null;
    try {
      f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted reading " + file + " at " + start);
    } catch (ExecutionException e) {
      LOG.debug("Reading ahead failed file={} offset={}", file, start, e.getCause());
      aheadBuffer = null; // it may have been written to when it failed: not reused
      return false;
    }
    byte[] t = stripe;
    stripe = aheadBuffer;
    aheadBuffer = t;
    stripeStart = start;
    stripeLength = aheadLength;
    return true;
  }

  /**
   * Starts reading the stripe from {@code start} while the caller reads the current one, so that
   * a sequential reader waits for a stripe's cells, and its decoding, only once: a stripe read
   * around a slow DataNode costs a decode of each cell read around, as long as reading it.
   */
  private void readAhead(long start) throws IOException {
    if (start >= length || closed) {
      return;
    }
    int n = inStripe(start, length - start);
    LocatedStripedBlock group = groupAt(start);
    if (aheadBuffer == null) {
      aheadBuffer = new byte[(int) stripeBytes];
    }
    byte[] into = aheadBuffer;
    aheadStart = start;
    aheadLength = n;
    try {
      // Located here, and never again there: this stream's lock, which locating takes, is held
      // by the caller waiting for it. A stripe that fails is read again by the caller.
      ahead = reads.threads.submit(() -> {
        readStripe(group, false, start, n, into, 0);
        return null;
      });
    } catch (RejectedExecutionException e) {
      ahead = null; // the file system is closing
    }
  }

  /** Gives up the stripe read ahead: the caller went elsewhere, or is closing. */
  private void dropAhead() {
    if (ahead != null) {
      ahead.cancel(true);
      ahead = null;
      aheadBuffer = null; // its read may still be writing into it
    }
  }

  private void account(int n) {
    statistics.incrementBytesRead(n);
    readStatistics.addRemoteBytes(n);
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    if (target < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + " " + target + " in " + file);
    }
    if (target > length) {
      throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + " " + target + " in "
          + file);
    }
    pos = target;
  }

  @Override
  public synchronized long getPos() {
    return pos;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false; // every stripe is read from the DataNodes that answer first anyway
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    return (int) Math.min(Integer.MAX_VALUE, length - pos);
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    dropAhead();
    stripe = null;
    metadata.close();
  }

  @Override
  public DatanodeInfo getCurrentDatanode() {
    return null; // a stripe is read from several
  }

  @Override
  public synchronized ExtendedBlock getCurrentBlock() {
    for (LocatedBlock g : groups) {
      if (pos >= g.getStartOffset() && pos < g.getStartOffset() + g.getBlockSize()) {
        return g.getBlock();
      }
    }
    return null;
  }

  @Override
  public synchronized List<LocatedBlock> getAllBlocks() {
    return new ArrayList<>(groups);
  }

  @Override
  public long getVisibleLength() {
    return length;
  }

  @Override
  public ReadStatistics getReadStatistics() {
    return new ReadStatistics(readStatistics);
  }

  @Override
  public void clearReadStatistics() {
    readStatistics.clear();
  }
}
