package io.curtail.client.conf;

import io.curtail.client.track.LatencyWindow;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;

/**
 * Curtail's client settings, read once from Hadoop's {@link Configuration} and validated.
 *
 * <p>Immutable and safe to share. A bad value fails here, at {@code FileSystem} initialisation,
 * with an {@link InvalidConfigException} naming the key, the rule it breaks and the value; so does
 * an unknown {@code curtail.*} key, because a misspelt A/B flag would otherwise silently measure
 * the wrong cohort. Keys under {@value CurtailKey#DATANODE_PREFIX} belong to DataNodes and are
 * ignored here.
 */
public final class CurtailConfig {
  private final boolean writeFailFastEnabled;
  private final HedgingMode readHedging;
  private final long staticHedgeThresholdNanos;
  private final long minHedgeThresholdNanos;
  private final double slownessPercentile;
  private final double slownessFactor;
  private final int writeWindowPackets;
  private final int readWindowPackets;
  private final int writeFailFastMaxAttempts;
  private final long reconstructionMinTimeoutNanos;
  private final long minSlowdownNanos;
  private final long readMinSlowdownNanos;
  private final boolean readNameNodeLoad;
  private final double readNameNodeLoadFactor;
  private final int readNameNodeLoadMargin;
  private final long readNameNodeLoadStaleMillis;
  private final boolean useDataNodeReports;
  private final boolean readStriped;
  private final boolean writeStripedDrop;
  private final int readHedgingMaxRetries;
  private final int readHedgingBackoffPackets;
  private final int readHedgingMaxInFlight;
  private final int readHedgingMaxInFlightPerDataNode;
  private final long readHedgingCheckNanos;
  private final double hedgeBudgetRatio;
  private final int hedgeBudgetBurst;
  private final int thresholdRefreshPackets;
  private final long failFastCheckNanos;
  private final String knowledgeScope;
  private final long knowledgeMemoryNanos;
  private final int maxAvoidedNodes;
  private final int maxKnownNodes;
  private final long knowledgeIdleNanos;
  private final String host;
  private final String statsDir;
  private final int statsQueueRecords;
  private final long statsFileBytes;
  private final int statsFiles;
  /** The host's A/B cohort; null when there is no A/B test. */
  private final Cohorts.Cohort cohort;
  /** Every cohort's name, in the order defined; empty when there is no A/B test. */
  private final List<String> cohortNames = new ArrayList<>();

