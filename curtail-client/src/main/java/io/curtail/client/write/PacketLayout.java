package io.curtail.client.write;

import io.curtail.client.wire.PacketFormat;
import org.apache.hadoop.util.DataChecksum;

/**
 * How one file's bytes are cut into packets: its block size and checksum, the chunks a packet
 * holds ({@code dfs.client-write-packet-size}), and the recycled packets it is made of.
 * Immutable but for the pool, which is thread-safe.
 */
final class PacketLayout {
  final long blockSize;
  final DataChecksum checksum;
  /** Full chunks in a packet of the configured size. */
  final int chunksPerPacket;
  /** Bytes of data in a full packet, the unit of the fail-fast cost model. */
  final int packetBytes;
  private final PacketPool packets;

  /**
   * @param packetSize bytes of a packet on the wire, header included
   * @param maxInFlight packets that may be unacknowledged at once (packets kept for as many)
   */
  PacketLayout(long blockSize, DataChecksum checksum, int packetSize, int maxInFlight) {
    this.blockSize = blockSize;
    this.checksum = checksum;
    int chunk = checksum.getBytesPerChecksum() + checksum.getChecksumSize();
    this.chunksPerPacket = Math.max(1, (packetSize - PacketFormat.MAX_PREFIX_BYTES) / chunk);
    this.packetBytes = chunksPerPacket * checksum.getBytesPerChecksum();
    this.packets = new PacketPool(maxInFlight + 1);
  }

  /** An empty data packet for block bytes from {@code offsetInBlock}. */
  Packet packetAt(long offsetInBlock) {
    return Packet.data(offsetInBlock, blockSize, chunksPerPacket, checksum, packets);
  }

  /** Packets still to write to a block of which {@code acked} bytes are acknowledged. */
  long packetsLeftInBlock(long acked) {
    return (blockSize - acked + packetBytes - 1) / packetBytes;
  }
}
