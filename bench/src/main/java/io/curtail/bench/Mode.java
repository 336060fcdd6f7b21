package io.curtail.bench;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.conf.InvalidConfigException;
import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * A client configuration compared in the same run. Each mode is one way of setting up the same
 * workload: which file system class, which settings, and whether the scenario's fault is on.
 */
public enum Mode {
  /** The plain stock {@link DistributedFileSystem}: the baseline every ratio is taken against. */
  STOCK("stock", true) {
    @Override
    public void configure(Configuration conf, Options o) {
      conf.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
    }
  },
  /** Stock with its own static hedged reads ({@code dfs.client.hedged.read.*}); preads only. */
  STOCK_HEDGED("stock-hedged", true) {
    @Override
    public void configure(Configuration conf, Options o) {
      STOCK.configure(conf, o);
      conf.setInt("dfs.client.hedged.read.threadpool.size", 16);
      conf.setLong("dfs.client.hedged.read.threshold.millis", o.hedgeThresholdMillis);
    }

    @Override
    boolean appliesTo(Scenario s) {
      return s.workload().reads();
    }

    @Override
    void afterBatch() {
      StockHedgedPool.reset();
    }
  },
  /**
   * The stock client with every stock slow-node feature on and tuned to act quickly, on a cluster
   * of its own with the NameNode's and DataNodes' features on too ({@link StockBest}). Its hedge
   * threshold is swept where positional reads could use it against a fault, and each threshold
   * reported.
   */
  STOCK_BEST("stock-best", true) {
    @Override
    public void configure(Configuration conf, Options o) {
      STOCK.configure(conf, o);
      StockBest.CLIENT.forEach(conf::set);
      conf.setLong("dfs.client.hedged.read.threshold.millis", o.hedgeThresholdMillis);
    }

    @Override
    Map<String, String> clusterSettings() {
      return StockBest.CLUSTER;
    }

    @Override
    Map<String, Map<String, String>> variants(Scenario s, Options o) {
      if (!s.hasFault() || !s.workload().preads()) {
        return super.variants(s, o);
      }
      Map<String, Map<String, String>> out = new LinkedHashMap<>();
      for (long ms : o.stockBestThresholdsMillis) {
        out.put("@" + ms + "ms",
            Collections.singletonMap("dfs.client.hedged.read.threshold.millis", "" + ms));
      }
      return out;
    }

    @Override
    void afterBatch() {
      StockHedgedPool.reset();
    }
  },
  /** Curtail with fail-fast writes and static hedged reads at {@code stock-hedged}'s threshold. */
  CURTAIL_STATIC("curtail-static", true) {
    @Override
    public void configure(Configuration conf, Options o) {
      curtail(conf, "static", o);
    }
  },
  /** Curtail with fail-fast writes and smart hedged reads (the static threshold bootstraps). */
  CURTAIL("curtail", true) {
    @Override
    public void configure(Configuration conf, Options o) {
      curtail(conf, "smart", o);
    }
  },
  /**
   * Curtail on {@code stock-best}'s cluster, with every stock NameNode and DataNode slow-node
   * feature on: whether Curtail and stock's cluster-side features compose, since in production
   * both run against the same NameNode.
   */
  CURTAIL_BEST_CLUSTER("curtail-best-cluster", true) {
    @Override
    public void configure(Configuration conf, Options o) {
      curtail(conf, "smart", o);
    }

    @Override
    Map<String, String> clusterSettings() {
      return StockBest.CLUSTER;
    }

    @Override
    boolean needsItsCluster() {
      return true; // on a cluster the benchmark does not start, it would be curtail again
    }
  },
  /**
   * Curtail writing per-block statistics ({@code curtail.stats.dir}, under the run's results):
   * against {@code curtail}, what the statistics cost. Scenarios without a fault.
   */
  CURTAIL_STATS("curtail-stats", true) {
    @Override
    public void configure(Configuration conf, Options o) {
      curtail(conf, "smart", o);
      conf.set("curtail.stats.dir", o.statsDir);
    }

    @Override
    boolean appliesTo(Scenario s) {
      return !s.hasFault();
    }
  },
  /**
   * Curtail under A/B cohorts ({@code --cohorts}, as {@code curtail.ab.cohorts}), one variant per
   * cohort, labelled {@code curtail-ab@<cohort>}: each emulates a host the cohorts place in it
   * ({@code curtail.ab.host}) and writes per-block statistics, so that the statistics analyzer's
   * comparison of cohorts can be checked against the benchmark's own of the same batches. Runs
   * only with {@code --cohorts}.
   */
  CURTAIL_AB("curtail-ab", true) {
    @Override
    public void configure(Configuration conf, Options o) {
      curtail(conf, "smart", o);
      conf.set("curtail.ab.cohorts", o.cohorts);
      conf.set("curtail.stats.dir", o.statsDir);
    }

    @Override
    Map<String, Map<String, String>> variants(Scenario s, Options o) {
      Map<String, Map<String, String>> out = new LinkedHashMap<>();
      if (!o.cohorts.isEmpty()) {
        cohortHosts(o.cohorts).forEach((cohort, host) ->
            out.put("@" + cohort, Collections.singletonMap("curtail.ab.host", host)));
      }
      return out;
    }
  },
  /**
   * Curtail ignoring the downstream times DataNodes with its plugin report on acks
   * ({@code curtail.write.datanode.reports} off), so its writer sees only what stock acks say:
   * against {@code curtail}, what the reports are worth. Write-only scenarios.
   */
  CURTAIL_NO_REPORTS("curtail-no-reports", true) {
    @Override
    public void configure(Configuration conf, Options o) {
      curtail(conf, "smart", o);
      conf.setBoolean("curtail.write.datanode.reports", false);
    }

    @Override
    boolean appliesTo(Scenario s) {
      return s.workload().writes() && !s.workload().reads();
    }
  },
  /**
   * The stock client on DataNodes with Curtail's plugin taken out of their data path: against
   * {@code stock}, what the plugin costs the DataNodes. Scenarios without a fault.
   */
  STOCK_PLAIN_DATANODES("stock-plain-dn", false) {
    @Override
    public void configure(Configuration conf, Options o) {
      STOCK.configure(conf, o);
    }

    @Override
    boolean appliesTo(Scenario s) {
      return !s.hasFault();
    }

    @Override
    boolean pluginOnDataNodes() {
      return false;
    }
  },
  /** The stock client with the faulty DataNode healthy: the best achievable. */
  ORACLE("oracle", false) {
    @Override
    public void configure(Configuration conf, Options o) {
      STOCK.configure(conf, o);
    }

    @Override
    boolean appliesTo(Scenario s) {
      return s.hasFault();
    }
  };

