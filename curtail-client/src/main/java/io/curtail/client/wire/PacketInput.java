package io.curtail.client.wire;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.zip.CRC32;
import java.util.zip.Checksum;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.util.DataChecksum;

/**
 * The data packets a DataNode sends on one connection, received one at a time into one buffer
 * that lives as long as the connection: direct where the connection is a channel (the kernel
 * copies into it, no copy through the heap), on the heap where it is a stream (an encrypted peer).
 * A pooled connection brings its buffer, already grown and touched, to the next read; receiving a
 * packet allocates nothing. A closed connection leaves its buffer to the next new one
 * ({@link #release}). Stock readers take a direct buffer from a pool of weak references per read
 * and register a finalizer per read.
 *
 * <p>Not thread-safe: the reader holding the connection uses it.
 */
public final class PacketInput {
  private static final int FIRST_CAPACITY = 64 * 1024 + 1024;
  /**
   * Direct packet buffers of the first size that closed connections left, for new connections:
   * allocating one (reserving direct memory, zeroing it, registering its cleaner) cost a tenth
   * of a short read that reconnects, and a closed connection's buffer is otherwise freed only by
   * a garbage collection. At most this many are kept, JVM-wide: about 2 MiB.
   */
  private static final ArrayBlockingQueue<ByteBuffer> SPARE = new ArrayBlockingQueue<>(32);

  private final ReadableByteChannel channel;
  private final InputStream in;
  private final PacketFormat.Header header = new PacketFormat.Header();
  /** The packet received last, whole from position 0: lengths, header, checksums and data. */
  private ByteBuffer buf;
  /** Views of {@link #buf} on the checksums and on the data, re-bounded per packet. */
  private ByteBuffer checksums;
  private ByteBuffer data;
  /** A view of {@link #buf} on one chunk at a time, for {@link #verify}. */
  private ByteBuffer chunk;
  private CRC32 crc32;
  /** Whether CRC32C is computed here by the JDK's (Java 9+) or left to Hadoop's verifier. */
  private final boolean jdkCrc32c;
  /** The JDK's CRC32C, where the JVM has one ({@link JdkCrc32c}). */
  private Checksum crc32c;

  /** @param channel the connection's bytes as a channel, or null to read them from {@code in} */
  public PacketInput(ReadableByteChannel channel, InputStream in) {
    this(channel, in, JdkCrc32c.AVAILABLE);
  }

  /** @param jdkCrc32c false to verify CRC32C as on Java 8, whatever this JVM has: for tests */
  PacketInput(ReadableByteChannel channel, InputStream in, boolean jdkCrc32c) {
    this.channel = channel;
    this.in = in;
    this.jdkCrc32c = jdkCrc32c;
  }

  private ByteBuffer allocate(int bytes) {
    return channel != null ? ByteBuffer.allocateDirect(bytes) : ByteBuffer.allocate(bytes);
  }

  /**
   * Reads the next packet whole and decodes its header.
   *
   * @throws IOException if the connection fails or ends, or the packet is malformed (named)
   */
  public void receive() throws IOException {
    int headerStart = PacketFormat.LENGTHS_BYTES;
    ensureCapacity(headerStart);
    buf.clear().limit(headerStart);
    readFully(buf);
    int payloadLen = buf.getInt(0); // 4 (itself) + checksums + data
    int headerLen = buf.getShort(4);
    long total = headerStart + (long) headerLen + payloadLen - 4;
    if (payloadLen < 4 || headerLen < 0 || total > PacketFormat.MAX_PACKET_BYTES) {
      throw new IOException("Malformed packet: payload length " + payloadLen
          + ", header length " + headerLen + " (at most " + PacketFormat.MAX_PACKET_BYTES
          + " bytes in all)");
    }
    ensureCapacity((int) total); // a new buffer need not keep the lengths: they are read
    buf.limit((int) total).position(headerStart);
    readFully(buf);
    header.decode(buf, headerStart, headerLen);
    int dataLen = header.dataLen();
    int checksumLen = payloadLen - 4 - dataLen;
    if (dataLen < 0 || checksumLen < 0) {
      throw new IOException("Malformed packet: data length " + dataLen + " in a payload of "
          + (payloadLen - 4) + " bytes, " + header);
    }
    int checksumStart = headerStart + headerLen;
    int dataStart = checksumStart + checksumLen;
    checksums.clear().limit(dataStart).position(checksumStart);
    data.clear().limit(dataStart + dataLen).position(dataStart);
  }

