package io.curtail.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.curtail.bench.blame.Blame;
import io.curtail.bench.blame.Incident;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Reads the per-block statistics Curtail's clients wrote ({@code curtail.stats.dir}) and compares
 * the A/B cohorts in them, as the paper's authors compared theirs (§6.1): per cohort and
 * direction, the count of blocks, block time and throughput percentiles, hedges and replacements
 * per block; printed as a table, and written as a Markdown report with a CDF of block time per
 * direction. Takes local paths or any Hadoop file system's ({@code hdfs://…}), files or
 * directories of {@code *.jsonl}. With {@code --mapreduce} the grouping runs as a MapReduce job
 * ({@link io.curtail.bench.mr.StatsJob}), for a cluster's logs: the same table, without plots.
 */
@Command(name = "stats", mixinStandardHelpOptions = true,
    description = "Compares A/B cohorts in per-block statistics (curtail.stats.dir).")
public final class StatsAnalyzer implements Callable<Integer> {
  @Parameters(paramLabel = "PATH", arity = "1..*",
      description = "Statistics files or directories, local or hdfs://…")
  List<String> paths = new ArrayList<>();

  @Option(names = "--out", description = "Where the report and plots go (default: stats-report).")
  File out = new File("stats-report");

  @Option(names = "--mapreduce", description = "Group the records in a MapReduce job (on the"
      + " framework the Hadoop configuration names; local by default): for a cluster's logs.")
  boolean mapReduce;

  @Option(names = "--labels", description = "An operator's labels of slow DataNodes and links,"
      + " one a line ('datanode ADDRESS FROM TO' or 'link ADDRESS ADDRESS FROM TO'; times ISO-8601"
      + " or epoch ms, '-' for still on): prints every cohort's decisions labelled against them,"
      + " precision and recall, HDFS's outlier rule beside them.")
  File labels;

  /** Each cohort's decisions labelled against {@link #labels}; empty without them. */
  private final Map<String, Blame> blames = new TreeMap<>();
  private List<Incident> incidents;

  private final PrintStream stdout;

  StatsAnalyzer(PrintStream stdout) {
    this.stdout = stdout;
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

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (!out.isDirectory() && !out.mkdirs()) {
      throw new IOException("cannot make " + out);
    }
    List<String> report = new ArrayList<>();
    report.add("# Curtail per-block statistics by cohort");
    report.add("");
    report.add("From: " + String.join(", ", paths));
    report.add("");
    if (labels != null) {
      if (mapReduce) {
        throw new IllegalArgumentException("--labels needs the records read here: it does not"
            + " run with --mapreduce");
      }
      incidents = Incident.read(labels.toPath());
    }
    if (mapReduce) {
      List<String> lines = new ArrayList<>(HEADER);
      lines.addAll(io.curtail.bench.mr.StatsJob.rows(new Configuration(), paths, stdout));
      lines.forEach(stdout::println);
      report.addAll(lines);
      return writeReport(report);
    }
    Map<String, Group> groups = read();
    List<String> lines = table(groups);
    if (!blames.isEmpty()) {
      lines.add("");
      lines.addAll(Blame.header("cohort"));
      blames.forEach((cohort, b) -> lines.add(b.row(cohort)));
      lines.add("");
      lines.add(Blame.legend());
    }
    lines.forEach(stdout::println);
    report.addAll(lines);
    for (String dir : new String[] {"read", "write", "read-file", "write-file"}) {
      List<String> cohorts = new ArrayList<>();
      List<List<Double>> ms = new ArrayList<>();
      groups.forEach((key, g) -> {
        if (key.endsWith(" " + dir)) {
          cohorts.add(key.substring(0, key.length() - dir.length() - 1));
          List<Double> l = new ArrayList<>();
          g.nanos.forEach(n -> l.add(n / 1e6));
          ms.add(l);
        }
      });
      if (!cohorts.isEmpty()) {
        File png = new File(out, (dir.endsWith("-file") ? "file-" + dir.replace("-file", "")
            : "block-" + dir) + "-cdf.png");
        Plots.cdf((dir.endsWith("-file") ? "File " + dir.replace("-file", "") : "Block " + dir)
            + " time by cohort", cohorts, ms, png);
        report.add("");
        report.add("![" + dir + "](" + png.getName() + ")");
      }
    }
    return writeReport(report);
  }

  private int writeReport(List<String> report) throws IOException {
    Files.write(new File(out, "report.md").toPath(), report, StandardCharsets.UTF_8);
    stdout.println("Report: " + new File(out, "report.md").getAbsolutePath());
    return 0;
  }

  /**
   * The group a record belongs to: "cohort direction", the direction {@code read-file} or
   * {@code write-file} for a record of a whole file.
   */
  public static String groupKey(JsonNode r) {
    JsonNode cohort = r.get("cohort");
    String name = cohort == null || cohort.isNull() ? "(no cohort)" : cohort.asText();
    JsonNode level = r.get("level");
    boolean file = level != null && level.asText().equals("file");
    return name + " " + r.get("dir").asText() + (file ? "-file" : "");
  }

  /** Every record under the paths, grouped by "cohort direction". */
  Map<String, Group> read() throws IOException {
    Map<String, Group> groups = new TreeMap<>();
    ObjectMapper json = new ObjectMapper();
    Configuration conf = new Configuration();
    for (String p : paths) {
      Path path = new Path(p);
      FileSystem fs = path.getFileSystem(conf);
      for (FileStatus f : list(fs, path)) {
        try (BufferedReader in = new BufferedReader(
            new InputStreamReader(fs.open(f.getPath()), StandardCharsets.UTF_8))) {
          int n = 0;
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            n++;
            if (line.isEmpty()) {
              continue;
            }
            JsonNode r;
            try {
              r = json.readTree(line);
            } catch (IOException e) {
              throw new IOException(f.getPath() + " line " + n + " is not a statistics record: "
                  + e.getMessage(), e);
            }
            groups.computeIfAbsent(groupKey(r), k -> new Group()).add(r);
            if (incidents != null) {
              String key = groupKey(r);
              blames.computeIfAbsent(key.substring(0, key.lastIndexOf(' ')),
                  k -> new Blame(incidents)).add(r);
            }
          }
        }
      }
    }
    return groups;
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

  /** The table's header lines. */
  static final List<String> HEADER = List.of(
      "| cohort | dir | count | MiB | p50 ms | p90 ms | p99 ms | p99.9 ms | MiB/s p50"
          + " | hedges/blk | won/blk | repl/blk | aborts |",
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");

  /** The comparison as a Markdown table. */
  static List<String> table(Map<String, Group> groups) {
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
}
