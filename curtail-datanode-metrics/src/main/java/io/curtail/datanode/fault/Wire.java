package io.curtail.datanode.fault;

/**
 * A network link in virtual time: at a rate, one FIFO queue every packet crosses in turn, each
 * taking its bytes over the rate, so concurrent writers and readers of one DataNode share it as
 * they share a NIC; or, with a delay per packet instead, each packet held that long, no queue.
 * {@link #admit} tells a packet sent at {@code now} when it is through. Pure (time comes in as
 * numbers); thread-safe, the critical section a few arithmetic operations.
 */
final class Wire {
  private final long bytesPerSecond;
  private final long perPacketNanos;
  private long freeAtNanos = Long.MIN_VALUE;

  /** One of {@code bytesPerSecond} and {@code perPacketNanos} is above 0, the other 0. */
  Wire(long bytesPerSecond, long perPacketNanos) {
    this.bytesPerSecond = bytesPerSecond;
    this.perPacketNanos = perPacketNanos;
  }

  synchronized long admit(long nowNanos, long bytes) {
    if (bytesPerSecond == 0) {
      return nowNanos + perPacketNanos;
    }
    long start = Math.max(nowNanos, freeAtNanos);
    // bytes (a packet, under 2^27) × 10^9 stays far below 2^63
    freeAtNanos = start + bytes * 1_000_000_000L / bytesPerSecond;
    return freeAtNanos;
  }
}
