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
 * overwrite the partial chunk they hold. Not thread-safe, like stock streams (callers serialise).
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
  private boolean closed;

  /**
   * @param initialLength the file's length: 0, or where an append starts
   * @param offsetInBlock where in its last block an append continues; 0 for a new block
   */
  CurtailOutputStream(WriteContext ctx, String src, long fileId, Streamer streamer,
      long initialLength, long offsetInBlock) {
    this.ctx = ctx;
    this.src = src;
    this.fileId = fileId;
    this.streamer = streamer;
    this.checksum = streamer.layout.checksum;
    this.blockSize = streamer.layout.blockSize;
    this.initialLength = initialLength;
    this.blockOffset = offsetInBlock;
    this.handedOff = offsetInBlock;
  }

  /** The file's length when this stream opened it: 0, or where an append starts. */
  public long initialLength() {
    return initialLength;
  }

  @Override
  public void write(int b) throws IOException {
    oneByte[0] = (byte) b;
    write(oneByte, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
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
          endBlock();
        }
      }
    }
  }

  private void handOff(Packet p) throws IOException {
    p.seal(seqno++, checksum);
    if (!blockOpen) {
      blockOpen = true;
      newBlockSinceSync = true;
    }
    handedOff = p.end();
    streamer.enqueue(p);
  }

  private void endBlock() throws IOException {
    handOff(Packet.endOfBlock(blockOffset));
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
    flush(false, false);
  }

  /** As {@link #hflush}, and the DataNodes have synced the data to disk. */
  @Override
  public void hsync() throws IOException {
    flush(true, false);
  }

  /**
   * {@link #hsync}, with {@link SyncFlag#UPDATE_LENGTH} also recording the file's length at the
   * NameNode; {@link SyncFlag#END_BLOCK} ends the current block.
   */
  @Override
  public void hsync(EnumSet<SyncFlag> flags) throws IOException {
    flush(true, flags.contains(SyncFlag.UPDATE_LENGTH));
    if (flags.contains(SyncFlag.END_BLOCK) && blockOffset > 0) {
      current = null;
      endBlock();
      streamer.awaitAcked(seqno - 1);
    }
  }

  private void flush(boolean sync, boolean updateLength) throws IOException {
    checkOpen();
    Packet p = takeUnsent();
    if (p == null && sync && blockOpen) {
      // Nothing new, but a sync was asked for: an empty packet carries the request.
      p = streamer.layout.packetAt(blockOffset);
    }
    if (p != null) {
      if (sync) {
        p.requestSync();
      }
      handOff(p);
    }
    if (seqno > 0) {
      streamer.awaitAcked(seqno - 1);
    }
    if (sync && (updateLength || newBlockSinceSync)) {
      // Record new blocks (and the length, if asked) at the NameNode, as stock hsync does.
      newBlockSinceSync = false;
      try {
        ctx.namenode.fsync(src, fileId, ctx.client.getClientName(),
            updateLength ? blockOffset : -1);
      } catch (RemoteException e) {
        throw WriteContext.unwrap(e);
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

  /** Writes what is buffered, waits for every acknowledgement and completes the file. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      Packet p = takeUnsent();
      if (p != null) {
        handOff(p);
      }
      if (blockOpen) {
        endBlock();
      }
      ExtendedBlock last = streamer.finish();
      complete(last);
    } catch (IOException | RuntimeException e) {
      streamer.abort(e instanceof IOException ? (IOException) e : new IOException(e));
      throw e;
    } finally {
      ctx.closed(this);
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
