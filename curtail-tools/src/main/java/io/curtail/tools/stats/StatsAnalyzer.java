package io.curtail.tools.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.curtail.tools.blame.Blame;
import io.curtail.tools.blame.Incident;
import io.curtail.tools.stats.CohortTable.Group;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
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
import picocli.CommandLine;
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
 * ({@link StatsJob}), for a cluster's logs: the same table, without plots.
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

  /** The analyzer printing its table on {@code stdout}; also the benchmark's {@code stats}. */
  public StatsAnalyzer(PrintStream stdout) {
    this.stdout = stdout;
  }

  /** {@code java -jar curtail-tools/target/curtail-tools.jar PATH… [options]}. */
  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs the analyzer with {@code args}; returns the exit code (0 ok, 1 failed, 2 usage). A
   * mistake gets one line on {@code stderr} saying what was wrong.
   */
  static int run(String[] args, PrintStream stdout, PrintStream stderr) {
    return new CommandLine(new StatsAnalyzer(stdout))
        .setOut(new PrintWriter(stdout, true))
        .setErr(new PrintWriter(stderr, true))
        .setParameterExceptionHandler((e, a) -> {
          stderr.println("stats: " + e.getMessage() + " (see --help)");
          return 2;
        })
        .setExecutionExceptionHandler((e, cmd, parsed) -> {
          String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
          stderr.println("stats: " + m.split("\n")[0]);
          return e instanceof IllegalArgumentException ? 2 : 1;
        })
        .execute(args);
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
      List<String> lines = new ArrayList<>(CohortTable.HEADER);
      lines.addAll(StatsJob.rows(new Configuration(), paths, stdout));
      lines.forEach(stdout::println);
      report.addAll(lines);
      return writeReport(report);
    }
    Map<String, Group> groups = read();
    List<String> lines = CohortTable.table(groups);
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

  /** Every record under the paths, grouped by "cohort direction". */
  Map<String, Group> read() throws IOException {
    Map<String, Group> groups = new TreeMap<>();
    ObjectMapper json = new ObjectMapper();
    Configuration conf = new Configuration();
    for (String p : paths) {
      Path path = new Path(p);
      FileSystem fs = path.getFileSystem(conf);
      for (FileStatus f : CohortTable.list(fs, path)) {
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
            groups.computeIfAbsent(CohortTable.groupKey(r), k -> new Group()).add(r);
            if (incidents != null) {
              String key = CohortTable.groupKey(r);
              blames.computeIfAbsent(key.substring(0, key.lastIndexOf(' ')),
                  k -> new Blame(incidents)).add(r);
            }
          }
        }
      }
    }
    return groups;
  }
}
