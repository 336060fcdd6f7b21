package io.curtail.client.write;

import io.curtail.client.wire.PacketFormat;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.util.DataChecksum;

/**
 * One packet of a block on the wire ({@link PacketFormat}): lengths and header, then one checksum
 * per chunk, then the data. The writing thread appends data; {@link #seal} computes the checksums
 * and lays header, checksums and data out back to back in one array, so sending is a single
 * write. A data packet every DataNode acknowledged goes back to its stream's {@link PacketPool}
 * and is made the next one, buffer and all.
 *
 * <p>A packet that starts inside a chunk (appending to a file whose length is not a multiple of
 * the chunk size) carries only the rest of that chunk: DataNodes accept a partial first chunk only
 * alone in its packet.
 */
final class Packet {
  /** Sequence number DataNodes give heartbeats; their acks are not for any data packet. */
  static final long HEARTBEAT_SEQNO = -1;

  private static final int CHECKSUM_START = PacketFormat.MAX_PREFIX_BYTES;

  private final byte[] buf;
  /** Where this packet goes back once acknowledged; null for one never reused. */
  private final PacketPool pool;
  final boolean lastInBlock;
  // Set anew each time the packet is made from the pool:
  long offsetInBlock;
  private long seqno;
  private int dataStart;
  private int capacity;
  private int dataLen;
  private boolean sync;
  private int wireStart;
  private int wireLen;
  /** When the packet last went on the wire, for its round-trip latency. */
  long sentNanos;

  private Packet(byte[] buf, PacketPool pool, boolean lastInBlock) {
    this.buf = buf;
    this.pool = pool;
    this.lastInBlock = lastInBlock;
  }

  /** Makes this packet an empty one for block bytes from {@code offsetInBlock}. */
  private Packet reset(long offsetInBlock, int capacity, int checksumBytes) {
    this.offsetInBlock = offsetInBlock;
    this.capacity = capacity;
    this.dataStart = CHECKSUM_START + checksumBytes;
    this.seqno = Long.MIN_VALUE;
    this.dataLen = 0;
    this.sync = false;
    this.wireStart = -1;
    this.wireLen = 0;
    this.sentNanos = 0;
    return this;
  }

  /** Bytes a buffer needs for a packet of this many data and checksum bytes. */
  static int bufferBytes(int capacity, int checksumBytes) {
    return CHECKSUM_START + checksumBytes + capacity;
  }

  /** A packet on a buffer of {@code bytes}, which goes back to {@code pool} once acknowledged. */
  static Packet pooled(int bytes, PacketPool pool) {
    return new Packet(new byte[bytes], pool, false);
  }

  /** The size of this packet's buffer. */
  int bufferBytes() {
    return buf.length;
  }

  /**
   * An empty data packet for block bytes from {@code offsetInBlock}, holding at most
   * {@code maxChunks} chunks and never crossing {@code blockSize}, from {@code pool}.
   */
  static Packet data(long offsetInBlock, long blockSize, int maxChunks,
      DataChecksum checksum, PacketPool pool) {
    int bpc = checksum.getBytesPerChecksum();
    long intoChunk = offsetInBlock % bpc;
    long room = intoChunk != 0 ? bpc - intoChunk : (long) maxChunks * bpc;
    int capacity = (int) Math.min(room, blockSize - offsetInBlock);
    if (capacity <= 0) {
      throw new IllegalArgumentException("no room for a packet at " + offsetInBlock
          + " of a block of " + blockSize);
    }
    int checksumBytes = (capacity + bpc - 1) / bpc * checksum.getChecksumSize();
    return pool.take(bufferBytes(capacity, checksumBytes))
        .reset(offsetInBlock, capacity, checksumBytes);
  }

  /** The empty packet that ends a block: the DataNodes finalise their replicas on it. */
  static Packet endOfBlock(long blockLength) {
    return new Packet(new byte[bufferBytes(0, 0)], null, true).reset(blockLength, 0, 0);
  }

  /** A heartbeat, sent on an idle pipeline so the DataNodes do not time out. */
  static Packet heartbeat(DataChecksum checksum) {
    Packet p = new Packet(new byte[bufferBytes(0, 0)], null, false).reset(0, 0, 0);
    p.seal(HEARTBEAT_SEQNO, checksum);
    return p;
  }

  /** Copies up to {@link #room()} bytes in; returns how many. */
  int append(byte[] b, int off, int len) {
    int n = Math.min(len, room());
    System.arraycopy(b, off, buf, dataStart + dataLen, n);
    dataLen += n;
    return n;
  }

  /** Every DataNode acknowledged the packet: it may be made another. Not used after this. */
  void recycle() {
    if (pool != null) {
      pool.give(this);
    }
  }

  int room() {
    return capacity - dataLen;
  }

  /** Block offset just past this packet's data. */
  long end() {
    return offsetInBlock + dataLen;
  }

  /** Copies the data from block offset {@code from} to the end into {@code dst}. */
  void copyTail(long from, Packet dst) {
    int skip = (int) (from - offsetInBlock);
    dst.append(buf, dataStart + skip, dataLen - skip);
  }

  /** Asks the DataNodes to sync this packet to disk before acknowledging it (hsync). */
  void requestSync() {
    this.sync = true;
  }

  boolean syncRequested() {
    return sync;
  }

  long seqno() {
    return seqno;
  }

  boolean isHeartbeat() {
    return seqno == HEARTBEAT_SEQNO;
  }

  /**
   * Numbers the packet, computes its checksums and lays it out for the wire; no more data after
   * this. Sequence numbers follow the order packets are handed to the pipeline.
   */
  void seal(long seqno, DataChecksum checksum) {
    this.seqno = seqno;
    // Chunks start at the packet's first byte: an unaligned packet holds one partial chunk only.
    int bpc = checksum.getBytesPerChecksum();
    int checksumLen = (dataLen + bpc - 1) / bpc * checksum.getChecksumSize();
    if (dataLen > 0) {
      checksum.calculateChunkedSums(buf, dataStart, dataLen, buf, CHECKSUM_START);
    }
    int start = dataStart - checksumLen;
    System.arraycopy(buf, CHECKSUM_START, buf, start, checksumLen);
    wireStart = PacketFormat.writePrefix(buf, start, checksumLen, dataLen, offsetInBlock, seqno,
        lastInBlock, sync);
    wireLen = start - wireStart + checksumLen + dataLen;
  }

  void writeTo(OutputStream out) throws IOException {
    out.write(buf, wireStart, wireLen);
  }

  @Override
  public String toString() {
    return "packet{seqno=" + seqno + ", offset=" + offsetInBlock + ", len=" + dataLen
        + (lastInBlock ? ", last" : "") + (sync ? ", sync" : "") + '}';
  }
}