  private static void curtail(Configuration conf, String hedging, Options o) {
    conf.set("fs.hdfs.impl", CurtailDistributedFileSystem.class.getName());
    conf.set("curtail.read.hedging", hedging);
    conf.setLong("curtail.read.hedging.static.threshold.ms", o.hedgeThresholdMillis);
  }

  /** Settings shared by the modes of one run. */
  public static final class Options {
    final long hedgeThresholdMillis;
    /** The hedge thresholds {@code stock-best} is run at, each its own batch. */
    final List<Long> stockBestThresholdsMillis;
    /** Where {@code curtail-stats} and {@code curtail-ab} write their per-block statistics. */
    final String statsDir;
    /** The A/B cohorts {@code curtail-ab} runs, as {@code curtail.ab.cohorts}; empty, none. */
    final String cohorts;

    public Options(long hedgeThresholdMillis) {
      this(hedgeThresholdMillis, Collections.singletonList(hedgeThresholdMillis),
          new File(System.getProperty("java.io.tmpdir"), "curtail-bench-stats").getPath(), "");
    }

    public Options(long hedgeThresholdMillis, List<Long> stockBestThresholdsMillis,
        String statsDir, String cohorts) {
      this.hedgeThresholdMillis = hedgeThresholdMillis;
      this.stockBestThresholdsMillis = stockBestThresholdsMillis;
      this.statsDir = statsDir;
      this.cohorts = cohorts;
    }
  }

  private final String label;
  private final boolean faulty;

