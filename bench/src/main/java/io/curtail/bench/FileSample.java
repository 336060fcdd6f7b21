package io.curtail.bench;

/** One whole-file operation as measured: when it started, how long it took, how big it was. */
public final class FileSample {
  final String scenario;
  final String mode;
  final int round;
  final int client;
  final int file;
  final String op;
  /**
   * Start, in nanoseconds since the benchmark started: in a paced workload, when the file was
   * due, which its latency counts from.
   */
  final long startNanos;
  final long latencyNanos;
  final long bytes;

  FileSample(String scenario, String mode, int round, int client, int file, String op,
      long startNanos, long latencyNanos, long bytes) {
    this.scenario = scenario;
    this.mode = mode;
    this.round = round;
    this.client = client;
    this.file = file;
    this.op = op;
    this.startNanos = startNanos;
    this.latencyNanos = latencyNanos;
    this.bytes = bytes;
  }

  public long latencyNanos() {
    return latencyNanos;
  }

  public long startNanos() {
    return startNanos;
  }
}