  private CurtailConfig(Map<String, String> settings) {
    SettingReader r = new SettingReader(settings);
    boolean failFast = r.bool(CurtailKey.WRITE_FAILFAST_ENABLED);
    HedgingMode hedging = r.hedgingMode(CurtailKey.READ_HEDGING);
    Cohorts cohorts = Cohorts.parse(CurtailKey.AB_COHORTS.key(), r.raw(CurtailKey.AB_COHORTS));
    String salt = r.raw(CurtailKey.AB_SALT);
    statsDir = r.raw(CurtailKey.STATS_DIR);
    statsQueueRecords = (int) r.longIn(CurtailKey.STATS_QUEUE_RECORDS, 1, 1 << 20);
    statsFileBytes = r.longIn(CurtailKey.STATS_FILE_MB, 1, 1 << 20) << 20;
    statsFiles = (int) r.longIn(CurtailKey.STATS_FILES, 1, 1000);
    boolean needsHost = !cohorts.all().isEmpty() || !statsDir.isEmpty();
    host = r.raw(CurtailKey.AB_HOST).isEmpty() && needsHost
        ? localHostName() : r.raw(CurtailKey.AB_HOST);
    cohort = cohorts.of(host, salt);
    cohorts.all().forEach(c -> cohortNames.add(c.name));
    // A cohort's techniques override the per-technique keys: one flag flips a whole host.
    writeFailFastEnabled = cohort != null ? cohort.failFast : failFast;
    readHedging = cohort != null ? cohort.hedging : hedging;
    staticHedgeThresholdNanos = TimeUnit.MILLISECONDS.toNanos(
        r.longIn(CurtailKey.READ_HEDGING_STATIC_THRESHOLD_MS, 1, TimeUnit.HOURS.toMillis(1)));
    minHedgeThresholdNanos = TimeUnit.MILLISECONDS.toNanos(
        r.longIn(CurtailKey.READ_HEDGING_MIN_THRESHOLD_MS, 0, TimeUnit.HOURS.toMillis(1)));
    slownessPercentile = r.openUnitInterval(CurtailKey.SLOWNESS_PERCENTILE);
    slownessFactor = r.greaterThanOne(CurtailKey.SLOWNESS_FACTOR);
    writeWindowPackets = (int) r.longIn(CurtailKey.WRITE_WINDOW_PACKETS, 1, LatencyWindow.CAPACITY);
    readWindowPackets = (int) r.longIn(CurtailKey.READ_WINDOW_PACKETS, 1, LatencyWindow.CAPACITY);
    writeFailFastMaxAttempts = (int) r.longIn(CurtailKey.WRITE_FAILFAST_MAX_ATTEMPTS, 1, 100);
    reconstructionMinTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(
        r.longIn(CurtailKey.WRITE_FAILFAST_RECONSTRUCTION_MIN_TIMEOUT_MS, 1, TimeUnit.HOURS.toMillis(1)));
    minSlowdownNanos = TimeUnit.MILLISECONDS.toNanos(
        r.longIn(CurtailKey.WRITE_FAILFAST_MIN_SLOWDOWN_MS, 0, TimeUnit.HOURS.toMillis(1)));
    readMinSlowdownNanos = TimeUnit.MILLISECONDS.toNanos(
        r.longIn(CurtailKey.READ_MIN_SLOWDOWN_MS, 0, TimeUnit.HOURS.toMillis(1)));
    readNameNodeLoad = r.bool(CurtailKey.READ_NAMENODE_LOAD);
    readNameNodeLoadFactor = r.greaterThanOne(CurtailKey.READ_NAMENODE_LOAD_FACTOR);
    readNameNodeLoadMargin = (int) r.longIn(CurtailKey.READ_NAMENODE_LOAD_MARGIN, 1, 1 << 20);
    readNameNodeLoadStaleMillis =
        r.longIn(CurtailKey.READ_NAMENODE_LOAD_STALE_MS, 1, TimeUnit.DAYS.toMillis(1));
    useDataNodeReports = r.bool(CurtailKey.WRITE_DATANODE_REPORTS);
    readStriped = r.bool(CurtailKey.READ_STRIPED);
    writeStripedDrop = r.bool(CurtailKey.WRITE_STRIPED_DROP);
    readHedgingMaxRetries = (int) r.longIn(CurtailKey.READ_HEDGING_MAX_RETRIES, 0, 30);
    readHedgingBackoffPackets = (int) r.longIn(CurtailKey.READ_HEDGING_BACKOFF_PACKETS, 1, 1 << 20);
    readHedgingMaxInFlight = (int) r.longIn(CurtailKey.READ_HEDGING_MAX_IN_FLIGHT, 1, 1024);
    readHedgingMaxInFlightPerDataNode =
        (int) r.longIn(CurtailKey.READ_HEDGING_MAX_IN_FLIGHT_PER_DATANODE, 1, 1024);
    hedgeBudgetRatio = r.unitIntervalOpenBelow(CurtailKey.READ_HEDGING_BUDGET_RATIO);
    hedgeBudgetBurst = (int) r.longIn(CurtailKey.READ_HEDGING_BUDGET_BURST, 1, 1 << 20);
    readHedgingCheckNanos = TimeUnit.MILLISECONDS.toNanos(
        r.longIn(CurtailKey.READ_HEDGING_CHECK_MS, 1, TimeUnit.MINUTES.toMillis(1)));
    thresholdRefreshPackets =
        (int) r.longIn(CurtailKey.READ_HEDGING_THRESHOLD_REFRESH_PACKETS, 1, 1 << 20);
    failFastCheckNanos = TimeUnit.MILLISECONDS.toNanos(
        r.longIn(CurtailKey.WRITE_FAILFAST_CHECK_MS, 1, TimeUnit.MINUTES.toMillis(1)));
    knowledgeScope = r.word(CurtailKey.KNOWLEDGE_SCOPE);
    knowledgeMemoryNanos = TimeUnit.MILLISECONDS.toNanos(
        r.longIn(CurtailKey.KNOWLEDGE_MEMORY_MS, 1, TimeUnit.DAYS.toMillis(1)));
    maxAvoidedNodes = (int) r.longIn(CurtailKey.KNOWLEDGE_MAX_AVOIDED, 0, 1000);
    maxKnownNodes = (int) r.longIn(CurtailKey.KNOWLEDGE_MAX_NODES, 1, 1 << 20);
    knowledgeIdleNanos = TimeUnit.MILLISECONDS.toNanos(
        r.longIn(CurtailKey.KNOWLEDGE_IDLE_MS, 1, TimeUnit.DAYS.toMillis(1)));
  }

