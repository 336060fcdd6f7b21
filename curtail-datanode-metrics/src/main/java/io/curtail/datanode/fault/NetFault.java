package io.curtail.datanode.fault;

import java.time.Duration;

/**
 * A slow network on one DataNode's way out: a <b>slow NIC</b> ({@link #nic}), which slows all the
 * data it sends (packets forwarded down a write pipeline and packets sent to readers), or a
 * <b>slow link</b> ({@link #link}), which slows only the packets it forwards to one peer, by that
 * peer's transfer address as the DataNode names its mirror ({@code ip:port}). Either is a link of a
 * given rate, a FIFO {@link Wire} every packet crosses in turn, or a fixed delay per packet.
 *
 * <p>What it does not model: the DataNode's acks and everything it receives (a slow NIC slows
 * both ways; this slows sending only, where a write's data goes), and a packet's real size on the
 * forwarding path: the hook called before forwarding does not see it, so each forwarded packet is
 * charged {@link #FORWARDED_PACKET_BYTES}, a full write packet, which overcharges the small packets
 * of hflush. Reads are charged the bytes the DataNode sends. Immutable.
 */
public final class NetFault {
  /** What a forwarded packet is charged: a client's 64 KiB write packet, checksums included. */
  public static final long FORWARDED_PACKET_BYTES = 64 * 1024;

  private final String peer;
  private final long bytesPerSecond;
  private final long perPacketNanos;

  private NetFault(String peer, long bytesPerSecond, long perPacketNanos) {
    if (bytesPerSecond < 0 || perPacketNanos < 0 || (bytesPerSecond == 0) == (perPacketNanos == 0)) {
      throw new IllegalArgumentException("a network fault needs a rate > 0 or a delay per packet"
          + " > 0, was " + bytesPerSecond + " bytes/s and " + perPacketNanos + " ns per packet");
    }
    if (peer != null && peer.indexOf(':') < 0) {
      throw new IllegalArgumentException("a link's peer is a transfer address ip:port, was '"
          + peer + "'");
    }
    this.peer = peer;
    this.bytesPerSecond = bytesPerSecond;
    this.perPacketNanos = perPacketNanos;
  }

  /** A NIC that sends at most {@code bytesPerSecond}, to every peer and reader, FIFO. */
  public static NetFault nic(long bytesPerSecond) {
    return new NetFault(null, bytesPerSecond, 0);
  }

  /** A NIC that holds every packet it sends for {@code perPacket}. */
  public static NetFault nic(Duration perPacket) {
    return new NetFault(null, 0, perPacket.toNanos());
  }

  /** A link to {@code peer} ({@code ip:port}) that forwards at most {@code bytesPerSecond}. */
  public static NetFault link(String peer, long bytesPerSecond) {
    return new NetFault(peer, bytesPerSecond, 0);
  }

  /** A link to {@code peer} ({@code ip:port}) that holds every forwarded packet {@code perPacket}. */
  public static NetFault link(String peer, Duration perPacket) {
    return new NetFault(peer, 0, perPacket.toNanos());
  }

  /** The one peer whose packets this slows, or null for a NIC (every packet sent). */
  public String peer() {
    return peer;
  }

  /** Whether this slows the packets forwarded to {@code mirror} (as {@code ip:port}). */
  public boolean slowsForwardingTo(String mirror) {
    return peer == null || peer.equals(mirror);
  }

  /** Whether this slows the data sent to readers: a NIC does, a link between DataNodes not. */
  public boolean slowsReads() {
    return peer == null;
  }

  public long bytesPerSecond() {
    return bytesPerSecond;
  }

  public long perPacketNanos() {
    return perPacketNanos;
  }

  Wire newWire() {
    return new Wire(bytesPerSecond, perPacketNanos);
  }

  @Override
  public String toString() {
    return (peer == null ? "NetFault{nic" : "NetFault{link to " + peer)
        + (bytesPerSecond > 0 ? ", bytesPerSecond=" + bytesPerSecond
            : ", perPacketUs=" + perPacketNanos / 1000) + '}';
  }
}
