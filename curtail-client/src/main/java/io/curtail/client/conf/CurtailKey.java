package io.curtail.client.conf;

/**
 * Every {@code curtail.*} client setting: its name, its default and what it means.
 *
 * <p>The names are part of Curtail's public interface (people set them as A/B flags in production
 * job configurations); keep them. {@link CurtailConfig} is the only reader, and the table in
 * docs/configuration.md is checked against this list by a test.
 */
public enum CurtailKey {
  WRITE_FAILFAST_ENABLED("curtail.write.failfast.enabled", "true",
      "fail-fast replacement of slow pipeline DataNodes"),
  READ_HEDGING("curtail.read.hedging", "smart",
      "`off`, `static` or `smart`"),
  READ_HEDGING_STATIC_THRESHOLD_MS("curtail.read.hedging.static.threshold.ms", "500",
      "static hedge threshold; smart hedging's bootstrap value"),
  READ_HEDGING_MIN_THRESHOLD_MS("curtail.read.hedging.min.threshold.ms", "25",
      "smart hedging's threshold never drops below this, so ordinary jitter never hedges"),
  SLOWNESS_PERCENTILE("curtail.slowness.percentile", "0.95",
      "percentile compared across DataNodes"),
  SLOWNESS_FACTOR("curtail.slowness.factor", "3.0",
      "how many times slower counts as slow"),
  WRITE_WINDOW_PACKETS("curtail.write.window.packets", "100",
      "recent packets considered per DataNode for writes"),
  READ_WINDOW_PACKETS("curtail.read.window.packets", "20",
      "recent packets considered per DataNode for reads"),
  WRITE_FAILFAST_MAX_ATTEMPTS("curtail.write.failfast.max.attempts", "5",
      "replacement tries before giving up on a block"),
  WRITE_FAILFAST_RECONSTRUCTION_MIN_TIMEOUT_MS("curtail.write.failfast.reconstruction.min.timeout.ms",
      "1000", "floor of the timeout for rebuilding a partial block on a replacement DataNode"),
  WRITE_FAILFAST_MIN_SLOWDOWN_MS("curtail.write.failfast.min.slowdown.ms", "5",
      "a slow DataNode's percentile must also exceed the fastest's by this much, so that jitter"
          + " of a millisecond or two never replaces anyone"),
  WRITE_DATANODE_REPORTS("curtail.write.datanode.reports", "true",
      "tell every DataNode of a write pipeline apart by the downstream times DataNodes running"
          + " Curtail's plugin report on acks (a stock ack separates only the first DataNode from"
          + " the rest); off, a slow DataNode further down is found by elimination"),
  READ_MIN_SLOWDOWN_MS("curtail.read.min.slowdown.ms", "5",
      "a replica known slow to deliver packets must also be this much slower than the fastest"
          + " (starts and tails, at least the hedge floor), so that jitter of a millisecond or two"
          + " never demotes anyone"),
  READ_NAMENODE_LOAD("curtail.read.namenode.load", "true",
      "read last, and hedge at the floor while a client knows nothing yet, a replica whose DataNode the"
          + " NameNode reports (with the block's locations) as having many more transfers open"
          + " than the block's typical replica (the median of their counts); false to measure"
          + " what it is worth"),
  READ_NAMENODE_LOAD_FACTOR("curtail.read.namenode.load.factor", "2.0",
      "a loaded replica has at least this many times the typical replica's transfers"),
  READ_NAMENODE_LOAD_MARGIN("curtail.read.namenode.load.margin", "4",
      "and at least this many more, so that 2 against 1 is not load"),
  READ_NAMENODE_LOAD_STALE_MS("curtail.read.namenode.load.stale.ms", "30000",
      "a DataNode's report older than this (its last heartbeat, by the NameNode's clock) is"
          + " ignored"),
  READ_HEDGING_MAX_RETRIES("curtail.read.hedging.max.retries", "3",
      "hedges retried to a DataNode whose last hedge lost (paper §6.2)"),
  READ_HEDGING_BACKOFF_PACKETS("curtail.read.hedging.backoff.packets", "16",
      "packets to wait after a lost hedge before the first retry; doubles with each loss"),
  READ_HEDGING_MAX_IN_FLIGHT("curtail.read.hedging.max.in.flight", "16",
      "hedges one client may have in flight; beyond it a slow packet simply waits"),
  READ_HEDGING_MAX_IN_FLIGHT_PER_DATANODE("curtail.read.hedging.max.in.flight.per.datanode", "4",
      "hedges one client may have in flight to any one DataNode, so hedges never pile onto"
          + " one DataNode's queue"),
  READ_HEDGING_BUDGET_RATIO("curtail.read.hedging.budget.ratio", "0.1",
      "hedges a client's JVM may start per packet read, in (0, 1]: a token bucket, so that"
          + " when many DataNodes are slow at once hedging cannot double the cluster's load"),
  READ_HEDGING_BUDGET_BURST("curtail.read.hedging.budget.burst", "10",
      "hedges the budget holds in reserve (and starts with), so a client's first slow reads"
          + " hedge at once"),
  READ_HEDGING_CHECK_MS("curtail.read.hedging.check.ms", "5",
      "how often a client looks for reads past their hedge threshold: a hedge starts at most"
          + " this late"),
  READ_HEDGING_THRESHOLD_REFRESH_PACKETS("curtail.read.hedging.threshold.refresh.packets", "16",
      "packets a read goes between recomputing its hedge threshold (load moves slower)"),
  READ_STRIPED("curtail.read.striped", "false",
      "erasure-coded files read by Curtail's striped reader, which reads around a slow DataNode"
          + " from parity; off, they keep stock's stream"),
  WRITE_STRIPED_DROP("curtail.write.striped.drop", "true",
      "with fail-fast on, an erasure-coded write lets the one streamer of a block group that"
          + " falls behind go, as stock lets a failed one go: the group completes with k + m - 1"
          + " internal blocks and the NameNode reconstructs the last (at most one per group,"
          + " never with a single parity unit); off, stock's striped stream waits for it"),
  WRITE_FAILFAST_CHECK_MS("curtail.write.failfast.check.ms", "50",
      "how often every open pipeline is judged even without acks, so a DataNode that went"
          + " silent is noticed"),
  KNOWLEDGE_SCOPE("curtail.knowledge.scope", "jvm",
      "file systems of one JVM on the same cluster with the same scope (and knowledge"
          + " settings) share what they learn of DataNodes; a scope of its own starts fresh"),
  KNOWLEDGE_MEMORY_MS("curtail.knowledge.memory.ms", "300000",
      "how long a DataNode judged slow or heard busy is avoided unless judged or heard again"),
  KNOWLEDGE_MAX_AVOIDED("curtail.knowledge.max.avoided", "3",
      "DataNodes judged slow (and, apart, heard busy) kept out of new blocks at once, the most"
          + " recent"),
  KNOWLEDGE_MAX_NODES("curtail.knowledge.max.nodes", "1024",
      "DataNodes whose latencies are kept (about 21 KiB each), the least recently active"
          + " dropped first"),
  KNOWLEDGE_IDLE_MS("curtail.knowledge.idle.ms", "900000",
      "a DataNode's latencies are forgotten after this long without a sample or a look-up"),
  AB_COHORTS("curtail.ab.cohorts", "",
      "A/B cohorts of hosts, e.g. `control=50:none,ff=25:failfast,all=25:failfast+smart`: name,"
          + " share of hosts in percent (summing to 100), techniques (`none`, or `failfast`,"
          + " `smart`, `static` joined by `+`); a host's cohort overrides"
          + " `curtail.write.failfast.enabled` and `curtail.read.hedging`; empty, no A/B test"),
  AB_SALT("curtail.ab.salt", "curtail",
      "hashed with the host name to place a host in a cohort; a new salt draws new cohorts"),
  AB_HOST("curtail.ab.host", "",
      "the host name cohorts and statistics use; empty, this machine's"),
  STATS_DIR("curtail.stats.dir", "",
      "a local directory for per-block statistics, one JSON line per block read or written;"
          + " empty, none"),
  STATS_QUEUE_RECORDS("curtail.stats.queue.records", "4096",
      "records waiting to be written, at most; beyond, a record is dropped and counted, never"
          + " waited for"),
  STATS_FILE_MB("curtail.stats.file.mb", "64",
      "a statistics file is rotated at this size"),
  STATS_FILES("curtail.stats.files", "8",
      "statistics files each file system keeps, the oldest deleted first");

