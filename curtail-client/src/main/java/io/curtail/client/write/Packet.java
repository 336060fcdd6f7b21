package io.curtail.client.write;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.hdfs.protocol.datatransfer.PacketHeader;
import org.apache.hadoop.util.DataChecksum;

/**
 * One packet of a block on the wire: Hadoop's {@link PacketHeader}, then one checksum per chunk,
 * then the data. The writing thread appends data; {@link #seal} computes the checksums and lays
 * header, checksums and data out back to back in one array, so sending is a single write.
 *
 * <p>A packet that starts inside a chunk (appending to a file whose length is not a multiple of
 * the chunk size) carries only the rest of that chunk: DataNodes accept a partial first chunk only
 * alone in its packet.
 */
final class Packet {
  /** Sequence number DataNodes give heartbeats; their acks are not for any data packet. */
  static final long HEARTBEAT_SEQNO = -1;

  private long seqno = Long.MIN_VALUE;
  final long offsetInBlock;
  final boolean lastInBlock;
  private final byte[] buf;
  /** Where {@link #buf} goes back once the packet is acknowledged; null for a buffer of its own. */
  private final PacketBuffers buffers;
  private final int checksumStart;
  private final int dataStart;
  private final int capacity;
  private int dataLen;
  private boolean sync;
  private int wireStart = -1;
  private int wireLen;
  /** When the packet last went on the wire, for its round-trip latency. */
  long sentNanos;

  private Packet(long offsetInBlock, boolean lastInBlock, int capacity, int checksumBytes,
      PacketBuffers buffers) {
    this.offsetInBlock = offsetInBlock;
    this.lastInBlock = lastInBlock;
    this.capacity = capacity;
    this.checksumStart = PacketHeader.PKT_MAX_HEADER_LEN;
    this.dataStart = checksumStart + checksumBytes;
    this.buffers = buffers;
    this.buf = buffers != null ? buffers.take(dataStart + capacity) : new byte[dataStart + capacity];
  }

  /**
   * An empty data packet for block bytes from {@code offsetInBlock}, holding at most
   * {@code maxChunks} chunks and never crossing {@code blockSize}, on a buffer from
   * {@code buffers}.
   */
  static Packet data(long offsetInBlock, long blockSize, int maxChunks,
      DataChecksum checksum, PacketBuffers buffers) {
    int bpc = checksum.getBytesPerChecksum();
    long intoChunk = offsetInBlock % bpc;
    long room = intoChunk != 0 ? bpc - intoChunk : (long) maxChunks * bpc;
    int capacity = (int) Math.min(room, blockSize - offsetInBlock);
    if (capacity <= 0) {
      throw new IllegalArgumentException("no room for a packet at " + offsetInBlock
          + " of a block of " + blockSize);
    }
    int chunks = (capacity + bpc - 1) / bpc;
    return new Packet(offsetInBlock, false, capacity, chunks * checksum.getChecksumSize(),
        buffers);
  }

  /** The empty packet that ends a block: the DataNodes finalise their replicas on it. */
  static Packet endOfBlock(long blockLength) {
    return new Packet(blockLength, true, 0, 0, null);
  }

  /** A heartbeat, sent on an idle pipeline so the DataNodes do not time out. */
  static Packet heartbeat(DataChecksum checksum) {
    Packet p = new Packet(0, false, 0, 0, null);
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

  /** Every DataNode acknowledged the packet: its buffer may back another. Not used after this. */
  void recycle() {
    if (buffers != null) {
      buffers.give(buf);
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
      checksum.calculateChunkedSums(buf, dataStart, dataLen, buf, checksumStart);
    }
    int start = dataStart - checksumLen;
    System.arraycopy(buf, checksumStart, buf, start, checksumLen);
    PacketHeader header = new PacketHeader(4 + checksumLen + dataLen, offsetInBlock, seqno,
        lastInBlock, dataLen, sync);
    byte[] headerBytes = header.getBytes();
    wireStart = start - headerBytes.length;
    System.arraycopy(headerBytes, 0, buf, wireStart, headerBytes.length);
    wireLen = headerBytes.length + checksumLen + dataLen;
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
