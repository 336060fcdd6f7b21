package io.curtail.client.write;

import java.util.ArrayDeque;

/**
 * One stream's spare packets: a packet every DataNode acknowledged is made the next one, buffer
 * and all, so a stream in its steady state allocates nothing per packet (stock clients allocate a
 * buffer per packet unless {@code dfs.client.write.byte-array-manager.enabled}). At most as many
 * are kept as packets may be in flight. Thread-safe: the ack reader gives, the writer takes.
 */
final class PacketPool {
  private final int max;
  private final ArrayDeque<Packet> free = new ArrayDeque<>();

  PacketPool(int max) {
    this.max = max;
  }

  /** A packet on a buffer of at least {@code bytes}: a spare one if big enough, else a new one. */
  Packet take(int bytes) {
    synchronized (this) {
      Packet spare = free.peekLast();
      if (spare != null && spare.bufferBytes() >= bytes) {
        return free.pollLast();
      }
    }
    return Packet.pooled(bytes, this);
  }

  /** {@code p} was acknowledged and will never be sent again. */
  synchronized void give(Packet p) {
    if (free.size() < max) {
      free.addLast(p);
    }
  }
}