  private void ensureCapacity(int bytes) {
    if (buf == null || buf.capacity() < bytes) {
      int cap = buf == null ? FIRST_CAPACITY : buf.capacity();
      while (cap < bytes) {
        cap = (int) Math.min(PacketFormat.MAX_PACKET_BYTES, 2L * cap);
      }
      spare(buf);
      ByteBuffer spare = cap == FIRST_CAPACITY && channel != null ? SPARE.poll() : null;
      buf = spare != null ? spare : allocate(cap);
      checksums = buf.duplicate();
      data = buf.duplicate();
      chunk = buf.duplicate();
    }
  }

  /**
   * Leaves the packet buffer to the next new connection: the connection is closed, and the last
   * packet's views ({@link #data()} and the others) must not be read again.
   */
  public void release() {
    spare(buf);
    buf = null;
    checksums = null;
    data = null;
    chunk = null;
  }

  private static void spare(ByteBuffer b) {
    if (b != null && b.isDirect() && b.capacity() == FIRST_CAPACITY) {
      SPARE.offer(b); // when full, the buffer is the garbage collector's
    }
  }

  private void readFully(ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      int n;
      if (channel != null) {
        n = channel.read(b);
      } else {
        n = in.read(b.array(), b.arrayOffset() + b.position(), b.remaining());
        if (n > 0) {
          b.position(b.position() + n);
        }
      }
      if (n < 0) {
        throw new EOFException("Premature EOF: the connection ended inside a packet, "
            + b.remaining() + " bytes short");
      }
    }
  }

  /** The header of the packet received last. */
  public PacketFormat.Header header() {
    return header;
  }

  /** The data of the packet received last; its bounds are the caller's until the next packet. */
  public ByteBuffer data() {
    return data;
  }

  /**
   * Verifies every chunk of the packet received last against its checksum, read as
   * {@code checksum} says (chunk size, algorithm).
   *
   * @param blockOffset where the packet's first byte is in its block, for the error's position
   * @throws ChecksumException naming the file and the block offset of the first bad chunk
   * @throws IOException if the packet carries too few checksums for its data
   */
  public void verify(DataChecksum checksum, String file, long blockOffset) throws IOException {
    int size = checksum.getChecksumSize();
    if (size == 0) {
      return;
    }
    int bpc = checksum.getBytesPerChecksum();
    int dataStart = data.position();
    int dataLen = data.remaining();
    int chunks = (dataLen + bpc - 1) / bpc;
    if (checksums.remaining() < chunks * size) {
      throw new IOException("Malformed packet: " + checksums.remaining() + " bytes of checksums"
          + " for " + chunks + " chunks of " + checksum + ", " + header);
    }
    DataChecksum.Type type = checksum.getChecksumType();
    if (!inPlace(type)) { // an algorithm the JDK lacks: Hadoop's own verifier
      checksum.verifyChunkedSums(data, checksums, file, blockOffset); // keeps both positions
      return;
    }
    int sumAt = checksums.position();
    for (int i = 0; i < chunks; i++, sumAt += size) {
      int from = dataStart + i * bpc;
      chunk.limit(Math.min(dataStart + dataLen, from + bpc)).position(from);
      int got = type == DataChecksum.Type.CRC32 ? crc32Of(chunk) : JdkCrc32c.of(crc32c, chunk);
      if (got != buf.getInt(sumAt)) {
        throw new ChecksumException("Checksum error: " + file + " at " + (blockOffset + i * bpc)
            + " exp: " + buf.getInt(sumAt) + " got: " + got, blockOffset + (long) i * bpc);
      }
    }
  }

  /** Whether {@code type} is computed here, on the buffer in place, making what it needs. */
  private boolean inPlace(DataChecksum.Type type) {
    if (type == DataChecksum.Type.CRC32) {
      if (crc32 == null) {
        crc32 = new CRC32();
      }
      return true;
    }
    if (type == DataChecksum.Type.CRC32C && jdkCrc32c) {
      if (crc32c == null) {
        crc32c = JdkCrc32c.create();
      }
      return true;
    }
    return false;
  }

  private int crc32Of(ByteBuffer chunk) {
    crc32.reset();
    crc32.update(chunk);
    return (int) crc32.getValue();
  }
}
