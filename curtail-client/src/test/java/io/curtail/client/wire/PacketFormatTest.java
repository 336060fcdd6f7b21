package io.curtail.client.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.hdfs.protocol.datatransfer.PacketHeader;
import org.apache.hadoop.util.DataChecksum;
import org.junit.jupiter.api.Test;

/**
 * Curtail's packet encoding against Hadoop's, both ways, and {@link PacketInput} reading packets
 * as Hadoop lays them out: whole, verified, and failing by name on anything malformed.
 */
class PacketFormatTest {
  private static final DataChecksum CRC32C =
      DataChecksum.newDataChecksum(DataChecksum.Type.CRC32C, 512);

  @Test
  void headersHadoopParsesAsWritten() throws IOException {
    for (boolean last : new boolean[] {false, true}) {
      for (boolean sync : new boolean[] {false, true}) {
        byte[] buf = new byte[PacketFormat.MAX_PREFIX_BYTES + 8];
        int start = PacketFormat.writePrefix(buf, PacketFormat.MAX_PREFIX_BYTES, 4, 4,
            1L << 40, 1234567L, last, sync);
        PacketHeader h = new PacketHeader();
        h.readFields(ByteBuffer.wrap(buf, start, buf.length - start));
        assertEquals(1L << 40, h.getOffsetInBlock());
        assertEquals(1234567L, h.getSeqno());
        assertEquals(last, h.isLastPacketInBlock());
        assertEquals(4, h.getDataLen());
        assertEquals(sync, h.getSyncBlock());
        assertEquals(12, h.getPacketLen());
        // byte for byte what Hadoop writes
        byte[] hadoop = new PacketHeader(12, 1L << 40, 1234567L, last, 4, sync).getBytes();
        assertArrayEquals(hadoop, Arrays.copyOfRange(buf, start, PacketFormat.MAX_PREFIX_BYTES));
      }
    }
  }

  @Test
  void hadoopsHeadersDecodedWithUnknownFieldsSkipped() throws IOException {
    byte[] proto = proto(new PacketHeader(4, -7, 42, true, 0, true));
    byte[] extra = {(byte) 0x30, (byte) 0x96, 0x01, // field 6, varint 150
        (byte) 0xa2, 0x01, 0x02, 'h', 'i', // field 20, 2 bytes
        (byte) 0x3d, 1, 2, 3, 4}; // field 7, fixed32
    ByteBuffer b = ByteBuffer.allocate(proto.length + extra.length);
    b.put(extra, 0, 3).put(proto).put(extra, 3, extra.length - 3);
    PacketFormat.Header h = new PacketFormat.Header();
    h.decode(b, 0, b.capacity());
    assertEquals(-7, h.offsetInBlock());
    assertEquals(42, h.seqno());
    assertTrue(h.lastInBlock());
    assertEquals(0, h.dataLen());
    assertTrue(h.sync());
  }

  @Test
  void malformedHeadersNamed() {
    byte[] good = proto(new PacketHeader(4, 0, 0, false, 0, false));
    PacketFormat.Header h = new PacketFormat.Header();
    IOException cut = assertThrows(IOException.class,
        () -> h.decode(ByteBuffer.wrap(good), 0, good.length - 2));
    assertTrue(cut.getMessage().startsWith("Malformed packet header"), cut.getMessage());
    // the seqno field is bytes 9 to 17: its tag, then 8 bytes
    byte[] missing = concat(Arrays.copyOf(good, 9), Arrays.copyOfRange(good, 18, good.length));
    IOException absent = assertThrows(IOException.class,
        () -> h.decode(ByteBuffer.wrap(missing), 0, missing.length));
    assertTrue(absent.getMessage().contains("required field missing"), absent.getMessage());
    byte[] wrongType = good.clone();
    wrongType[0] = (byte) 0x08; // offsetInBlock as a varint
    IOException type = assertThrows(IOException.class,
        () -> h.decode(ByteBuffer.wrap(wrongType), 0, wrongType.length));
    assertTrue(type.getMessage().contains("field 1 of wire type 0"), type.getMessage());
  }

  @Test
  void packetsReadWholeAndVerifiedFromChannelsAndStreams() throws IOException {
    byte[] data = new byte[70_000]; // bigger than the first buffer, a partial last chunk
    new Random(3).nextBytes(data);
    for (DataChecksum sum : new DataChecksum[] {CRC32C,
        DataChecksum.newDataChecksum(DataChecksum.Type.CRC32, 512),
        DataChecksum.newDataChecksum(DataChecksum.Type.NULL, 512)}) {
      byte[] wire = concat(packet(sum, data, 0, 0, false), packet(sum, data, 0, 1, false),
          packet(sum, new byte[0], data.length, 2, true));
      for (boolean channel : new boolean[] {true, false}) {
        ByteArrayInputStream in = new ByteArrayInputStream(wire);
        PacketInput packets = new PacketInput(channel ? Channels.newChannel(in) : null, in);
        for (int seqno = 0; seqno < 2; seqno++) {
          packets.receive();
          assertEquals(seqno, packets.header().seqno());
          packets.verify(sum, "/f", 0);
          byte[] got = new byte[packets.data().remaining()];
          packets.data().get(got);
          assertArrayEquals(data, got);
        }
        packets.receive();
        assertTrue(packets.header().lastInBlock());
        assertFalse(packets.data().hasRemaining());
        assertThrows(EOFException.class, packets::receive);
      }
    }
  }

