package io.curtail.datanode.fault;

import java.time.Duration;

/**
 * A slow disk to inject on one DataNode: every packet write (and, if asked, every packet read)
 * passes through one FIFO {@link DiskQueue} with this service time, optionally shared with
 * background load at a given utilisation. Immutable; build with {@link #serviceTime} and the
 * {@code with…} methods.
 */
public final class DiskFault {
  private final long serviceNanos;
  private final double utilisation;
  private final boolean reads;
  private final long seed;

  private DiskFault(long serviceNanos, double utilisation, boolean reads, long seed) {
    if (serviceNanos <= 0) {
      throw new IllegalArgumentException("disk service time must be > 0, was " + serviceNanos
          + "ns");
    }
    if (!(utilisation >= 0 && utilisation < 1)) {
      throw new IllegalArgumentException("background utilisation must be in [0, 1), was "
          + utilisation);
    }
    this.serviceNanos = serviceNanos;
    this.utilisation = utilisation;
    this.reads = reads;
    this.seed = seed;
  }

  /** A disk that spends {@code perPacket} on every packet write, with no background load. */
  public static DiskFault serviceTime(Duration perPacket) {
    return new DiskFault(perPacket.toNanos(), 0, false, 1);
  }

  /** The same disk also busy with Poisson background load taking {@code u} of its capacity. */
  public DiskFault withUtilisation(double u) {
    return new DiskFault(serviceNanos, u, reads, seed);
  }

  /** The same disk, also in the path of every packet read. */
  public DiskFault withReads() {
    return new DiskFault(serviceNanos, utilisation, true, seed);
  }

  /** The same disk, with background arrivals drawn from {@code s}. */
  public DiskFault withSeed(long s) {
    return new DiskFault(serviceNanos, utilisation, reads, s);
  }

  public long serviceNanos() {
    return serviceNanos;
  }

  public double utilisation() {
    return utilisation;
  }

  public boolean reads() {
    return reads;
  }

  public long seed() {
    return seed;
  }

  DiskQueue newQueue(long nowNanos) {
    return new DiskQueue(serviceNanos, utilisation, seed, nowNanos);
  }

  @Override
  public String toString() {
    return "DiskFault{serviceUs=" + serviceNanos / 1000 + ", utilisation=" + utilisation
        + (reads ? ", reads" : "") + '}';
  }
}
