package io.curtail.sim;

/**
 * Servers taking requests first come, first served: a disk, one direction of a network interface,
 * or a host's cores. With one server, a request that arrives at {@code a} and needs {@code s} ns
 * of service leaves at {@code max(a, previous departure) + s}, the FIFO identity, so the queue
 * needs no events of its own: the caller reserves the request's slot when it arrives and is told
 * when it leaves. With several, a request takes the server free first.
 *
 * <p>A server may be stopped for a while ({@link #stallUntil}): a request that would start then
 * starts when it resumes. And it may run slower in spells ({@link #slowIn}), as a machine's cores
 * do while other processes take most of them: work done in a spell advances at a fraction of
 * the usual speed, so a request under way stretches by as much of it as falls in the spell.
 */
public final class Fifo {
  private final long[] freeAt;
  private long busyNanos;
  private long served;
  /** Spells of slowness, in order and apart: [start, end) and the speed within them. */
  private long[] spellStart = new long[0];
  private long[] spellEnd = new long[0];
  private double spellSpeed = 1;
  /** The first spell not yet over at the last request's start (requests come nearly in order). */
  private int spellAt;

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
    freeAt[k] = spellStart.length == 0 ? start + serviceNanos : finish(start, serviceNanos);
    busyNanos += serviceNanos;
    served++;
    return freeAt[k];
  }

  /**
   * Runs at {@code speed} (in (0, 1]) of the usual in the spells [{@code starts[i]},
   * {@code ends[i]}), which are in order and do not overlap.
   */
  public void slowIn(long[] starts, long[] ends, double speed) {
    if (starts.length != ends.length || !(speed > 0 && speed <= 1)) {
      throw new IllegalArgumentException("spells need as many ends as starts and a speed in"
          + " (0, 1]; got " + starts.length + " starts, " + ends.length + " ends, speed " + speed);
    }
    for (int i = 0; i < starts.length; i++) {
      if (ends[i] < starts[i] || (i > 0 && starts[i] < ends[i - 1])) {
        throw new IllegalArgumentException("spells must be in order and apart; spell " + i
            + " is [" + starts[i] + ", " + ends[i] + ")");
      }
    }
    spellStart = starts.clone();
    spellEnd = ends.clone();
    spellSpeed = speed;
    spellAt = 0;
  }

  /** When {@code work} ns of service begun at {@code start} end, through the spells. */
  private long finish(long start, long work) {
    int i = spellAt;
    while (i > 0 && spellEnd[i - 1] > start) {
      i--; // a request that starts before the last one's start (with several servers)
    }
    while (i < spellStart.length && spellEnd[i] <= start) {
      i++;
    }
    spellAt = i;
    long t = start;
    double left = work;
    while (true) {
      if (i < spellStart.length && t >= spellStart[i]) { // in spell i
        double canDo = (spellEnd[i] - t) * spellSpeed;
        if (left <= canDo) {
          return t + (long) Math.ceil(left / spellSpeed);
        }
        left -= canDo;
        t = spellEnd[i++];
      } else {
        long next = i < spellStart.length ? spellStart[i] : Long.MAX_VALUE;
        if (t + left <= next) {
          return t + (long) Math.ceil(left);
        }
        left -= next - t;
        t = next;
      }
    }
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
