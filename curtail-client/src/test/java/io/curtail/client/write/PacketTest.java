package io.curtail.client.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.hadoop.hdfs.protocol.datatransfer.PacketHeader;
import org.apache.hadoop.util.DataChecksum;
import org.junit.jupiter.api.Test;

/** Packets on the wire as Hadoop reads them, and made again from the pool once acknowledged. */
class PacketTest {
  private static final DataChecksum CRC =
      DataChecksum.newDataChecksum(DataChecksum.Type.CRC32C, 512);
  private final PacketPool pool = new PacketPool(2);

  @Test
  void recycledPacketIsMadeAfreshAndReadsAsHadoopWritesIt() throws IOException {
    Packet first = Packet.data(0, 1 << 20, 8, CRC, pool);
    first.append(new byte[4096], 0, 4096);
    first.requestSync();
    first.seal(0, CRC);
    first.recycle();

    byte[] data = new byte[1000]; // a partial chunk at the end
    new Random(5).nextBytes(data);
    Packet p = Packet.data(4096, 1 << 20, 8, CRC, pool);
    assertSame(first, p);
    assertEquals(4096, p.offsetInBlock);
    assertEquals(8 * 512, p.room());
    p.append(data, 0, data.length);
    p.seal(7, CRC);
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    p.writeTo(wire);

    ByteBuffer b = ByteBuffer.wrap(wire.toByteArray());
    PacketHeader h = new PacketHeader();
    h.readFields(b);
    assertEquals(4096, h.getOffsetInBlock());
    assertEquals(7, h.getSeqno());
    assertEquals(data.length, h.getDataLen());
    assertEquals(false, h.getSyncBlock()); // the first packet's sync is not inherited
    ByteBuffer sums = b.slice();
    sums.limit(2 * CRC.getChecksumSize());
    b.position(b.position() + 2 * CRC.getChecksumSize());
    ByteBuffer got = b.slice();
    CRC.verifyChunkedSums(got.duplicate(), sums, "/f", 4096);
    byte[] bytes = new byte[got.remaining()];
    got.get(bytes);
    assertArrayEquals(data, bytes);
  }

  @Test
  void aBufferTooSmallIsNotReused() {
    Packet partial = Packet.data(100, 1 << 20, 8, CRC, pool); // the rest of one chunk
    partial.recycle();
    assertNotSame(partial, Packet.data(512, 1 << 20, 8, CRC, pool));
  }
}
