package io.curtail.tools.stats;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The analyzer's table of per-block statistics: which group a record falls in ("cohort
 * direction"), what a group adds up, and its row. Shared by the local analyzer
 * ({@link StatsAnalyzer}) and its MapReduce form ({@link StatsJob}), so the two give the same
 * rows and neither needs the other.
 */
public final class CohortTable {
  /** The table's header lines. */
  public static final List<String> HEADER = List.of(
      "| cohort | dir | count | MiB | p50 ms | p90 ms | p99 ms | p99.9 ms | MiB/s p50"
          + " | hedges/blk | won/blk | repl/blk | aborts |",
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");

  private CohortTable() {
  }

  /** Blocks of one cohort in one direction. */
  public static final class Group {
    final List<Long> nanos = new ArrayList<>();
    final List<Double> mibPerSecond = new ArrayList<>();
    long bytes;
    long hedges;
    long hedgesWon;
    long replacements;
    long rebuildAborts;

    /** Adds one record. */
    public void add(JsonNode r) {
      nanos.add(Math.round(r.get("duration_ms").asDouble() * 1e6));
      mibPerSecond.add(r.get("mib_s").asDouble());
      bytes += r.get("bytes").asLong();
      hedges += r.get("hedges").get("tried").asLong();
      hedgesWon += r.get("hedges").get("won").asLong();
      replacements += r.get("replacements").size();
      rebuildAborts += r.get("rebuild_aborts").asLong();
    }
  }

  /**
   * The group a record belongs to: "cohort direction", the direction {@code read-file} or
   * {@code write-file} for a record of a whole file, {@code write-group} for an erasure-coded
   * block group (only Curtail's cohorts record those: never compared with blocks).
   */
  public static String groupKey(JsonNode r) {
    JsonNode cohort = r.get("cohort");
    String name = cohort == null || cohort.isNull() ? "(no cohort)" : cohort.asText();
    JsonNode level = r.get("level");
    String kind = level == null ? "block" : level.asText();
    return name + " " + r.get("dir").asText()
        + (kind.equals("file") || kind.equals("group") ? "-" + kind : "");
  }

  /** The comparison as a Markdown table. */
  public static List<String> table(Map<String, Group> groups) {
    List<String> t = new ArrayList<>(HEADER);
    groups.forEach((key, g) -> t.add(row(key, g)));
    return t;
  }

  /** The table's row for the group {@code key} ({@link #groupKey}). */
  public static String row(String key, Group g) {
    int space = key.lastIndexOf(' ');
    Latencies l = Latencies.of(g.nanos);
    List<Double> rates = new ArrayList<>(g.mibPerSecond);
    rates.sort(null);
    double n = g.nanos.size();
    return String.format(Locale.ROOT,
        "| %s | %s | %d | %.1f | %.2f | %.2f | %.2f | %.2f | %.1f | %.3f | %.3f | %.3f | %d |",
        key.substring(0, space), key.substring(space + 1), g.nanos.size(),
        g.bytes / 1048576.0, l.percentileMs(0.5), l.percentileMs(0.9), l.percentileMs(0.99),
        l.percentileMs(0.999), rates.get(rates.size() / 2), g.hedges / n, g.hedgesWon / n,
        g.replacements / n, g.rebuildAborts);
  }

  /** {@code path} itself if a file, else the {@code *.jsonl} files directly in it. */
  public static List<FileStatus> list(FileSystem fs, Path path) throws IOException {
    List<FileStatus> out = new ArrayList<>();
    FileStatus s = fs.getFileStatus(path);
    if (s.isFile()) {
      out.add(s);
      return out;
    }
    for (FileStatus f : fs.listStatus(path)) {
      if (f.isFile() && f.getPath().getName().endsWith(".jsonl")) {
        out.add(f);
      }
    }
    return out;
  }
}