  @Test
  void corruptChunkNamedByItsOffset() throws IOException {
    for (boolean jdkCrc32c : new boolean[] {true, false}) {
      ChecksumException e = assertThrows(ChecksumException.class,
          () -> verifyWithOneBitFlipped(jdkCrc32c));
      assertEquals(8192 + 3072, e.getPos(), "JDK's CRC32C " + jdkCrc32c);
      assertTrue(e.getMessage().contains("/f"), e.getMessage());
    }
  }

  /**
   * As on Java 8, where the JDK has no CRC32C: Hadoop's verifier checks the packet in place,
   * from a channel (a direct buffer) and from a stream (the heap), and leaves the data to read.
   */
  @Test
  void crc32cVerifiedByHadoopAsOnJava8() throws IOException {
    byte[] data = new byte[70_000];
    new Random(5).nextBytes(data);
    byte[] wire = concat(packet(CRC32C, data, 0, 0, false), packet(CRC32C, data, 0, 1, false));
    for (boolean channel : new boolean[] {true, false}) {
      ByteArrayInputStream in = new ByteArrayInputStream(wire);
      PacketInput packets = new PacketInput(channel ? Channels.newChannel(in) : null, in, false);
      for (int seqno = 0; seqno < 2; seqno++) {
        packets.receive();
        packets.verify(CRC32C, "/f", 0);
        byte[] got = new byte[packets.data().remaining()];
        packets.data().get(got);
        assertArrayEquals(data, got, "packet " + seqno + ", channel " + channel);
      }
    }
  }

  private static void verifyWithOneBitFlipped(boolean jdkCrc32c) throws IOException {
    byte[] data = new byte[4096];
    new Random(4).nextBytes(data);
    byte[] wire = packet(CRC32C, data, 8192, 0, false);
    wire[wire.length - 1000] ^= 1; // in the chunk at 3072 of the packet
    ByteArrayInputStream in = new ByteArrayInputStream(wire);
    PacketInput packets = new PacketInput(Channels.newChannel(in), in, jdkCrc32c);
    packets.receive();
    packets.verify(CRC32C, "/f", 8192);
  }

  @Test
  void malformedPacketsNamed() throws IOException {
    byte[] data = new byte[1024];
    byte[] good = packet(CRC32C, data, 0, 0, false);
    byte[] huge = good.clone();
    huge[0] = 0x7f; // a payload of about 2 GiB
    IOException tooBig = assertThrows(IOException.class, () -> receive(huge));
    assertTrue(tooBig.getMessage().contains("payload length"), tooBig.getMessage());
    byte[] truncated = Arrays.copyOf(good, good.length - 10);
    assertThrows(EOFException.class, () -> receive(truncated));
    // a data length longer than the payload
    byte[] liar = packet(CRC32C, data, 0, 0, false);
    int dataLenAt = PacketFormat.LENGTHS_BYTES + 1 + 8 + 1 + 8 + 2 + 1;
    liar[dataLenAt + 1] = 0x10;
    IOException len = assertThrows(IOException.class, () -> receive(liar));
    assertTrue(len.getMessage().contains("data length"), len.getMessage());
  }

  /** The header's protobuf bytes, without the lengths before them. */
  private static byte[] proto(PacketHeader h) {
    byte[] all = h.getBytes();
    return Arrays.copyOfRange(all, PacketFormat.LENGTHS_BYTES, all.length);
  }

  private static void receive(byte[] wire) throws IOException {
    ByteArrayInputStream in = new ByteArrayInputStream(wire);
    new PacketInput(Channels.newChannel(in), in).receive();
  }

  /** A packet as Hadoop lays it out, built with Hadoop's classes. */
  private static byte[] packet(DataChecksum sum, byte[] data, long offset, long seqno,
      boolean last) throws IOException {
    int chunks = (data.length + sum.getBytesPerChecksum() - 1) / sum.getBytesPerChecksum();
    byte[] sums = new byte[chunks * sum.getChecksumSize()];
    if (sum.getChecksumSize() > 0 && data.length > 0) {
      sum.calculateChunkedSums(data, 0, data.length, sums, 0);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new PacketHeader(4 + sums.length + data.length, offset, seqno, last, data.length,
        false).getBytes());
    out.write(sums);
    out.write(data);
    return out.toByteArray();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.write(p, 0, p.length);
    }
    return out.toByteArray();
  }
}