  /** Prefix of keys meant for DataNodes; the client neither reads nor rejects them. */
  public static final String DATANODE_PREFIX = "curtail.datanode.";

  private final String key;
  private final String defaultValue;
  private final String meaning;

  CurtailKey(String key, String defaultValue, String meaning) {
    this.key = key;
    this.defaultValue = defaultValue;
    this.meaning = meaning;
  }

  public String key() {
    return key;
  }

  public String defaultValue() {
    return defaultValue;
  }

  public String meaning() {
    return meaning;
  }

  /** The setting named {@code key}, or null when no client setting has that name. */
  public static CurtailKey byName(String key) {
    for (CurtailKey k : values()) {
      if (k.key.equals(key)) {
        return k;
      }
    }
    return null;
  }

  /**
   * The key whose name is fewest single-character edits away from {@code key}: what a misspelt
   * flag most likely meant.
   */
  public static CurtailKey nearest(String key) {
    CurtailKey best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (CurtailKey k : values()) {
      int d = editDistance(key, k.key);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return best;
  }

  /** Levenshtein distance: insertions, deletions and substitutions, each costing one. */
  private static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] t = previous;
      previous = current;
      current = t;
    }
    return previous[b.length()];
  }

  @Override
  public String toString() {
    return key;
  }
}
