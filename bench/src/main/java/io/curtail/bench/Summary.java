package io.curtail.bench;

import java.util.ArrayList;
import java.util.List;

/** One mode's figures in one scenario, over all its rounds. */
public final class Summary {
  final String scenario;
  final String mode;
  final int files;
  final double p50Ms;
  final double p90Ms;
  final double p99Ms;
  final double p999Ms;
  final double maxMs;
  final double mibPerSec;
  /**
   * CPU milliseconds the process spent per MiB of files moved: with an embedded cluster, what the
   * whole HDFS stack costs, a steadier measure of overhead than throughput on a busy machine.
   */
  final double cpuMsPerMib;
  final long hedgesTried;
  final long hedgesWon;
  final long replacements;
  final long blocksWritten;
  final long bytes;
  final long bytesVerified;
  final long backgroundBytes;
  /** This mode's p99 over stock's and over oracle's; NaN where that mode did not run. */
  double p99VsStock = Double.NaN;
  double p99VsOracle = Double.NaN;

  private Summary(String scenario, String mode, List<Batch> batches) {
    this.scenario = scenario;
    this.mode = mode;
    List<Long> latencies = new ArrayList<>();
    long wall = 0;
    long cpu = 0;
    long bytes = 0;
    long verified = 0;
    long tried = 0;
    long won = 0;
    long replaced = 0;
    long blocks = 0;
    long background = 0;
    for (Batch b : batches) {
      for (FileSample f : b.samples) {
        latencies.add(f.latencyNanos);
        bytes += f.bytes;
      }
      wall += b.wallNanos;
      cpu += b.cpuNanos;
      verified += b.bytesVerified;
      tried += b.hedgesTried;
      won += b.hedgesWon;
      replaced += b.replacements;
      blocks += b.blocksWritten;
      background += b.backgroundBytes;
    }
    latencies.sort(null);
    this.files = latencies.size();
    this.p50Ms = percentileMs(latencies, 0.50);
    this.p90Ms = percentileMs(latencies, 0.90);
    this.p99Ms = percentileMs(latencies, 0.99);
    this.p999Ms = percentileMs(latencies, 0.999);
    this.maxMs = percentileMs(latencies, 1.0);
    this.mibPerSec = wall == 0 ? 0 : bytes / (1024.0 * 1024) / (wall / 1e9);
    this.cpuMsPerMib = bytes == 0 ? Double.NaN : cpu / 1e6 / (bytes / (1024.0 * 1024));
    this.bytes = bytes;
    this.bytesVerified = verified;
    this.hedgesTried = tried;
    this.hedgesWon = won;
    this.replacements = replaced;
    this.blocksWritten = blocks;
    this.backgroundBytes = background;
  }

  /** Replacements as "replaced/blocks" where the blocks are known, else the count alone. */
  String replacementsPerBlocks() {
    return blocksWritten > 0 ? replacements + "/" + blocksWritten : Long.toString(replacements);
  }

  static Summary of(String scenario, String mode, List<Batch> batches) {
    return new Summary(scenario, mode, batches);
  }

  /** Nearest rank: the smallest latency with at least {@code p} of all at or below it. */
  public static double percentileMs(List<Long> sorted, double p) {
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(p * sorted.size());
    return sorted.get(Math.max(0, rank - 1)) / 1e6;
  }

  /** Fills the p99 ratios from the stock and oracle summaries of the same scenario. */
  static void relate(List<Summary> scenario) {
    Summary stock = find(scenario, Mode.STOCK.label());
    Summary oracle = find(scenario, Mode.ORACLE.label());
    for (Summary s : scenario) {
      s.p99VsStock = stock == null ? Double.NaN : s.p99Ms / stock.p99Ms;
      s.p99VsOracle = oracle == null ? Double.NaN : s.p99Ms / oracle.p99Ms;
    }
  }

  private static Summary find(List<Summary> list, String mode) {
    for (Summary s : list) {
      if (s.mode.equals(mode)) {
        return s;
      }
    }
    return null;
  }

  public String mode() {
    return mode;
  }

  public double p99Ms() {
    return p99Ms;
  }

  public long bytes() {
    return bytes;
  }

  public long bytesVerified() {
    return bytesVerified;
  }

  public long hedgesTried() {
    return hedgesTried;
  }
}
