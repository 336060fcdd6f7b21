package io.curtail.datanode.fault;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * How one DataNode's disk misbehaves, and which of its accesses that slows. Two kinds:
 * <ul>
 *   <li>a <b>slow disk</b> ({@link #serviceTime}): one FIFO {@link DiskQueue} with a service time
 *       per access, optionally shared with background load at a given utilisation;
 *   <li><b>stalls</b> ({@link #stalls}): a disk that freezes for a while every period and is
 *       healthy in between.
 * </ul>
 * Either slows the {@link Access}es it is set {@link #on}. Immutable; build with the factories
 * and the {@code with…} methods.
 */
public final class DiskFault {
  /** The DataNode's disk accesses a fault can slow, each at its own hook. */
  public enum Access {
    /** Each packet of a block write, after it is written. */
    WRITES,
    /** Each packet of a block read, before it is sent. */
    READS,
    /** The opening of a replica to serve a read: every read's first disk access. */
    OPENS;

    /** The access named {@code name} (any case). */
    public static Access named(String name) {
      try {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("unknown disk access '" + name
            + "'; accesses are writes, reads, opens");
      }
    }
  }

  private final long serviceNanos;
  private final double utilisation;
  private final long stallEveryNanos;
  private final Set<Access> accesses;
  private final long seed;

  private DiskFault(long serviceNanos, double utilisation, long stallEveryNanos,
      Set<Access> accesses, long seed) {
    if (serviceNanos <= 0) {
      throw new IllegalArgumentException((stallEveryNanos > 0 ? "stall" : "disk service")
          + " time must be > 0, was " + serviceNanos + "ns");
    }
    if (!(utilisation >= 0 && utilisation < 1)) {
      throw new IllegalArgumentException("background utilisation must be in [0, 1), was "
          + utilisation);
    }
    if (stallEveryNanos > 0 && stallEveryNanos <= serviceNanos) {
      throw new IllegalArgumentException("stalls of " + serviceNanos / 1_000_000 + " ms must"
          + " come less often than they last, every " + stallEveryNanos / 1_000_000 + " ms");
    }
    if (accesses.isEmpty()) {
      throw new IllegalArgumentException("a disk fault must slow at least one access");
    }
    this.serviceNanos = serviceNanos;
    this.utilisation = utilisation;
    this.stallEveryNanos = stallEveryNanos;
    this.accesses = accesses;
    this.seed = seed;
  }

  /** A slow disk that spends {@code perPacket} on every packet write, with no background load. */
  public static DiskFault serviceTime(Duration perPacket) {
    return new DiskFault(perPacket.toNanos(), 0, 0, EnumSet.of(Access.WRITES), 1);
  }

  /**
   * A disk that freezes for {@code lasting} at the start of every {@code every}, for every
   * access: each access arriving during a freeze waits for its end.
   */
  public static DiskFault stalls(Duration every, Duration lasting) {
    if (every.toNanos() <= 0) {
      throw new IllegalArgumentException("stalls need a period > 0, was " + every);
    }
    return new DiskFault(lasting.toNanos(), 0, every.toNanos(), EnumSet.allOf(Access.class), 1);
  }

  /** The same disk also busy with Poisson background load taking {@code u} of its capacity. */
  public DiskFault withUtilisation(double u) {
    if (stalls() && u != 0) {
      throw new IllegalArgumentException("stalls have no background load");
    }
    return new DiskFault(serviceNanos, u, stallEveryNanos, accesses, seed);
  }

  /** The same disk, also in the path of every packet read and of the opening of each read. */
  public DiskFault withReads() {
    EnumSet<Access> more = EnumSet.copyOf(accesses);
    more.add(Access.READS);
    more.add(Access.OPENS);
    return new DiskFault(serviceNanos, utilisation, stallEveryNanos, more, seed);
  }

  /** The same disk, slowing exactly {@code first} and {@code rest}. */
  public DiskFault on(Access first, Access... rest) {
    return new DiskFault(serviceNanos, utilisation, stallEveryNanos, EnumSet.of(first, rest),
        seed);
  }

  /** The same disk, slowing exactly {@code these} (not empty). */
  public DiskFault on(Set<Access> these) {
    return new DiskFault(serviceNanos, utilisation, stallEveryNanos,
        these.isEmpty() ? EnumSet.noneOf(Access.class) : EnumSet.copyOf(these), seed);
  }

  /** The same disk, with background arrivals drawn from {@code s}. */
  public DiskFault withSeed(long s) {
    return new DiskFault(serviceNanos, utilisation, stallEveryNanos, accesses, s);
  }

  /** Time per access of a slow disk; how long each freeze lasts for stalls. */
  public long serviceNanos() {
    return serviceNanos;
  }

  public double utilisation() {
    return utilisation;
  }

  /** Whether this disk stalls (rather than queues). */
  public boolean stalls() {
    return stallEveryNanos > 0;
  }

  /** How often a stalling disk freezes; 0 for a slow disk. */
  public long stallEveryNanos() {
    return stallEveryNanos;
  }

  public boolean slows(Access a) {
    return accesses.contains(a);
  }

  /** Whether packet reads are slowed (which needs the DataNode's read path intercepted). */
  public boolean reads() {
    return slows(Access.READS);
  }

  public long seed() {
    return seed;
  }

  DiskModel newModel(long nowNanos) {
    return stalls() ? new Stalls(stallEveryNanos, serviceNanos, nowNanos)
        : new DiskQueue(serviceNanos, utilisation, seed, nowNanos);
  }

  @Override
  public String toString() {
    String on = accesses.toString().toLowerCase(Locale.ROOT);
    return stalls()
        ? "DiskFault{stallMs=" + serviceNanos / 1_000_000 + ", everyMs="
            + stallEveryNanos / 1_000_000 + ", on=" + on + '}'
        : "DiskFault{serviceUs=" + serviceNanos / 1000 + ", utilisation=" + utilisation
            + ", on=" + on + '}';
  }
}
