package io.curtail.bench;

import io.curtail.tools.blame.Blame;
import java.util.List;

/** What one mode did in one round of one scenario. */
final class Batch {
  final List<FileSample> samples;
  /** How long it ran; interleaved with other modes, its files' time per client. */
  final long wallNanos;
  /**
   * CPU time this process spent meanwhile: the clients', and with an embedded cluster the
   * NameNode's and DataNodes' too; -1 for a batch interleaved with other modes.
   */
  final long cpuNanos;
  final long bytesWritten;
  final long bytesVerified;
  final long hedgesTried;
  final long hedgesWon;
  final long replacements;
  /** Blocks Curtail's writer allocated (0 for stock modes, which do not count them). */
  final long blocksWritten;
  final long backgroundBytes;
  /** Times of the small operations files are made of (positional reads, hflushes), if any. */
  final List<Long> opNanos;
  /**
   * Bytes the process allocated meanwhile, as CPU time counts: clients and cluster alike; -1 for
   * a batch interleaved with other modes.
   */
  final long allocatedBytes;
  /** Bytes the batch's reads took from block files (short-circuit); -1 if unknown. */
  final long shortCircuitBytes;
  /** Bytes the DataNodes served over TCP meanwhile, background load included; -1 if unknown. */
  final long servedBytes;
  /**
   * Bytes Curtail's hedges received while racing the reads they were to overtake (what hedging
   * cost the DataNodes); 0 where nothing hedged, -1 where unknown (stock's hedges).
   */
  final long hedgedBytes;
  /**
   * Its Curtail client's decisions labelled against the faults injected meanwhile; null for a
   * stock mode, or one that wrote its statistics elsewhere ({@code curtail-stats}).
   */
  Blame blame;

  Batch(List<FileSample> samples, long wallNanos, long cpuNanos, long bytesWritten,
      long bytesVerified, long hedgesTried, long hedgesWon, long replacements, long blocksWritten,
      long backgroundBytes, List<Long> opNanos, long allocatedBytes) {
    this(samples, wallNanos, cpuNanos, bytesWritten, bytesVerified, hedgesTried, hedgesWon,
        replacements, blocksWritten, backgroundBytes, opNanos, allocatedBytes, -1, -1,
        hedgesTried == 0 ? 0 : -1);
  }

  Batch(List<FileSample> samples, long wallNanos, long cpuNanos, long bytesWritten,
      long bytesVerified, long hedgesTried, long hedgesWon, long replacements, long blocksWritten,
      long backgroundBytes, List<Long> opNanos, long allocatedBytes, long shortCircuitBytes,
      long servedBytes, long hedgedBytes) {
    this.hedgedBytes = hedgedBytes;
    this.shortCircuitBytes = shortCircuitBytes;
    this.servedBytes = servedBytes;
    this.samples = samples;
    this.wallNanos = wallNanos;
    this.cpuNanos = cpuNanos;
    this.bytesWritten = bytesWritten;
    this.bytesVerified = bytesVerified;
    this.hedgesTried = hedgesTried;
    this.hedgesWon = hedgesWon;
    this.replacements = replacements;
    this.blocksWritten = blocksWritten;
    this.backgroundBytes = backgroundBytes;
    this.opNanos = opNanos;
    this.allocatedBytes = allocatedBytes;
  }
}
