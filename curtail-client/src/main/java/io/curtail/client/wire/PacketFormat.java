package io.curtail.client.wire;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The layout of a data packet on a data-transfer connection, both ways, encoded and decoded here
 * without allocating: a 4-byte payload length (4 + checksums + data), a 2-byte header length, the
 * header ({@code PacketHeaderProto}: offset in block, sequence number, last packet in block, data
 * length, sync), the chunks' checksums, then the data. Lengths are big-endian; the header is
 * protobuf, whose fixed-width fields are little-endian. Hadoop's {@code PacketHeader} parses and
 * builds the same bytes through protobuf objects, a few hundred bytes of garbage per packet; the
 * reader and writer here handle one packet per 64 KiB, so they do it by hand.
 */
public final class PacketFormat {
  /** The payload length and the header length before every header. */
  public static final int LENGTHS_BYTES = 6;
  /** Bytes of the longest header this class encodes: every field, sync included. */
  public static final int MAX_HEADER_BYTES = 27;
  /** Room before a packet's checksums that any header and its lengths fit in. */
  public static final int MAX_PREFIX_BYTES = LENGTHS_BYTES + MAX_HEADER_BYTES;
  /** The largest packet a reader accepts, as stock clients and DataNodes bound it (16 MiB). */
  public static final int MAX_PACKET_BYTES = 16 * 1024 * 1024;

  // Protobuf tags: field number << 3 | wire type (0 varint, 1 fixed64, 2 length-delimited,
  // 5 fixed32).
  private static final int OFFSET_IN_BLOCK = 1 << 3 | 1;
  private static final int SEQNO = 2 << 3 | 1;
  private static final int LAST_PACKET_IN_BLOCK = 3 << 3;
  private static final int DATA_LEN = 4 << 3 | 5;
  private static final int SYNC_BLOCK = 5 << 3;

  private PacketFormat() {
  }

  /**
   * Writes the lengths and header of a packet whose checksums start at {@code checksumStart} in
   * {@code buf}, just before them; returns where the packet starts on the wire (at least
   * {@code checksumStart - MAX_PREFIX_BYTES}).
   */
  public static int writePrefix(byte[] buf, int checksumStart, int checksumLen, int dataLen,
      long offsetInBlock, long seqno, boolean lastInBlock, boolean sync) {
    int headerLen = sync ? MAX_HEADER_BYTES : MAX_HEADER_BYTES - 2;
    int start = checksumStart - LENGTHS_BYTES - headerLen;
    int at = start;
    at = putBigEndian(buf, at, 4 + checksumLen + dataLen, 4);
    at = putBigEndian(buf, at, headerLen, 2);
    buf[at++] = OFFSET_IN_BLOCK;
    at = putLittleEndian(buf, at, offsetInBlock, 8);
    buf[at++] = SEQNO;
    at = putLittleEndian(buf, at, seqno, 8);
    buf[at++] = LAST_PACKET_IN_BLOCK;
    buf[at++] = (byte) (lastInBlock ? 1 : 0);
    buf[at++] = DATA_LEN;
    at = putLittleEndian(buf, at, dataLen, 4);
    if (sync) {
      buf[at++] = SYNC_BLOCK;
      buf[at++] = 1;
    }
    assert at == checksumStart;
    return start;
  }

  private static int putBigEndian(byte[] buf, int at, long v, int bytes) {
    for (int i = bytes - 1; i >= 0; i--) {
      buf[at++] = (byte) (v >>> (8 * i));
    }
    return at;
  }

  private static int putLittleEndian(byte[] buf, int at, long v, int bytes) {
    for (int i = 0; i < bytes; i++) {
      buf[at++] = (byte) (v >>> (8 * i));
    }
    return at;
  }

  /**
   * A decoded packet header; one is reused from packet to packet. Decoding accepts any valid
   * encoding of the header (fields in any order, unknown fields skipped), as a newer DataNode may
   * add fields.
   */
  public static final class Header {
    private long offsetInBlock;
    private long seqno;
    private boolean lastInBlock;
    private int dataLen;
    private boolean sync;
    /** Where decoding has got to. */
    private int at;

