package io.curtail.datanode.fault;

import java.time.Duration;

/**
 * A schedule that turns a DataNode's injected faults on and off: slow for {@code slow}, healthy
 * for {@code healthy}, again, from the instant it starts (slow first). A fault that comes and goes
 * is what a detector that remembers too long, or too little, gets wrong. Pure and immutable.
 */
public final class Flapping {
  private final long slowNanos;
  private final long healthyNanos;

  private Flapping(long slowNanos, long healthyNanos) {
    if (slowNanos <= 0 || healthyNanos <= 0) {
      throw new IllegalArgumentException("flapping needs slow and healthy spells > 0, were "
          + slowNanos / 1_000_000 + " ms and " + healthyNanos / 1_000_000 + " ms");
    }
    this.slowNanos = slowNanos;
    this.healthyNanos = healthyNanos;
  }

  public static Flapping of(Duration slow, Duration healthy) {
    return new Flapping(slow.toNanos(), healthy.toNanos());
  }

  public long slowNanos() {
    return slowNanos;
  }

  public long healthyNanos() {
    return healthyNanos;
  }

  /** Whether the faults act at {@code nowNanos}, for a schedule started at {@code startNanos}. */
  public boolean slowAt(long startNanos, long nowNanos) {
    return Math.floorMod(nowNanos - startNanos, slowNanos + healthyNanos) < slowNanos;
  }

  @Override
  public String toString() {
    return "Flapping{slowMs=" + slowNanos / 1_000_000 + ", healthyMs=" + healthyNanos / 1_000_000
        + '}';
  }
}