  /** This machine's host name, as A/B cohorts place it; "localhost" if it has none. */
  static String localHostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      return "localhost";
    }
  }

  /** Every setting at its default. */
  public static CurtailConfig defaults() {
    return from(Collections.emptyMap());
  }

  /** Reads the {@code curtail.*} keys of a Hadoop configuration. */
  public static CurtailConfig from(Configuration conf) {
    Map<String, String> settings = new TreeMap<>();
    for (Map.Entry<String, String> e : conf.getPropsWithPrefix("curtail.").entrySet()) {
      settings.put("curtail." + e.getKey(), conf.getTrimmed("curtail." + e.getKey()));
    }
    return from(settings);
  }

  /**
   * Reads settings given as full key names to values; keys absent take their default.
   *
   * @throws InvalidConfigException naming the first bad or unknown key
   */
  public static CurtailConfig from(Map<String, String> settings) {
    for (String key : new TreeMap<>(settings).keySet()) {
      if (key.startsWith("curtail.") && !key.startsWith(CurtailKey.DATANODE_PREFIX)
          && CurtailKey.byName(key) == null) {
        throw new InvalidConfigException(key, settings.get(key), "unknown key; did you mean "
            + CurtailKey.nearest(key).key() + "? (every key is in docs/configuration.md)");
      }
    }
    return new CurtailConfig(settings);
  }

  public boolean writeFailFastEnabled() {
    return writeFailFastEnabled;
  }

  public HedgingMode readHedging() {
    return readHedging;
  }

  public long staticHedgeThresholdNanos() {
    return staticHedgeThresholdNanos;
  }

  public long minHedgeThresholdNanos() {
    return minHedgeThresholdNanos;
  }

  public double slownessPercentile() {
    return slownessPercentile;
  }

  public double slownessFactor() {
    return slownessFactor;
  }

  public int writeWindowPackets() {
    return writeWindowPackets;
  }

  public int readWindowPackets() {
    return readWindowPackets;
  }

  public int writeFailFastMaxAttempts() {
    return writeFailFastMaxAttempts;
  }

  public long reconstructionMinTimeoutNanos() {
    return reconstructionMinTimeoutNanos;
  }

  public long minSlowdownNanos() {
    return minSlowdownNanos;
  }

  /** How much slower than the fastest a replica must also be to be known slow for reads. */
  public long readMinSlowdownNanos() {
    return readMinSlowdownNanos;
  }

  /** Whether reads act on the load the NameNode reports with each block's replicas. */
  public boolean readNameNodeLoad() {
    return readNameNodeLoad;
  }

  public double readNameNodeLoadFactor() {
    return readNameNodeLoadFactor;
  }

  public int readNameNodeLoadMargin() {
    return readNameNodeLoadMargin;
  }

  public long readNameNodeLoadStaleMillis() {
    return readNameNodeLoadStaleMillis;
  }

  public boolean useDataNodeReports() {
    return useDataNodeReports;
  }

  /** Whether erasure-coded files are read by Curtail's striped reader (with hedging on). */
  public boolean readStriped() {
    return readStriped;
  }

  /**
   * Whether erasure-coded writes let a streamer that falls behind go (with fail-fast on: without
   * it no write is Curtail's, and every erasure-coded file is stock's).
   */
  public boolean writeStripedDrop() {
    return writeStripedDrop;
  }

  public int readHedgingMaxRetries() {
    return readHedgingMaxRetries;
  }

  public int readHedgingBackoffPackets() {
    return readHedgingBackoffPackets;
  }

  public int readHedgingMaxInFlight() {
    return readHedgingMaxInFlight;
  }

  public int readHedgingMaxInFlightPerDataNode() {
    return readHedgingMaxInFlightPerDataNode;
  }

  /** Hedges per packet read the runtime's {@code HedgeBudget} earns. */
  public double hedgeBudgetRatio() {
    return hedgeBudgetRatio;
  }

  /** Hedges the runtime's {@code HedgeBudget} holds at most, and starts with. */
  public int hedgeBudgetBurst() {
    return hedgeBudgetBurst;
  }

  public long readHedgingCheckNanos() {
    return readHedgingCheckNanos;
  }

  public int thresholdRefreshPackets() {
    return thresholdRefreshPackets;
  }

  public long failFastCheckNanos() {
    return failFastCheckNanos;
  }

  public String knowledgeScope() {
    return knowledgeScope;
  }

  public long knowledgeMemoryNanos() {
    return knowledgeMemoryNanos;
  }

  public int maxAvoidedNodes() {
    return maxAvoidedNodes;
  }

  public int maxKnownNodes() {
    return maxKnownNodes;
  }

  public long knowledgeIdleNanos() {
    return knowledgeIdleNanos;
  }

  /**
   * What file systems must agree on to share one {@code CurtailRuntime}: the scope and the
   * settings the shared knowledge and hedge budget are built with.
   */
  public String knowledgeKey() {
    return knowledgeScope + "|memory=" + knowledgeMemoryNanos + "|avoided=" + maxAvoidedNodes
        + "|nodes=" + maxKnownNodes + "|idle=" + knowledgeIdleNanos
        + "|hedgeBudget=" + hedgeBudgetRatio + "/" + hedgeBudgetBurst;
  }

  /**
   * The host name cohorts and statistics use: {@code curtail.ab.host}, else (with cohorts) this
   * machine's; empty when neither asked for it.
   */
  public String host() {
    return host;
  }

  /** Where per-block statistics go; empty for nowhere. */
  public String statsDir() {
    return statsDir;
  }

  public int statsQueueRecords() {
    return statsQueueRecords;
  }

  public long statsFileBytes() {
    return statsFileBytes;
  }

  public int statsFiles() {
    return statsFiles;
  }

  /** The host's A/B cohort's name, or null when there is no A/B test. */
  public String cohort() {
    return cohort == null ? null : cohort.name;
  }

  /** Every A/B cohort's name, in the order defined; empty when there is no A/B test. */
  public List<String> cohorts() {
    return Collections.unmodifiableList(cohortNames);
  }

  /** True when every technique is off, so the client must behave exactly as the stock one. */
  public boolean allTechniquesOff() {
    return !writeFailFastEnabled && readHedging == HedgingMode.OFF;
  }

  @Override
  public String toString() {
    return "CurtailConfig{failfast=" + writeFailFastEnabled
        + ", hedging=" + readHedging
        + ", staticThresholdMs=" + TimeUnit.NANOSECONDS.toMillis(staticHedgeThresholdNanos)
        + ", minThresholdMs=" + TimeUnit.NANOSECONDS.toMillis(minHedgeThresholdNanos)
        + ", percentile=" + slownessPercentile
        + ", factor=" + slownessFactor
        + ", writeWindow=" + writeWindowPackets
        + ", readWindow=" + readWindowPackets
        + ", maxAttempts=" + writeFailFastMaxAttempts
        + ", reconstructionMinTimeoutMs=" + TimeUnit.NANOSECONDS.toMillis(reconstructionMinTimeoutNanos)
        + ", minSlowdownMs=" + TimeUnit.NANOSECONDS.toMillis(minSlowdownNanos)
        + ", reports=" + useDataNodeReports + ", striped=" + readStriped
        + ", stripedDrop=" + writeStripedDrop
        + ", nameNodeLoad=" + (readNameNodeLoad ? readNameNodeLoadFactor + "x+"
            + readNameNodeLoadMargin + "/" + readNameNodeLoadStaleMillis + "ms" : "off")
        + ", hedgeRetries=" + readHedgingMaxRetries
        + ", hedgeBackoffPackets=" + readHedgingBackoffPackets
        + ", hedgesInFlight=" + readHedgingMaxInFlight + "/" + readHedgingMaxInFlightPerDataNode
        + ", hedgeBudget=" + hedgeBudgetRatio + "/" + hedgeBudgetBurst
        + ", hedgeCheckMs=" + TimeUnit.NANOSECONDS.toMillis(readHedgingCheckNanos)
        + ", thresholdRefreshPackets=" + thresholdRefreshPackets
        + ", failFastCheckMs=" + TimeUnit.NANOSECONDS.toMillis(failFastCheckNanos)
        + ", knowledge=" + knowledgeKey()
        + (cohort == null ? "" : ", cohort=" + cohort + "@" + host) + '}';
  }
}
