package io.curtail.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** What one run measured: per-operation latencies by kind, and the load each mode added. */
public final class Metrics {
  public enum Op { READ, PREAD, WRITE }

  private final long[][] latencies = new long[Op.values().length][];
  private final int[] counts = new int[Op.values().length];
  long packets;
  long bytesRead;
  long bytesWritten;
  long hedgesTried;
  long hedgesWon;
  long hedgesDenied;
  long hedgedBytes;
  long replacements;
  long rebuildsAborted;
  long rebuildBytes;
  long blocksWritten;
  long replicaSwitches;
  /** Times a close asked the NameNode again, its last block's replicas not yet reported. */
  long closeRetries;
  /** Fail-fast's decisions by reason: why pipelines were kept or replaced. */
  final java.util.EnumMap<io.curtail.client.policy.FailFastDecision.Reason, Long> decisions =
      new java.util.EnumMap<>(io.curtail.client.policy.FailFastDecision.Reason.class);

  public java.util.Map<io.curtail.client.policy.FailFastDecision.Reason, Long> decisions() {
    return decisions;
  }

  /** Only ops that started at or after this are recorded (a warm-up before). */
  long recordFrom;

  Metrics() {
    for (int i = 0; i < latencies.length; i++) {
      latencies[i] = new long[1024];
    }
  }

  /**
   * Each recorded operation, when asked for ({@link #keepFiles}): its kind, client, start and
   * latency, for a per-file look at a run (the calibration's {@code --samples}); else null.
   */
  List<File> files;

  /** One recorded operation: {@code client}'s {@code seq}-th, started at {@code startNanos}. */
  record File(Op op, int client, int seq, long startNanos, long latencyNanos) {
  }

  /** Keeps every recorded operation as well ({@link #files}). */
  Metrics keepFiles() {
    files = new ArrayList<>();
    return this;
  }

  void record(Op op, long startNanos, long latencyNanos) {
    record(op, -1, -1, startNanos, latencyNanos);
  }

  void record(Op op, int client, int seq, long startNanos, long latencyNanos) {
    if (startNanos < recordFrom) {
      return;
    }
    if (files != null) {
      files.add(new File(op, client, seq, startNanos, latencyNanos));
    }
    int k = op.ordinal();
    if (counts[k] == latencies[k].length) {
      latencies[k] = Arrays.copyOf(latencies[k], counts[k] * 2);
    }
    latencies[k][counts[k]++] = latencyNanos;
  }

  public int count(Op op) {
    return counts[op.ordinal()];
  }

  /** The {@code q} quantile (nearest rank) of {@code op}'s latencies in ms; NaN if none. */
  public double quantileMs(Op op, double q) {
    int n = counts[op.ordinal()];
    if (n == 0) {
      return Double.NaN;
    }
    long[] s = Arrays.copyOf(latencies[op.ordinal()], n);
    Arrays.sort(s);
    int rank = (int) Math.ceil(q * n);
    return s[Math.max(0, Math.min(n - 1, rank - 1))] / 1e6;
  }

  /** Sorted latencies of {@code op} in ms, for plots. */
  public double[] sortedMs(Op op) {
    int n = counts[op.ordinal()];
    long[] s = Arrays.copyOf(latencies[op.ordinal()], n);
    Arrays.sort(s);
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = s[i] / 1e6;
    }
    return out;
  }

  public long packets() {
    return packets;
  }

  /** Hedged bytes as a share of bytes read. */
  public double hedgedShare() {
    return bytesRead == 0 ? 0 : (double) hedgedBytes / bytesRead;
  }

  /** Rebuild bytes as a share of bytes written. */
  public double rebuildShare() {
    return bytesWritten == 0 ? 0 : (double) rebuildBytes / bytesWritten;
  }

  public double replacementsPerBlock() {
    return blocksWritten == 0 ? 0 : (double) replacements / blocksWritten;
  }

  public long rebuildsAborted() {
    return rebuildsAborted;
  }

  public long hedgesTried() {
    return hedgesTried;
  }

  public long hedgesWon() {
    return hedgesWon;
  }

  public long closeRetries() {
    return closeRetries;
  }

  public long hedgesDenied() {
    return hedgesDenied;
  }
}
