package io.curtail.tools.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The statistics analyzer: cohorts told apart, percentiles and per-block counts right. */
class StatsAnalyzerTest {
  @TempDir
  File dir;

  private static String record(String cohort, String dir, double ms, int hedges) {
    return String.format(Locale.ROOT, "{\"cohort\":%s,\"host\":\"h\",\"client\":\"c\","
        + "\"file\":\"/f\",\"block\":1,\"dir\":\"%s\",\"bytes\":1048576,\"start_ms\":0,"
        + "\"duration_ms\":%.3f,\"mib_s\":%.3f,\"datanodes\":[],\"hedges\":{\"tried\":%d,"
        + "\"won\":0,\"targets\":[]},\"replacements\":[],\"rebuild_ms\":0,\"rebuild_aborts\":0,"
        + "\"busy\":[]}", cohort == null ? "null" : "\"" + cohort + "\"", dir, ms, 1000 / ms,
        hedges);
  }

  @Test
  void cohortsComparedByDirection() throws Exception {
    List<String> a = new ArrayList<>();
    List<String> b = new ArrayList<>();
    for (int i = 1; i <= 100; i++) {
      a.add(record("control", "read", i, 0));
      b.add(record("smart", "read", i / 10.0, i % 2));
    }
    b.add(record("smart", "write", 50, 0));
    Files.write(new File(dir, "curtail-stats-h-1-1-00000.jsonl").toPath(), a);
    Files.write(new File(dir, "curtail-stats-h-2-1-00000.jsonl").toPath(), b);
    Files.write(new File(dir, "ignored.txt").toPath(), List.of("not a record"));
    File out = new File(dir, "report");
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    int code = StatsAnalyzer.run(new String[] {dir.getPath(), "--out", out.getPath()},
        new PrintStream(stdout, true, "UTF-8"), System.err);
    String table = stdout.toString("UTF-8");
    assertEquals(0, code, table);
    assertTrue(table.contains("| control | read | 100 | 100.0 | 50.00 | 90.00 | 99.00 | 100.00 |"),
        table);
    assertTrue(table.contains("| smart | read | 100 | 100.0 | 5.00 | 9.00 | 9.90 | 10.00 |"),
        table);
    assertTrue(table.contains("| 0.500 |"), table); // half the smart reads hedged once
    assertTrue(table.contains("| smart | write | 1 |"), table);
    assertTrue(new File(out, "block-read-cdf.png").isFile());
    assertTrue(new String(Files.readAllBytes(new File(out, "report.md").toPath()),
        StandardCharsets.UTF_8).contains("| control | read |"));
  }

  /** The MapReduce form (Hadoop's local runner here) gives the local analyzer's rows. */
  @Test
  void theMapReduceFormGivesTheSameTable() throws Exception {
    List<String> a = new ArrayList<>();
    for (int i = 1; i <= 50; i++) {
      a.add(record("control", "read", i, 0));
      a.add(record("smart", i % 3 == 0 ? "write" : "read", i / 7.0, i % 2));
    }
    a.add("{cut short");
    Files.write(new File(dir, "curtail-stats-h-1-1-00000.jsonl").toPath(), a.subList(0, 60));
    Files.write(new File(dir, "curtail-stats-h-2-1-00000.jsonl").toPath(),
        a.subList(60, a.size()));
    ByteArrayOutputStream mr = new ByteArrayOutputStream();
    assertEquals(0, StatsAnalyzer.run(new String[] {dir.getPath(), "--mapreduce", "--out",
        new File(dir, "mr").getPath()}, new PrintStream(mr, true, "UTF-8"), System.err));
    String table = mr.toString("UTF-8");
    assertTrue(table.contains("1 lines were not statistics records, skipped"), table);
    Files.write(new File(dir, "curtail-stats-h-2-1-00000.jsonl").toPath(),
        a.subList(60, a.size() - 1)); // the local analyzer stops at a bad line
    ByteArrayOutputStream local = new ByteArrayOutputStream();
    assertEquals(0, StatsAnalyzer.run(new String[] {dir.getPath(), "--out",
        new File(dir, "local").getPath()}, new PrintStream(local, true, "UTF-8"), System.err));
    List<String> rows = new ArrayList<>();
    for (String l : local.toString("UTF-8").split("\n")) {
      if (l.startsWith("| control") || l.startsWith("| smart")) {
        rows.add(l);
        assertTrue(table.contains(l), l + " missing from\n" + table);
      }
    }
    assertEquals(3, rows.size(), local.toString("UTF-8"));
  }

