package io.curtail.sim;

/**
 * Service times of a healthy DataNode and of the network: each access costs an overhead plus its
 * bytes at a rate. The defaults are the calibration's (see curtail-sim/RESULTS.md,
 * <i>Calibration</i>): a 64 KiB packet written through a loopback pipeline takes about a
 * millisecond on the benchmark's machine, and the rest was fitted on the healthy mode
 * ({@code oracle}) of the benchmark's runs.
 *
 * @param diskBytesPerSec disk transfer rate
 * @param diskOpNanos disk overhead per access (a seek, a system call)
 * @param netBytesPerSec one direction of a DataNode's network interface
 * @param netOpNanos per-packet overhead of the interface (and the DataNode's thread)
 * @param hopNanos one-way latency between two hosts
 * @param clientPacketNanos what a client spends on a packet (checksums, copies)
 * @param jitter the random share of each healthy service time, in [0, 1]: a service takes
 *     {@code (1 - jitter) + jitter × X} times its mean, X exponential of mean 1
 * @param reportNanos mean time a DataNode takes to tell the NameNode it finished a block (its
 *     incremental block report), exponentially distributed; a close that comes sooner waits
 * @param writeCost how many times a read's costs a DataNode's receiving and writing of a packet
 *     cost (a read's disk and wire, or a write's wire and disk, are otherwise alike)
 */
public record Hardware(long diskBytesPerSec, long diskOpNanos, long netBytesPerSec,
    long netOpNanos, long hopNanos, long clientPacketNanos, double jitter, long reportNanos,
    double writeCost) {

  public Hardware {
    if (diskBytesPerSec <= 0 || netBytesPerSec <= 0 || diskOpNanos < 0 || netOpNanos < 0
        || hopNanos < 0 || clientPacketNanos < 0 || !(jitter >= 0 && jitter <= 1)
        || reportNanos < 0 || !(writeCost > 0)) {
      throw new IllegalArgumentException("rates and the write cost must be > 0 and times >= 0;"
          + " got " + this);
    }
  }

  /** Writes cost what reads do. */
  public Hardware(long diskBytesPerSec, long diskOpNanos, long netBytesPerSec, long netOpNanos,
      long hopNanos, long clientPacketNanos, double jitter, long reportNanos) {
    this(diskBytesPerSec, diskOpNanos, netBytesPerSec, netOpNanos, hopNanos, clientPacketNanos,
        jitter, reportNanos, 1.0);
  }

  /**
   * A datacentre: disks at 200 MB/s with a 0.1 ms overhead, 10 Gb/s links, 50 us a hop, half
   * of each service time random; block reports in time for every close (so that stock's 400 ms
   * close retry, which has nothing to do with slow DataNodes, does not blur what does).
   */
  public static Hardware datacentre() {
    return new Hardware(200_000_000L, 100_000L, 1_250_000_000L, 20_000L, 50_000L, 50_000L, 0.5,
        0);
  }

  /** The same hardware with every healthy service time {@code f} times as long. */
  public Hardware scaled(double f) {
    return new Hardware((long) (diskBytesPerSec / f), (long) (diskOpNanos * f),
        (long) (netBytesPerSec / f), (long) (netOpNanos * f), hopNanos,
        (long) (clientPacketNanos * f), jitter, reportNanos, writeCost);
  }

  /** The same hardware with the client's cost of a packet {@code f} times as long. */
  public Hardware withClientCost(double f) {
    return new Hardware(diskBytesPerSec, diskOpNanos, netBytesPerSec, netOpNanos, hopNanos,
        (long) (clientPacketNanos * f), jitter, reportNanos, writeCost);
  }

  public Hardware withReportNanos(long nanos) {
    return new Hardware(diskBytesPerSec, diskOpNanos, netBytesPerSec, netOpNanos, hopNanos,
        clientPacketNanos, jitter, nanos, writeCost);
  }

  public Hardware withWriteCost(double f) {
    return new Hardware(diskBytesPerSec, diskOpNanos, netBytesPerSec, netOpNanos, hopNanos,
        clientPacketNanos, jitter, reportNanos, f);
  }

  /** {@code mean} with this hardware's jitter, {@code u} uniform in (0, 1]. */
  long jittered(long mean, double u) {
    return jitter == 0 ? mean : (long) (mean * ((1 - jitter) - jitter * Math.log(u)));
  }

  public long diskNanos(long bytes) {
    return diskOpNanos + bytes * 1_000_000_000L / diskBytesPerSec;
  }

  public long netNanos(long bytes) {
    return netOpNanos + bytes * 1_000_000_000L / netBytesPerSec;
  }
}
