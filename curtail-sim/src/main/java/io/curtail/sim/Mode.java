package io.curtail.sim;

/** How clients choose, as the benchmark's modes. */
public enum Mode {
  /** The NameNode's replica order, no hedging; a pipeline changes only when a DataNode fails. */
  STOCK,
  /**
   * Stock's signals that can be modelled: replicas read least loaded first (the NameNode's
   * {@code dfs.namenode.read.considerLoad}) and Hadoop's static hedged reads for positional reads
   * ({@code dfs.client.hedged.read.threshold.millis}). Its slow-node exclusion for writes works
   * on DataNodes' peer reports over minutes and is not modelled.
   */
  STOCK_BEST,
  /** Curtail's policy classes: hedging, replica order, fail-fast replacements. */
  CURTAIL,
  /** The DataNodes at fault known to every client and NameNode, and never used. */
  ORACLE;

  public String label() {
    return name().toLowerCase().replace('_', '-');
  }

  public static Mode of(String s) {
    for (Mode m : values()) {
      if (m.label().equals(s.trim())) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown mode '" + s + "': stock, stock-best, curtail or"
        + " oracle");
  }
}
