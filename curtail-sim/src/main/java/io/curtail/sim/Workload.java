package io.curtail.sim;

/**
 * What each client does, as the benchmark's workloads: whole files read sequentially or written
 * (ExtendedCP), and positional reads, mixed by weight; back to back (a closed loop) or one due
 * every {@code paceNanos} (an open loop, the benchmark's {@code --pace}). A file is one block.
 *
 * @param reads weight of sequential reads of a whole file
 * @param preads weight of positional reads of {@code preadBytes} at a random packet boundary
 * @param writes weight of writes of a whole new file
 * @param fileBytes bytes per file
 * @param preadBytes bytes per positional read
 * @param blockBytes the block size (what fail-fast counts packets left in)
 * @param paceNanos 0 for a closed loop
 * @param opsPerClient operations each client does at most (0: until the run ends)
 * @param preadsPerOp positional reads one after another on one stream per operation, each
 *     timed as part of the operation: 1 at scale; the benchmark's pread scenarios read a whole
 *     4 MiB file in four of 1 MiB and time the file
 */
public record Workload(int reads, int preads, int writes, long fileBytes, long preadBytes,
    long blockBytes, long paceNanos, int opsPerClient, int preadsPerOp) {
  static final long MIB = 1L << 20;

  public Workload {
    if (reads < 0 || preads < 0 || writes < 0 || reads + preads + writes == 0 || fileBytes < 1
        || preadBytes < 1 || preadBytes > fileBytes || fileBytes > blockBytes || paceNanos < 0
        || opsPerClient < 0 || preadsPerOp < 1 || preadsPerOp * preadBytes > fileBytes) {
      throw new IllegalArgumentException("a workload needs weights >= 0 not all 0, 0 < pread"
          + " bytes <= file bytes <= block bytes, pace and ops >= 0, and 1 <= preads per op"
          + " fitting in a file; got " + this);
    }
  }

  /** One positional read per operation. */
  public Workload(int reads, int preads, int writes, long fileBytes, long preadBytes,
      long blockBytes, long paceNanos, int opsPerClient) {
    this(reads, preads, writes, fileBytes, preadBytes, blockBytes, paceNanos, opsPerClient, 1);
  }

  /** The benchmark's read scenarios: 4 MiB files read whole. */
  public static Workload reads(int ops) {
    return new Workload(1, 0, 0, 4 * MIB, MIB, 16 * MIB, 0, ops);
  }

  /** The benchmark's pread scenarios: 4 MiB files read whole in positional reads of 1 MiB. */
  public static Workload preadFiles(int ops) {
    return new Workload(0, 1, 0, 4 * MIB, MIB, 16 * MIB, 0, ops, 4);
  }

  /** The benchmark's write scenarios: 4 MiB files written whole into 16 MiB blocks. */
  public static Workload writes(int ops) {
    return new Workload(0, 0, 1, 4 * MIB, MIB, 16 * MIB, 0, ops);
  }

  /** Reads, preads and writes alike, one every {@code paceNanos}: the cluster at scale. */
  public static Workload mixed(long paceNanos) {
    return new Workload(2, 1, 1, 4 * MIB, MIB, 16 * MIB, paceNanos, 0);
  }

  Metrics.Op pick(int r) {
    int total = reads + preads + writes;
    int x = Math.floorMod(r, total);
    return x < reads ? Metrics.Op.READ : x < reads + preads ? Metrics.Op.PREAD : Metrics.Op.WRITE;
  }
}
