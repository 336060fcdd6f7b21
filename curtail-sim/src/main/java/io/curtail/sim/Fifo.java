package io.curtail.sim;

/**
 * Servers taking requests first come, first served: a disk, one direction of a network interface,
 * or a host's cores. With one server, a request that arrives at {@code a} and needs {@code s} ns
 * of service leaves at {@code max(a, previous departure) + s}, the FIFO identity, so the queue
 * needs no events of its own: the caller reserves the request's slot when it arrives and is told
 * when it leaves. With several, a request takes the server free first.
 *
 * <p>A server may be stopped for a while ({@link #stallUntil}): a request that would start then
 * starts when it resumes.
 */
public final class Fifo {
  private final long[] freeAt;
  private long busyNanos;
  private long served;

  /** One server. */
  public Fifo() {
    this(1);
  }

  public Fifo(int servers) {
    if (servers < 1) {
      throw new IllegalArgumentException("a queue needs at least one server, got " + servers);
    }
    freeAt = new long[servers];
    java.util.Arrays.fill(freeAt, Long.MIN_VALUE);
  }

  /** Reserves {@code serviceNanos} for a request arriving at {@code arrive}; returns its departure. */
  public long serve(long arrive, long serviceNanos) {
    if (serviceNanos < 0) {
      throw new IllegalArgumentException("a service time must be >= 0 ns, was " + serviceNanos);
    }
    int k = 0;
    for (int i = 1; i < freeAt.length; i++) {
      if (freeAt[i] < freeAt[k]) {
        k = i;
      }
    }
    long start = Math.max(arrive, freeAt[k]);
    freeAt[k] = start + serviceNanos;
    busyNanos += serviceNanos;
    served++;
    return freeAt[k];
  }

  /** Holds every request not yet started until {@code until}: a stall. */
  public void stallUntil(long until) {
    for (int i = 0; i < freeAt.length; i++) {
      freeAt[i] = Math.max(freeAt[i], until);
    }
  }

  /** How long a request arriving at {@code now} would wait before its service starts. */
  public long backlog(long now) {
    long first = freeAt[0];
    for (long f : freeAt) {
      first = Math.min(first, f);
    }
    return Math.max(0, first - now);
  }

  /** Service time given so far, for utilisation. */
  public long busyNanos() {
    return busyNanos;
  }

  public long served() {
    return served;
  }
}
