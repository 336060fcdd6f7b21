package io.curtail.sim;

/**
 * One simulated run's figures, as a line of a report: what was varied, the mode, latencies by
 * operation and the load added (hedged bytes, rebuild bytes, replacements per block).
 */
public record Row(String experiment, String variable, double value, String mode, Metrics m,
    double wallSeconds, long events) {

  static final String[] HEADER = {"experiment", "variable", "value", "mode", "reads",
      "read p50 ms", "read p99 ms", "pread p99 ms", "writes", "write p50 ms", "write p99 ms",
      "hedges", "hedges won", "hedges denied", "hedged B%", "rebuild B%", "repl/blk", "aborted",
      "packets", "wall s"};

  String[] cells() {
    return new String[] {experiment, variable, num(value), mode,
        Integer.toString(m.count(Metrics.Op.READ)), ms(m.quantileMs(Metrics.Op.READ, 0.5)),
        ms(m.quantileMs(Metrics.Op.READ, 0.99)), ms(m.quantileMs(Metrics.Op.PREAD, 0.99)),
        Integer.toString(m.count(Metrics.Op.WRITE)), ms(m.quantileMs(Metrics.Op.WRITE, 0.5)),
        ms(m.quantileMs(Metrics.Op.WRITE, 0.99)), Long.toString(m.hedgesTried()),
        Long.toString(m.hedgesWon()), Long.toString(m.hedgesDenied()),
        String.format("%.2f", 100 * m.hedgedShare()), String.format("%.2f", 100 * m.rebuildShare()),
        String.format("%.3f", m.replacementsPerBlock()), Long.toString(m.rebuildsAborted()),
        Long.toString(m.packets()),
        String.format("%.1f", wallSeconds)};
  }

  private static String ms(double v) {
    return Double.isNaN(v) ? "-" : String.format("%.1f", v);
  }

  private static String num(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format("%.3g", v);
  }
}
