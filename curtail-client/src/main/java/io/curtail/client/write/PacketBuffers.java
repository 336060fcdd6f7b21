package io.curtail.client.write;

import java.util.ArrayDeque;

/**
 * One stream's spare packet buffers: the buffer of a packet every DataNode acknowledged backs
 * the next packet, so a stream in its steady state allocates none (stock clients allocate one
 * per packet unless {@code dfs.client.write.byte-array-manager.enabled}). At most as many are
 * kept as packets may be in flight. Thread-safe: the ack reader gives, the writer takes.
 */
final class PacketBuffers {
  private final int max;
  private final ArrayDeque<byte[]> free = new ArrayDeque<>();

  PacketBuffers(int max) {
    this.max = max;
  }

  /** A buffer of at least {@code bytes}: a spare one if it is big enough, else a new one. */
  synchronized byte[] take(int bytes) {
    byte[] spare = free.peekLast();
    if (spare != null && spare.length >= bytes) {
      return free.pollLast();
    }
    return new byte[bytes];
  }

  /** {@code buf} is free again: its packet was acknowledged and will never be sent again. */
  synchronized void give(byte[] buf) {
    if (free.size() < max) {
      free.addLast(buf);
    }
  }
}
