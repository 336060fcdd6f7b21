package io.curtail.bench;

import io.curtail.tools.stats.Latencies;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One mode's figures in one scenario, over all its rounds, and the {@link Column}s every
 * rendering of them (the console table, {@code report.md}, {@code results.json},
 * {@code summary.csv}) takes its names, order and values from.
 */
public final class Summary {
  /** How a column's value is written. */
  enum Kind { TEXT, COUNT, DECIMAL, PRECISE, RATIO }

  /** One figure: its machine name (JSON, CSV), its title and width in tables, and its value. */
  enum Column {
    MODE("mode", "mode", -20, Kind.TEXT, s -> s.mode), // fits curtail-best-cluster
    FILES("files", "files", 6, Kind.COUNT, s -> s.files),
    P50("p50_ms", "p50 ms", 9, Kind.DECIMAL, s -> s.p50Ms),
    P90("p90_ms", "p90 ms", 9, Kind.DECIMAL, s -> s.p90Ms),
    P99("p99_ms", "p99 ms", 9, Kind.DECIMAL, s -> s.p99Ms),
    P999("p999_ms", "p99.9 ms", 9, Kind.DECIMAL, s -> s.p999Ms),
    MAX("max_ms", "max ms", 9, Kind.DECIMAL, s -> s.maxMs),
    THROUGHPUT("throughput_mib_s", "MiB/s", 8, Kind.DECIMAL, s -> s.mibPerSec),
    CPU("cpu_ms_per_mib", "cpu/MiB", 8, Kind.DECIMAL, s -> s.cpuMsPerMib),
    ALLOC("alloc_kib_per_mib", "KiB/MiB", 8, Kind.COUNT, s -> s.allocKibPerMib),
    OP_P50("op_p50_ms", "op p50", 7, Kind.PRECISE, s -> s.opP50Ms),
    OP_P99("op_p99_ms", "op p99", 7, Kind.PRECISE, s -> s.opP99Ms),
    HEDGES("hedges_tried", "hedges", 7, Kind.COUNT, s -> s.hedgesTried),
    WON("hedges_won", "won", 5, Kind.COUNT, s -> s.hedgesWon),
    HEDGES_PER_READ("hedges_per_read", "hdg/rd", 6, Kind.PRECISE, s -> s.hedgesPerRead()),
    HEDGED_BYTES("hedged_bytes", null, 0, Kind.COUNT, s -> s.hedgedBytes),
    HEDGED_SHARE("hedged_bytes_pct", "hdg B%", 7, Kind.PRECISE, Summary::hedgedPercent),
    REPLACEMENTS("replacements", null, 0, Kind.COUNT, s -> s.replacements),
    BLOCKS("blocks_written", null, 0, Kind.COUNT, s -> s.blocksWritten),
    REPLACED_PER_BLOCK(null, "repl/blk", 8, Kind.TEXT, Summary::replacementsPerBlocks),
    BYTES("bytes", null, 0, Kind.COUNT, s -> s.bytes),
    BYTES_VERIFIED("bytes_verified", null, 0, Kind.COUNT, s -> s.bytesVerified),
    VERIFIED_MIB(null, "verified", 11, Kind.TEXT,
        s -> String.format(Locale.ROOT, "%.0f MiB", s.bytesVerified / (1024.0 * 1024))),
    ALL_OK(null, "all ok", 7, Kind.TEXT, s -> s.bytesVerified == s.bytes ? "yes" : "NO"),
    BACKGROUND("background_bytes", null, 0, Kind.COUNT, s -> s.backgroundBytes),
    SHORT_CIRCUIT("short_circuit_mib", "sc MiB", 7, Kind.COUNT, s -> mib(s.shortCircuitBytes)),
    SERVED("datanode_served_mib", "dn MiB", 7, Kind.COUNT, s -> mib(s.servedBytes)),
    VS_STOCK("p99_vs_stock", "p99/stock", 10, Kind.RATIO, s -> s.p99VsStock),
    VS_STOCK_BEST("p99_vs_stock_best", "p99/best", 9, Kind.RATIO, s -> s.p99VsStockBest),
    VS_ORACLE("p99_vs_oracle", "p99/oracle", 11, Kind.RATIO, s -> s.p99VsOracle);

    /** Name in JSON and CSV; null for a column only tables show. */
    final String key;
    /** Title in tables; null for a column only JSON and CSV carry. */
    final String title;
    /** Width in the console table; negative: left-aligned. */
    final int width;
    final Kind kind;
    private final Function<Summary, Object> value;

    Column(String key, String title, int width, Kind kind, Function<Summary, Object> value) {
      this.key = key;
      this.title = title;
      this.width = width;
      this.kind = kind;
      this.value = value;
    }

    Object of(Summary s) {
      return value.apply(s);
    }

