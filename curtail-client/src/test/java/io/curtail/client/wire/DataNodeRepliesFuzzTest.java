package io.curtail.client.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.ChecksumProto;
import org.apache.hadoop.hdfs.protocol.proto.HdfsProtos.ChecksumTypeProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.ReadOpChecksumInfoProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.util.DataChecksum;

/**
 * What a read does with a DataNode's reply — the answer to {@code readBlock}, then packets, each
 * received and verified — fed a healthy reply with bytes changed, or bytes of any kind. Whatever
 * comes, the read ends in an {@link IOException} or delivers only bytes that passed their
 * checksums; never another exception, never a hang, and a reply left intact delivers exactly
 * what was sent. Both ways a connection is read: a channel into a direct buffer, a stream (an
 * encrypted peer) into a heap one.
 *
 * <p>Without {@code JAZZER_FUZZ} this runs its corpus ({@code DataNodeRepliesFuzzTestInputs/})
 * as a plain test; with it, Jazzer fuzzes (see docs/reliability.md).
 */
class DataNodeRepliesFuzzTest {
  private static final int BYTES_PER_CHECKSUM = 512;
  private static final DataChecksum CHECKSUM =
      DataChecksum.newDataChecksum(DataChecksum.Type.CRC32C, BYTES_PER_CHECKSUM);
  /** Data of the healthy reply's packets: a full one, a short one, then the empty last. */
  private static final int[] PACKET_DATA = {4096, 1000, 0};
  private static final byte[] DATA = new byte[4096 + 1000];
  private static final byte[] HEALTHY = healthyReply();

  static {
    for (int i = 0; i < DATA.length; i++) {
      DATA[i] = (byte) (i * 31 + 7);
    }
  }

  private static byte[] healthyReply() {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      BlockOpResponseProto.newBuilder().setStatus(Status.SUCCESS)
          .setReadOpChecksumInfo(ReadOpChecksumInfoProto.newBuilder().setChunkOffset(0)
              .setChecksum(ChecksumProto.newBuilder().setType(ChecksumTypeProto.CHECKSUM_CRC32C)
                  .setBytesPerChecksum(BYTES_PER_CHECKSUM)))
          .build().writeDelimitedTo(out);
      long offset = 0;
      for (int p = 0; p < PACKET_DATA.length; p++) {
        int len = PACKET_DATA[p];
        int chunks = (len + BYTES_PER_CHECKSUM - 1) / BYTES_PER_CHECKSUM;
        byte[] buf = new byte[PacketFormat.MAX_PREFIX_BYTES + chunks * 4 + len];
        int checksumStart = PacketFormat.MAX_PREFIX_BYTES;
        int dataStart = checksumStart + chunks * 4;
        byte[] data = dataAt(offset, len);
        System.arraycopy(data, 0, buf, dataStart, len);
        CRC32C crc = new CRC32C();
        for (int c = 0; c < chunks; c++) {
          crc.reset();
          crc.update(data, c * BYTES_PER_CHECKSUM,
              Math.min(BYTES_PER_CHECKSUM, len - c * BYTES_PER_CHECKSUM));
          ByteBuffer.wrap(buf, checksumStart + 4 * c, 4).putInt((int) crc.getValue());
        }
        int start = PacketFormat.writePrefix(buf, checksumStart, chunks * 4, len, offset, p,
            len == 0, false);
        out.write(buf, start, buf.length - start);
        offset += len;
      }
      return out.toByteArray();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] dataAt(long offset, int len) {
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      b[i] = (byte) ((offset + i) * 31 + 7);
    }
    return b;
  }

  @FuzzTest(maxDuration = "5s")
  void aReadMeetsWhateverTheDataNodeSends(FuzzedDataProvider in) {
    boolean channel = in.consumeBoolean();
    byte[] reply;
    boolean intact = false;
    if (in.consumeBoolean()) {
      reply = HEALTHY.clone();
      int changes = in.consumeInt(0, 8);
      intact = changes == 0;
      for (int i = 0; i < changes; i++) {
        reply[in.consumeInt(0, reply.length - 1)] = in.consumeByte();
      }
      if (in.consumeBoolean()) {
        reply = Arrays.copyOf(reply, in.consumeInt(0, reply.length));
        intact = false;
      }
    } else {
      reply = in.consumeRemainingAsBytes();
    }
    byte[] delivered = read(reply, channel);
    if (intact) {
      assertArrayEquals(DATA, delivered, "an intact reply delivers what was sent");
    }
  }

  /** Reads {@code reply} as a read would: the bytes delivered, or null if it ended in error. */
  private static byte[] read(byte[] reply, boolean channel) {
    InputStream raw = new ByteArrayInputStream(reply);
    ByteArrayOutputStream delivered = new ByteArrayOutputStream();
    try {
      DataNodeLink.response(raw, "a fuzzed read");
      PacketInput packets = channel
          ? new PacketInput(Channels.newChannel(raw), null) : new PacketInput(null, raw);
      for (int p = 0; p < 64; p++) {
        packets.receive();
        ByteBuffer data = packets.data();
        assertTrue(data.position() <= data.limit() && data.limit() <= data.capacity());
        packets.verify(CHECKSUM, "a fuzzed read", packets.header().offsetInBlock());
        byte[] got = new byte[data.remaining()];
        data.duplicate().get(got);
        delivered.write(got, 0, got.length);
        if (packets.header().lastInBlock() || got.length == 0) {
          return delivered.toByteArray();
        }
      }
      return delivered.toByteArray();
    } catch (IOException malformed) {
      return null; // what must happen to a malformed reply
    }
  }
}
