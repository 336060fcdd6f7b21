package io.curtail.client.write;

import io.curtail.client.stream.HdfsOutput;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.channels.ClosedChannelException;
import java.util.EnumSet;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream.SyncFlag;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.util.DataChecksum;

/**
 * Curtail's HDFS output stream: cuts what the caller writes into checksummed packets and hands
 * them to its {@link Streamer}, which owns the pipelines. Many packets are in flight at once; the
 * caller waits only when {@code dfs.client.write.max-packets} are unacknowledged, and on
 * {@link #hflush}, {@link #hsync} and {@link #close}.
 *
 * <p>After a flush that ends inside a chunk, the next packet starts again at that chunk's first
 * byte and carries the whole chunk, so that every chunk's checksum covers whole data; DataNodes
 * overwrite the partial chunk they hold.
 *
 * <p>Thread-safe, as stock's stream is (an HBase WAL writes from handler threads and syncs from
 * others): writing, closing and the hand-off part of a flush hold this stream's monitor, so
 * packets are numbered and queued in one order; a flush waits for its acknowledgements (and asks
 * the NameNode to persist blocks) outside it, so a syncer never holds writers up for a round
 * trip. Uncontended, the monitor is all a write costs more.
 */
public final class CurtailOutputStream extends OutputStream implements Syncable,
    StreamCapabilities, HdfsOutput {
  /** First wait before asking the NameNode again to complete the file; doubles from there. */
  private static final long FIRST_COMPLETE_RETRY_MS = 25;

  private final WriteContext ctx;
  private final String src;
  private final long fileId;
  final Streamer streamer;
  private final DataChecksum checksum;
  private final long blockSize;
  private final long initialLength;
  /** {@link org.apache.hadoop.fs.CreateFlag#SYNC_BLOCK}: DataNodes sync each block as it ends. */
  private final boolean syncBlocks;
  private final byte[] oneByte = new byte[1];
  /** The packet being filled; null until the next byte arrives. */
  private Packet current;
  /** Offset in the current block of the next byte written. */
  private long blockOffset;
  /** Offset in the current block up to which bytes have been handed to the streamer. */
  private long handedOff;
  /** Whether any packet of the current block has been handed to the streamer. */
  private boolean blockOpen;
  private long seqno;
  private boolean newBlockSinceSync;
  /** Blocks this stream has started: a flush's length is its block's only while this holds. */
  private long blocksStarted;
  private volatile boolean closed;
  /** A close was interrupted while it waited: the stream is closed, its file not yet complete. */
  private boolean closeInterrupted;

  /**
   * @param initialLength the file's length: 0, or where an append starts
   * @param offsetInBlock where in its last block an append continues; 0 for a new block
   * @param syncBlocks whether the last packet of every block asks the DataNodes to sync it
   */
  CurtailOutputStream(WriteContext ctx, String src, long fileId, Streamer streamer,
      long initialLength, long offsetInBlock, boolean syncBlocks) {
    this.ctx = ctx;
    this.src = src;
    this.fileId = fileId;
    this.streamer = streamer;
    this.checksum = streamer.layout.checksum;
    this.blockSize = streamer.layout.blockSize;
    this.initialLength = initialLength;
    this.blockOffset = offsetInBlock;
    this.handedOff = offsetInBlock;
    this.syncBlocks = syncBlocks;
  }

  /** The path of the file this stream writes. */
  String src() {
    return src;
  }

  /** The file's length when this stream opened it: 0, or where an append starts. */
  public long initialLength() {
    return initialLength;
  }

  @Override
  public synchronized void write(int b) throws IOException {
    oneByte[0] = (byte) b;
    write(oneByte, 0, 1);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    if (off < 0 || len < 0 || off > b.length - len) {
      throw new IndexOutOfBoundsException("offset " + off + ", length " + len + " in an array of "
          + b.length);
    }
    checkOpen();
    while (len > 0) {
      if (current == null) {
        current = streamer.layout.packetAt(blockOffset);
      }
      int n = current.append(b, off, len);
      off += n;
      len -= n;
      blockOffset += n;
      if (current.room() == 0) {
        handOff(current);
        current = null;
        if (blockOffset == blockSize) {
          endBlock(false);
        }
      }
    }
  }

  private void handOff(Packet p) throws IOException {
    p.seal(seqno++, checksum);
    if (!blockOpen) {
      blockOpen = true;
      newBlockSinceSync = true;
      blocksStarted++;
    }
    handedOff = p.end();
    streamer.enqueue(p);
  }

  /** Ends the current block; its last packet asks for a sync if {@code sync} or SYNC_BLOCK. */
  private void endBlock(boolean sync) throws IOException {
    Packet end = Packet.endOfBlock(blockOffset);
    if (sync || syncBlocks) {
      end.requestSync();
    }
    handOff(end);
    blockOffset = 0;
    handedOff = 0;
    blockOpen = false;
  }

  /** Bytes written but not yet handed to the streamer, as a packet (null if none). */
  private Packet takeUnsent() {
    if (current == null || current.end() <= handedOff) {
      return null;
    }
    Packet p = current;
    current = null;
    long end = p.end();
    int bpc = checksum.getBytesPerChecksum();
    if (end % bpc != 0) {
      // Keep the partial chunk: the next packet starts again at its first byte.
      long restart = Math.max(end - end % bpc, p.offsetInBlock);
      current = streamer.layout.packetAt(restart);
      p.copyTail(restart, current);
    }
    return p;
  }

  /** Data visible to new readers once this returns. */
  @Override
  public void hflush() throws IOException {
    flush(false, false, false);
  }

  /** As {@link #hflush}, and the DataNodes have synced the data to disk. */
  @Override
  public void hsync() throws IOException {
    flush(true, false, false);
  }

  /**
   * {@link #hsync}, with {@link SyncFlag#UPDATE_LENGTH} also recording the file's length at the
   * NameNode; {@link SyncFlag#END_BLOCK} ends the current block.
   */
  @Override
  public void hsync(EnumSet<SyncFlag> flags) throws IOException {
    flush(true, flags.contains(SyncFlag.UPDATE_LENGTH), flags.contains(SyncFlag.END_BLOCK));
  }

  /**
   * Hands what is buffered to the streamer under the monitor, then waits for it outside: other
   * threads write on meanwhile, and their bytes wait for a later flush.
   */
  private void flush(boolean sync, boolean updateLength, boolean endsBlock) throws IOException {
    long waitFor;
    long length;
    long block;
    synchronized (this) {
      checkOpen();
      Packet p = takeUnsent();
      if (p == null && sync && blockOpen && !endsBlock) {
        // Nothing new, but a sync was asked for: an empty packet carries the request.
        p = streamer.layout.packetAt(blockOffset);
      }
      if (p != null) {
        if (sync) {
          p.requestSync();
        }
        handOff(p);
      }
      length = blockOffset;
      block = blocksStarted;
      if (endsBlock && blockOffset > 0) {
        current = null; // only the kept partial chunk, already handed off
        endBlock(sync);
      }
      waitFor = seqno - 1;
    }
    if (waitFor >= 0) {
      streamer.awaitAcked(waitFor);
    }
    persistBlocks(updateLength, length, block);
  }

  /**
   * Records at the NameNode the blocks allocated since the last flush, with {@code length}, the
   * current block's, as stock's hflush and hsync do: its edit log then lists every block that
   * holds flushed data (they survive its restart), and it knows a length for the block being
   * written (readers past the prefetch ask it for that block). {@code UPDATE_LENGTH} records the
   * length every time. The length is recorded only while the block it was taken in, the
   * {@code block}-th, is still the stream's last: another thread's writes may have started the
   * next meanwhile, and its length must not be taken for that one's. A failure after another
   * thread closed the stream is that close's doing: the caller is told the stream is closed, as
   * stock's would be.
   */
  private void persistBlocks(boolean updateLength, long length, long block) throws IOException {
    // Under the monitor, once per block (or per UPDATE_LENGTH): no other thread can hand off the
    // next block's first packet, so the NameNode's last block stays the one checked here.
    synchronized (this) {
      if (!newBlockSinceSync && !updateLength) {
        return;
      }
      newBlockSinceSync = false;
      long recorded = blocksStarted == block ? length : -1; // -1: the NameNode keeps its own
      try {
        ctx.namenode.fsync(src, fileId, ctx.client.getClientName(), recorded);
      } catch (IOException e) {
        checkOpen();
        throw e instanceof RemoteException ? WriteContext.unwrap((RemoteException) e) : e;
      }
    }
  }

  /** The current pipeline's DataNodes; before the first block, the file's replication. */
  @Override
  public int getCurrentBlockReplication() throws IOException {
    checkOpen();
    return streamer.replicas(streamer.replication);
  }

  /** Flushing a stream is a no-op, as stock: {@link #hflush} makes data visible. */
  @Override
  public void flush() throws IOException {
    checkOpen();
  }

  @Override
  public boolean hasCapability(String capability) {
    switch (capability.toLowerCase(java.util.Locale.ROOT)) {
      case StreamCapabilities.HFLUSH:
      case StreamCapabilities.HSYNC:
        return true;
      default:
        return false;
    }
  }

  /**
   * Writes what is buffered, waits for every acknowledgement and completes the file. Interrupted
   * while it waits, it throws {@link InterruptedIOException} with the interrupt cleared, as
   * stock's does; nothing is dropped: the streamer goes on sending, and the next {@code close}
   * waits again and completes the file (stock's leaves that to lease recovery).
   */
  @Override
  public synchronized void close() throws IOException {
    if (closed && !closeInterrupted) {
      return;
    }
    boolean resumed = closeInterrupted;
    closed = true;
    closeInterrupted = false;
    try {
      if (!resumed) {
        Packet p = takeUnsent();
        if (p != null) {
          handOff(p);
        }
        if (blockOpen) {
          endBlock(false);
        }
      }
      ExtendedBlock last = streamer.finish();
      complete(last);
    } catch (InterruptedIOException e) {
      Thread.interrupted(); // reported: cleared, so that the retried close can wait
      closeInterrupted = true;
      throw e;
    } catch (IOException | RuntimeException e) {
      streamer.abort(e instanceof IOException ? (IOException) e : new IOException(e));
      throw e;
    } finally {
      if (!closeInterrupted) {
        ctx.closed(this);
      }
    }
  }

  /**
   * Completes the file at the NameNode, retrying while it waits for the last block's minimum
   * replicas to report, as stock clients do, but polling sooner at first: after a pipeline
   * recovery the new replicas report within milliseconds, and stock's first wait (400 ms by
   * default) would be most of a small file's write time.
   */
  private void complete(ExtendedBlock last) throws IOException {
    long sleepMs = Math.min(FIRST_COMPLETE_RETRY_MS,
        ctx.client.getConf().getBlockWriteLocateFollowingInitialDelayMs());
    int retries = ctx.client.getConf().getNumBlockWriteLocateFollowingRetry();
    for (int attempt = 0; ; attempt++) {
      boolean done;
      try {
        done = ctx.namenode.complete(src, ctx.client.getClientName(), last, fileId);
      } catch (RemoteException e) {
        throw WriteContext.unwrap(e);
      }
      if (done) {
        return;
      }
      if (attempt >= retries) {
        throw new IOException("Unable to close " + src + ": the NameNode has not seen enough"
            + " replicas of its last block " + last + " after " + (attempt + 1) + " tries");
      }
      if (Thread.interrupted()) {
        throw new InterruptedIOException("interrupted while closing " + src);
      }
      WriteContext.sleep(sleepMs);
      sleepMs = Math.min(sleepMs * 2, ctx.client.getConf().getBlockWriteLocateFollowingMaxDelayMs());
    }
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new ClosedChannelException();
    }
  }

  @Override
  public String toString() {
    return "CurtailOutputStream{" + src + '}';
  }
}
