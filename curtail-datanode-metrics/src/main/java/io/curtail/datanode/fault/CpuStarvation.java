package io.curtail.datanode.fault;

import java.time.Duration;

/**
 * A DataNode starved of CPU, as by a noisy neighbour, a cgroup's quota or a host swapping: every
 * step of its packet handling (receiving a packet of a write, sending its ack upstream, sending a
 * packet to a reader) waits a scheduling delay before it runs, of {@code mean} on average and
 * spread uniformly over {@code mean × (1 ± jitter)}.
 *
 * <p>What it does not model: a real starved process slows in proportion to the work (checksums
 * of a large packet take longer than a small one's), its threads compete for the same share (here
 * each waits on its own), and everything else it does slows too: heartbeats, block reports,
 * garbage collection. On Hadoop 3.3, whose receiver has no hook after a packet's write, only acks
 * and reads are delayed. Pure: the random draw comes in as a number. Immutable.
 */
public final class CpuStarvation {
  private final long meanNanos;
  private final double jitter;

  private CpuStarvation(long meanNanos, double jitter) {
    if (meanNanos <= 0) {
      throw new IllegalArgumentException("a starved CPU's mean delay must be > 0, was "
          + meanNanos + "ns");
    }
    if (!(jitter >= 0 && jitter <= 1)) {
      throw new IllegalArgumentException("a starved CPU's jitter must be in [0, 1], was "
          + jitter);
    }
    this.meanNanos = meanNanos;
    this.jitter = jitter;
  }

  /** Each packet-handling step waits {@code mean × (1 ± jitter)}, uniformly. */
  public static CpuStarvation of(Duration mean, double jitter) {
    return new CpuStarvation(mean.toNanos(), jitter);
  }

  public long meanNanos() {
    return meanNanos;
  }

  public double jitter() {
    return jitter;
  }

  /** The delay of one step, for a uniform draw {@code u} in [0, 1). */
  public long delayNanos(double u) {
    return Math.round(meanNanos * (1 - jitter + 2 * jitter * u));
  }

  @Override
  public String toString() {
    return "CpuStarvation{meanUs=" + meanNanos / 1000 + ", jitter=" + jitter + '}';
  }
}