  Mode(String label, boolean faulty) {
    this.label = label;
    this.faulty = faulty;
  }

  /** Sets the client side of this mode on {@code conf}. */
  public abstract void configure(Configuration conf, Options o);

  /** Whether comparing this mode in {@code s} says anything (e.g. stock hedging needs reads). */
  boolean appliesTo(Scenario s) {
    return true;
  }

  /**
   * NameNode and DataNode settings this mode's cluster needs; empty (the default) runs it on the
   * cluster every other mode shares.
   */
  Map<String, String> clusterSettings() {
    return Collections.emptyMap();
  }

  /** Whether this mode says nothing unless the benchmark starts its cluster with its settings. */
  boolean needsItsCluster() {
    return false;
  }

  /**
   * The variants this mode runs as in {@code s}, a batch each: by the suffix of their label, the
   * client settings each sets over {@link #configure}'s. The default is one, the mode itself.
   */
  Map<String, Map<String, String>> variants(Scenario s, Options o) {
    return Collections.singletonMap("", Collections.emptyMap());
  }

  /**
   * For each cohort of {@code cohorts} (a {@code curtail.ab.cohorts} value), in order, a host name
   * the cohorts place in it: {@code bench-host-1}, {@code bench-host-2}, … as hashed.
   *
   * @throws IllegalArgumentException naming a bad definition, or a cohort no host falls in
   */
  static Map<String, String> cohortHosts(String cohorts) {
    Map<String, String> settings = new HashMap<>();
    settings.put("curtail.ab.cohorts", cohorts);
    Map<String, String> found = new HashMap<>();
    List<String> names;
    try {
      names = CurtailConfig.from(settings).cohorts();
      for (int i = 1; i <= 10_000 && found.size() < names.size(); i++) {
        settings.put("curtail.ab.host", "bench-host-" + i);
        found.putIfAbsent(CurtailConfig.from(settings).cohort(), "bench-host-" + i);
      }
    } catch (InvalidConfigException e) {
      throw new IllegalArgumentException("--cohorts: " + e.getMessage(), e);
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String n : names) {
      if (!found.containsKey(n)) {
        throw new IllegalArgumentException("--cohorts: no host falls in cohort " + n);
      }
      out.put(n, found.get(n));
    }
    return out;
  }

  /** Whether the DataNodes run Curtail's plugin while this mode runs (stock-plain-dn: no). */
  boolean pluginOnDataNodes() {
    return true;
  }

  /**
   * Undoes what this mode left in the JVM that would change how the next mode runs; nothing by
   * default (every Curtail batch starts cold with a knowledge scope of its own, see
   * {@code Runner}).
   */
  void afterBatch() {
  }

  /** Whether the scenario's fault is injected while this mode runs. */
  public boolean faulty() {
    return faulty;
  }

  public String label() {
    return label;
  }

  /**
   * The modes named in {@code csv}, in catalogue order: every mode for "all", and for null those a
   * run compares by default (all but the ablations, {@code stock-hedged}, which {@code stock-best}
   * contains, and {@code curtail-static}).
   *
   * @throws IllegalArgumentException listing the known labels
   */
  public static List<Mode> parse(String csv) {
    List<Mode> out = new ArrayList<>();
    if (csv == null || csv.trim().equals("all")) {
      for (Mode m : values()) {
        if (csv != null || (m != STOCK_HEDGED && m != CURTAIL_STATIC)) {
          out.add(m);
        }
      }
      return out;
    }
    for (String name : csv.split(",")) {
      Mode m = byLabel(name.trim());
      if (!out.contains(m)) {
        out.add(m);
      }
    }
    out.sort(null);
    return out;
  }

  static Mode byLabel(String label) {
    for (Mode m : values()) {
      if (m.label.equals(label.toLowerCase(Locale.ROOT))) {
        return m;
      }
    }
    List<String> labels = new ArrayList<>();
    Arrays.stream(values()).forEach(m -> labels.add(m.label));
    throw new IllegalArgumentException("unknown mode '" + label + "'; modes are "
        + String.join(", ", labels));
  }

  @Override
  public String toString() {
    return label;
  }
}