    /**
     * Decodes the {@code len} header bytes at {@code from} in {@code b} (absolute positions; the
     * buffer's position is untouched).
     *
     * @throws IOException naming what is wrong, if they are not a packet header
     */
    public void decode(ByteBuffer b, int from, int len) throws IOException {
      at = from;
      int end = from + len;
      int seen = 0;
      sync = false;
      while (at < end) {
        long tag = varint(b, end, from, len); // fields past 15 take more than a byte
        long field = tag >>> 3;
        int type = (int) (tag & 7);
        if (field == 0) {
          throw malformed("field number 0", from, len, b);
        }
        seen |= 1 << Math.min(field, 6);
        if (tag == OFFSET_IN_BLOCK) {
          offsetInBlock = getLittleEndian(b, at, 8, end);
        } else if (tag == SEQNO) {
          seqno = getLittleEndian(b, at, 8, end);
        } else if (tag == LAST_PACKET_IN_BLOCK) {
          lastInBlock = getLittleEndian(b, at, 1, end) != 0;
        } else if (tag == DATA_LEN) {
          dataLen = (int) getLittleEndian(b, at, 4, end);
        } else if (tag == SYNC_BLOCK) {
          sync = getLittleEndian(b, at, 1, end) != 0;
        } else if (field <= 5) {
          throw malformed("field " + field + " of wire type " + type, from, len, b);
        }
        skip(b, type, end, from, len);
      }
      if (at != end) {
        throw malformed("a field running past its end", from, len, b);
      }
      int required = 1 << 1 | 1 << 2 | 1 << 3 | 1 << 4;
      if ((seen & required) != required) {
        throw malformed("a required field missing", from, len, b);
      }
    }

    /** The varint at {@link #at}, which moves past it. */
    private long varint(ByteBuffer b, int end, int from, int len) throws IOException {
      long v = 0;
      for (int shift = 0; ; shift += 7) {
        if (at >= end || shift > 63) {
          throw malformed("a varint running past its end", from, len, b);
        }
        byte x = b.get(at++);
        v |= (long) (x & 0x7f) << shift;
        if (x >= 0) {
          return v;
        }
      }
    }

    /** Moves {@link #at} past the value of wire type {@code type} there. */
    private void skip(ByteBuffer b, int type, int end, int from, int len) throws IOException {
      switch (type) {
        case 0:
          varint(b, end, from, len);
          return;
        case 1:
          at += 8;
          return;
        case 5:
          at += 4;
          return;
        case 2:
          long n = varint(b, end, from, len);
          at = n > end - at ? end + 1 : at + (int) n; // past the end: malformed, said above
          return;
        default:
          throw malformed("wire type " + type, from, len, b);
      }
    }

    public long offsetInBlock() {
      return offsetInBlock;
    }

    public long seqno() {
      return seqno;
    }

    public boolean lastInBlock() {
      return lastInBlock;
    }

    public int dataLen() {
      return dataLen;
    }

    public boolean sync() {
      return sync;
    }

    @Override
    public String toString() {
      return "header{offset=" + offsetInBlock + ", seqno=" + seqno + ", dataLen=" + dataLen
          + (lastInBlock ? ", last" : "") + (sync ? ", sync" : "") + '}';
    }
  }

  /** A value of {@code bytes} bytes at {@code at}, little-endian; a varint of one byte if 1. */
  private static long getLittleEndian(ByteBuffer b, int at, int bytes, int end)
      throws IOException {
    if (at + bytes > end) {
      throw new IOException("Malformed packet header: a field runs past its end at " + at);
    }
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v |= (b.get(at + i) & 0xffL) << (8 * i);
    }
    return v;
  }

  private static IOException malformed(String what, int from, int len, ByteBuffer b) {
    StringBuilder hex = new StringBuilder();
    for (int i = from; i < from + Math.min(len, 32); i++) {
      hex.append(String.format("%02x", b.get(i)));
    }
    return new IOException("Malformed packet header (" + what + "): " + len + " bytes " + hex);
  }
}
