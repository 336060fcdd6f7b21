package io.curtail.datanode.fault;

import java.util.SplittableRandom;

/**
 * A single FIFO "disk" with a fixed service time per request, in virtual time.
 *
 * <p>{@link #admit} tells a request arriving at {@code now} when it completes: after every request
 * admitted before it, plus its own service time. Callers then wait until that instant, so
 * concurrent writers through one DataNode queue behind each other as they would on one spindle.
 * Optional background load arrives as a Poisson process at {@code utilisation} of the disk's
 * capacity and is generated lazily, request by request, with no thread of its own; the queueing
 * delay foreground requests see then grows as an M/D/1 queue predicts, ρS/(2(1−ρ)) on average
 * (see the queueing notes in {@code shared/papers/000}).
 *
 * <p>Pure: time comes in as numbers and randomness from a seed, so tests step time instead of
 * sleeping. Thread-safe; the critical section is a few arithmetic operations.
 */
public final class DiskQueue implements DiskModel {
  /** Background arrivals older than this many service times cannot affect the queue now. */
  private static final long HORIZON_SERVICES = 10_000;

  private final long serviceNanos;
  private final double meanGapNanos;
  private final SplittableRandom random;
  private long busyUntilNanos;
  private long nextBackgroundNanos;

  /**
   * @param serviceNanos time the disk spends on each request (> 0)
   * @param utilisation fraction of the disk's capacity taken by background load, in [0, 1)
   * @param seed seed of the background arrivals
   * @param nowNanos the current time, when the disk starts idle
   */
  public DiskQueue(long serviceNanos, double utilisation, long seed, long nowNanos) {
    if (serviceNanos <= 0) {
      throw new IllegalArgumentException("serviceNanos must be > 0, was " + serviceNanos);
    }
    if (!(utilisation >= 0 && utilisation < 1)) {
      throw new IllegalArgumentException("utilisation must be in [0, 1), was " + utilisation);
    }
    this.serviceNanos = serviceNanos;
    this.meanGapNanos = utilisation == 0 ? Double.POSITIVE_INFINITY : serviceNanos / utilisation;
    this.random = new SplittableRandom(seed);
    this.busyUntilNanos = nowNanos;
    this.nextBackgroundNanos = utilisation == 0 ? 0 : nowNanos + gap();
  }

  /** Admits a request arriving at {@code nowNanos}; returns when it completes. */
  @Override
  public synchronized long admit(long nowNanos) {
    if (!Double.isInfinite(meanGapNanos)) {
      admitBackgroundUntil(nowNanos);
    }
    busyUntilNanos = Math.max(busyUntilNanos, nowNanos) + serviceNanos;
    return busyUntilNanos;
  }

  private void admitBackgroundUntil(long nowNanos) {
    long horizon = nowNanos - HORIZON_SERVICES * serviceNanos;
    if (nextBackgroundNanos < horizon) {
      // Long idle: older arrivals were served long ago. Poisson arrivals are memoryless, so
      // restarting the process at the horizon is exact in distribution and bounds the work here.
      busyUntilNanos = Math.max(busyUntilNanos, horizon);
      nextBackgroundNanos = horizon + gap();
    }
    while (nextBackgroundNanos <= nowNanos) {
      busyUntilNanos = Math.max(busyUntilNanos, nextBackgroundNanos) + serviceNanos;
      nextBackgroundNanos += gap();
    }
  }

  public long serviceNanos() {
    return serviceNanos;
  }

  /** An exponentially distributed gap between background arrivals. */
  private long gap() {
    return (long) Math.ceil(-Math.log(1 - random.nextDouble()) * meanGapNanos);
  }
}
