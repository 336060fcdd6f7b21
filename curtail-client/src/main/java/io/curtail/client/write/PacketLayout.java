package io.curtail.client.write;

import org.apache.hadoop.hdfs.protocol.datatransfer.PacketHeader;
import org.apache.hadoop.util.DataChecksum;

/**
 * How one file's bytes are cut into packets: its block size and checksum, the chunks a packet
 * holds ({@code dfs.client-write-packet-size}), and the recycled buffers packets are made on.
 * Immutable but for the buffers, which are thread-safe.
 */
final class PacketLayout {
  final long blockSize;
  final DataChecksum checksum;
  /** Full chunks in a packet of the configured size. */
  final int chunksPerPacket;
  /** Bytes of data in a full packet, the unit of the fail-fast cost model. */
  final int packetBytes;
  private final PacketBuffers buffers;

  /**
   * @param packetSize bytes of a packet on the wire, header included
   * @param maxInFlight packets that may be unacknowledged at once (buffers kept for as many)
   */
  PacketLayout(long blockSize, DataChecksum checksum, int packetSize, int maxInFlight) {
    this.blockSize = blockSize;
    this.checksum = checksum;
    int chunk = checksum.getBytesPerChecksum() + checksum.getChecksumSize();
    this.chunksPerPacket = Math.max(1, (packetSize - PacketHeader.PKT_MAX_HEADER_LEN) / chunk);
    this.packetBytes = chunksPerPacket * checksum.getBytesPerChecksum();
    this.buffers = new PacketBuffers(maxInFlight + 1);
  }

  /** An empty data packet for block bytes from {@code offsetInBlock}. */
  Packet packetAt(long offsetInBlock) {
    return Packet.data(offsetInBlock, blockSize, chunksPerPacket, checksum, buffers);
  }

  /** Packets still to write to a block of which {@code acked} bytes are acknowledged. */
  long packetsLeftInBlock(long acked) {
    return (blockSize - acked + packetBytes - 1) / packetBytes;
  }
}