  @Test
  void aLineThatIsNoRecordIsNamed() throws Exception {
    Files.write(new File(dir, "x.jsonl").toPath(), List.of(record("a", "read", 1, 0), "{oops"));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = StatsAnalyzer.run(new String[] {dir.getPath(), "--out", dir.getPath() + "/r"},
        System.out, new PrintStream(err, true, "UTF-8"));
    assertEquals(1, code);
    assertTrue(err.toString("UTF-8").contains("x.jsonl line 2 is not a statistics record"),
        err.toString("UTF-8"));
  }

  /** A slow write replacement's record of cohort {@code smart}, in the format the client writes. */
  private static String replaced(String replaced, String pipeline, String p95s) {
    return "{\"cohort\":\"smart\",\"level\":\"block\",\"block\":1,\"dir\":\"write\","
        + "\"stream\":\"curtail\",\"bytes\":4194304,\"start_ms\":1000,\"duration_ms\":400.0,"
        + "\"mib_s\":10.0,\"datanodes\":[],\"hedges\":{\"tried\":0,\"won\":0,\"targets\":[],"
        + "\"from\":[]},\"replacements\":[{\"position\":0,\"replaced\":\"" + replaced
        + "\",\"by\":\"e:1\",\"reason\":\"slow\",\"evidence\":\"\",\"at_ms\":120.0,"
        + "\"acked\":262144,\"pipeline\":" + pipeline + ",\"p_us\":" + p95s + ",\"n\":[9,9,9]}],"
        + "\"rebuild_ms\":0,\"rebuild_aborts\":0,\"busy\":[]}";
  }

  /** An operator's labels: the one replacement of the labelled DataNode is right, the other not. */
  @Test
  void labelledIncidentsGiveEachCohortsPrecisionAndRecall() throws Exception {
    Files.write(new File(dir, "x.jsonl").toPath(), List.of(
        replaced("a:1", "[\"a:1\",\"c:1\",\"d:1\"]", "[40000,1200,1000]"),
        replaced("b:1", "[\"b:1\",\"c:1\",\"d:1\"]", "[1000,1100,1200]")));
    File labels = new File(dir, "labels");
    Files.write(labels.toPath(), List.of("# a's disk was failing all day",
        "datanode a:1 1970-01-01T00:00:00Z -"));
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    int code = StatsAnalyzer.run(new String[] {new File(dir, "x.jsonl").getPath(), "--labels",
        labels.getPath(), "--out", new File(dir, "r").getPath()},
        new PrintStream(stdout, true, "UTF-8"), System.err);
    String out = stdout.toString("UTF-8");
    assertEquals(0, code, out);
    // 2 replacements, 1 right; the one block through a:1 caught, 120 ms and 256 KiB in; one
    // wrong per 8 MiB: 128 a GiB. HDFS's rule on the pipeline flags a:1 (40 ms > 5 ms) alone;
    // with its defaults (10 peers) nobody
    assertTrue(out.contains("| smart | 2 | 0.50 (0.09–0.91) | 1.00 (0.21–1.00) | 1/0 | 120 | 256"
        + " | 128.00 | 1.00 of 1"
        + " | 1.00 | - of 0 | 0.00 | 0 | - | - |"), out);
  }
}