    /** The value as tables show it: decimals to a tenth, ratios as "0.12x", NaN as "-". */
    String text(Summary s) {
      Object v = of(s);
      switch (kind) {
        case DECIMAL:
          return Double.isNaN((Double) v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
        case PRECISE:
          return Double.isNaN((Double) v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
        case RATIO:
          return Double.isNaN((Double) v) ? "-" : String.format(Locale.ROOT, "%.2fx", v);
        default: // a count, or a whole number that may be unknown (NaN)
          return !(v instanceof Double) ? String.valueOf(v)
              : Double.isNaN((Double) v) ? "-" : String.format(Locale.ROOT, "%.0f", v);
      }
    }

    /** The value as JSON and CSV carry it: a number to a thousandth, NaN as null. */
    Object number(Summary s) {
      Object v = of(s);
      if (v instanceof Double) {
        double d = (Double) v;
        return Double.isNaN(d) || Double.isInfinite(d) ? null : Math.round(d * 1000) / 1000.0;
      }
      return v;
    }

    /** The columns tables show, in order. */
    static List<Column> table() {
      return where(c -> c.title != null);
    }

    /** The columns JSON and CSV carry, in order. */
    static List<Column> data() {
      return where(c -> c.key != null);
    }

    private static List<Column> where(Predicate<Column> wanted) {
      List<Column> out = new ArrayList<>();
      for (Column c : values()) {
        if (wanted.test(c)) {
          out.add(c);
        }
      }
      return Collections.unmodifiableList(out);
    }
  }

  final String scenario;
  final String mode;
  final int files;
  /** Files read (rather than written). */
  final int filesRead;
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
  /** KiB the process allocated per MiB of files moved, as CPU time counts (whole). */
  final double allocKibPerMib;
  /**
   * Per-operation latency where files are made of many small operations (positional reads,
   * hflushes): what an HBase or Parquet reader waits for each time. NaN otherwise.
   */
  final double opP50Ms;
  final double opP99Ms;
  final long hedgesTried;
  final long hedgesWon;
  final long replacements;
  final long blocksWritten;
  final long bytes;
  final long bytesVerified;
  final long backgroundBytes;
  /** Bytes read from block files (short-circuit), summed over batches; -1 if unknown. */
  final long shortCircuitBytes;
  /** Bytes the DataNodes served over TCP during the batches; -1 if unknown. */
  final long servedBytes;
  /** Bytes of the files read (not written). */
  final long bytesRead;
  /** Bytes Curtail's hedges received while racing, summed over batches; -1 if unknown. */
  final long hedgedBytes;
  /**
   * This mode's p99 over stock's, over stock-best's (its best hedge threshold's, where it was
   * swept) and over oracle's; NaN where that mode did not run.
   */
  double p99VsStock = Double.NaN;
  double p99VsStockBest = Double.NaN;
  double p99VsOracle = Double.NaN;

  private Summary(String scenario, String mode, List<Batch> batches) {
    this.scenario = scenario;
    this.mode = mode;
    List<Long> nanos = new ArrayList<>();
    List<Long> opNanos = new ArrayList<>();
    long allocated = 0;
    long wall = 0;
    long cpu = 0;
    long bytes = 0;
    long verified = 0;
    long tried = 0;
    long won = 0;
    long replaced = 0;
    long blocks = 0;
    long background = 0;
    long shortCircuit = 0;
    long served = 0;
    long bytesRead = 0;
    long hedged = 0;
    int read = 0;
    for (Batch b : batches) {
      for (FileSample f : b.samples) {
        nanos.add(f.latencyNanos);
        bytes += f.bytes;
        read += f.op.startsWith("write") ? 0 : 1;
        bytesRead += f.op.startsWith("write") ? 0 : f.bytes;
      }
      opNanos.addAll(b.opNanos);
      allocated = allocated < 0 || b.allocatedBytes < 0 ? -1 : allocated + b.allocatedBytes;
      wall += b.wallNanos;
      cpu = cpu < 0 || b.cpuNanos < 0 ? -1 : cpu + b.cpuNanos;
      verified += b.bytesVerified;
      tried += b.hedgesTried;
      won += b.hedgesWon;
      replaced += b.replacements;
      blocks += b.blocksWritten;
      background += b.backgroundBytes;
      shortCircuit = shortCircuit < 0 || b.shortCircuitBytes < 0 ? -1
          : shortCircuit + b.shortCircuitBytes;
      served = served < 0 || b.servedBytes < 0 ? -1 : served + b.servedBytes;
      hedged = hedged < 0 || b.hedgedBytes < 0 ? -1 : hedged + b.hedgedBytes;
    }
    Latencies latencies = Latencies.of(nanos);
    this.files = latencies.count();
    this.filesRead = read;
    this.p50Ms = latencies.percentileMs(0.50);
    this.p90Ms = latencies.percentileMs(0.90);
    this.p99Ms = latencies.percentileMs(0.99);
    this.p999Ms = latencies.percentileMs(0.999);
    this.maxMs = latencies.percentileMs(1.0);
    this.mibPerSec = wall == 0 ? 0 : bytes / (1024.0 * 1024) / (wall / 1e9);
    // An interleaved batch shares the process with other modes: its CPU and allocation are -1.
    this.cpuMsPerMib = bytes == 0 || cpu < 0 ? Double.NaN
        : cpu / 1e6 / (bytes / (1024.0 * 1024));
    this.allocKibPerMib = allocated < 0 ? Double.NaN
        : bytes == 0 ? 0 : Math.round(allocated / 1024.0 / (bytes / (1024.0 * 1024)));
    Latencies ops = Latencies.of(opNanos);
    this.opP50Ms = ops.percentileMs(0.50);
    this.opP99Ms = ops.percentileMs(0.99);
    this.bytes = bytes;
    this.bytesVerified = verified;
    this.hedgesTried = tried;
    this.hedgesWon = won;
    this.replacements = replaced;
    this.blocksWritten = blocks;
    this.backgroundBytes = background;
    this.shortCircuitBytes = shortCircuit;
    this.servedBytes = served;
    this.bytesRead = bytesRead;
    this.hedgedBytes = hedged;
  }

  /** Bytes as whole MiB, as tables show them; NaN (shown "-") where unknown. */
  private static double mib(long bytes) {
    return bytes < 0 ? Double.NaN : Math.round(bytes / (1024.0 * 1024));
  }

  /**
   * How much longer {@code other}'s files took than {@code base}'s, batches paired by round (as
   * interleaved batches are): the ratio of their summed file times, and a 95% confidence
   * interval from a {@link Bootstrap} of the rounds.
   *
   * @return {ratio, low, high}
   */
  static double[] timeRatio(List<Batch> base, List<Batch> other) {
    int n = Math.min(base.size(), other.size());
    double[] b = new double[n];
    double[] o = new double[n];
    for (int i = 0; i < n; i++) {
      b[i] = fileNanos(base.get(i));
      o[i] = fileNanos(other.get(i));
    }
    return Bootstrap.interval(Arrays.stream(o).sum() / Arrays.stream(b).sum(), random -> {
      double sb = 0;
      double so = 0;
      for (int i = 0; i < n; i++) { // rounds drawn in pairs, so that their drift cancels
        int j = random.nextInt(n);
        sb += b[j];
        so += o[j];
      }
      return so / sb;
    }).asArray();
  }

  private static double fileNanos(Batch batch) {
    double sum = 0;
    for (FileSample f : batch.samples) {
      sum += f.latencyNanos;
    }
    return sum;
  }

  /** Hedges started per file read; NaN where no file was read. */
  double hedgesPerRead() {
    return filesRead == 0 ? Double.NaN : (double) hedgesTried / filesRead;
  }

  /**
   * Hedged bytes as a percentage of bytes read: what hedging added to the DataNodes' reads, which
   * the hedge budget keeps near a tenth. NaN where unknown (stock's hedges) or nothing was read.
   */
  double hedgedPercent() {
    return hedgedBytes < 0 || bytesRead == 0 ? Double.NaN : 100.0 * hedgedBytes / bytesRead;
  }

  /** Replacements as "replaced/blocks" where the blocks are known, else the count alone. */
  String replacementsPerBlocks() {
    return blocksWritten > 0 ? replacements + "/" + blocksWritten : Long.toString(replacements);
  }

  static Summary of(String scenario, String mode, List<Batch> batches) {
    return new Summary(scenario, mode, batches);
  }

  /** Fills the p99 ratios from the stock, stock-best and oracle summaries of the same scenario. */
  static void relate(List<Summary> scenario) {
    Summary stock = find(scenario, Mode.STOCK.label());
    Summary best = bestStockBest(scenario);
    Summary oracle = find(scenario, Mode.ORACLE.label());
    for (Summary s : scenario) {
      s.p99VsStock = stock == null ? Double.NaN : s.p99Ms / stock.p99Ms;
      s.p99VsStockBest = best == null ? Double.NaN : s.p99Ms / best.p99Ms;
      s.p99VsOracle = oracle == null ? Double.NaN : s.p99Ms / oracle.p99Ms;
    }
  }

  /** Of stock-best's variants (one per hedge threshold swept), the one with the lowest p99. */
  static Summary bestStockBest(List<Summary> scenario) {
    Summary best = null;
    for (Summary s : scenario) {
      boolean stockBest = s.mode.equals(Mode.STOCK_BEST.label())
          || s.mode.startsWith(Mode.STOCK_BEST.label() + "@");
      if (stockBest && (best == null || s.p99Ms < best.p99Ms)) {
        best = s;
      }
    }
    return best;
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

  @Override
  public String toString() {
    return scenario + "/" + mode + Arrays.toString(new double[] {p50Ms, p99Ms});
  }
}
