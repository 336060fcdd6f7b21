package io.curtail.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The calibration takes the benchmark's own results directory and sets itself beside it. */
class CalibrationTest {
  private static void write(File f, String... lines) throws IOException {
    Files.write(f.toPath(), String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsTheBenchmarksSummarySamplesAndIntervals(@TempDir File dir) throws IOException {
    write(new File(dir, "summary.csv"),
        "scenario,mode,files,p50_ms,p90_ms,p99_ms,p999_ms",
        "write-slow-disk,oracle,4,100.5,300,500.25,500.25",
        "write-slow-disk,curtail,0,,,,");
    write(new File(dir, "samples.csv"),
        "scenario,mode,round,client,file,op,start_s,latency_ms,bytes",
        "write-slow-disk,oracle,0,0,0,write,1.0,100.5,4",
        "write-slow-disk,oracle,0,0,1,write,1.1,399.9,4",
        "write-slow-disk,oracle,0,1,0,write,1.0,400.0,4",
        "write-slow-disk,oracle,0,1,1,write,1.2,500.25,4");
    write(new File(dir, "intervals.csv"),
        "scenario,figure,mode,vs,files,files_vs,value,low,high",
        "write-slow-disk,p99_ms_all,oracle,,4,,500.25,100,500.25",
        "write-slow-disk,p99_ratio_all,curtail,oracle,4,4,0.9,0.7,1.3");
    Measured m = Measured.read(dir);
    Measured.Figures f = m.get("write-slow-disk", "oracle");
    assertEquals(4, f.files());
    assertEquals(100.5, f.p50Ms());
    assertEquals(500.25, f.p99Ms());
    assertEquals(0.5, f.over400(), "two of four files took 400 ms or more");
    assertNull(m.get("write-slow-disk", "curtail"), "a mode without files is left out");
    assertArrayEquals(new double[] {0.7, 1.3},
        m.p99RatioInterval("write-slow-disk", "curtail", "oracle"));
    Measured byFile = Measured.read(new File(dir, "summary.csv"));
    assertEquals(f, byFile.get("write-slow-disk", "oracle"), "the directory or its summary.csv");
    assertArrayEquals(new double[] {0.7, 1.3},
        byFile.p99RatioInterval("write-slow-disk", "curtail", "oracle"));
  }

  @Test
  void aFileThatIsNotTheBenchmarksSaysWhatItExpected(@TempDir File dir) throws IOException {
    write(new File(dir, "summary.csv"), "name,p50");
    IOException e = assertThrows(IOException.class, () -> Measured.read(dir));
    assertTrue(e.getMessage().contains("no column 'scenario'"), e.getMessage());
  }

  @Test
  void theCommandPutsTheHealthyModeBesideTheMeasured(@TempDir File dir) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int rc = Main.run(new String[] {"calibrate", "--seeds", "1", "--modes", "oracle", "--out",
        dir.getPath()}, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, out);
    String md = Files.readString(new File(dir, "report.md").toPath());
    for (String scenario : new String[] {"read-throttled", "pread-throttled", "write-slow-disk"}) {
      assertTrue(md.contains("| " + scenario + " | healthy (bench: oracle) |"), md);
    }
    assertTrue(md.contains("0 of 0 met"), "one mode alone has no ratio to judge: " + md);
  }

  /**
   * The client judges every open pipeline at its periodic look, acks or not: on the benchmark's
   * host, a pipeline whose acks queue behind the slow disk's other writers is replaced long
   * before its own fourth ack, as the client's is.
   */
  @Test
  void aPipelineWaitingBehindASlowDiskIsJudgedAtTheClientsLook() {
    Calibration.Scenario sc = Calibration.SCENARIOS[2];
    assertEquals("write-slow-disk", sc.name());
    double looking = writeP90(sc, Policy.defaults());
    double notLooking = writeP90(sc, Policy.defaults().with("failfast-check-ms", 600_000));
    assertTrue(looking < 0.8 * notLooking, "p90 " + looking + " ms with the client's looks, "
        + notLooking + " without");
  }

  private static double writeP90(Calibration.Scenario sc, Policy policy) {
    Hardware hw = Calibration.benchHost();
    Simulation run = new Simulation(Calibration.setup(sc, hw, 1, true), Mode.CURTAIL, policy,
        true).likeTheBenchmark().filesPlacedBy(Calibration.filesSeed(sc, 1));
    return run.run().quantileMs(Metrics.Op.WRITE, 0.9);
  }

  @Test
  void aSeedsRoundsAndModesReadTheSameFilesWhereverTheyAre() {
    Calibration.Scenario sc = Calibration.SCENARIOS[1];
    Hardware hw = Calibration.benchHost();
    int seed = 3;
    long files = Calibration.filesSeed(sc, seed);
    Simulation round0 = new Simulation(Calibration.setup(sc, hw, 1000, true), Mode.STOCK,
        Policy.defaults(), true).likeTheBenchmark().filesPlacedBy(files);
    Simulation round1 = new Simulation(Calibration.setup(sc, hw, 1001, false), Mode.CURTAIL,
        Policy.defaults(), true).likeTheBenchmark().filesPlacedBy(files);
    assertTrue(java.util.Arrays.deepEquals(round0.catalogue, round1.catalogue),
        "another round and mode, the same placement");
    Simulation other = new Simulation(Calibration.setup(sc, hw, 1000, true), Mode.STOCK,
        Policy.defaults(), true).likeTheBenchmark()
        .filesPlacedBy(Calibration.filesSeed(Calibration.SCENARIOS[0], seed));
    assertTrue(!java.util.Arrays.deepEquals(round0.catalogue, other.catalogue),
        "another scenario's files are others");
  }

  @Test
  void theSamplesAreEveryFileAsTheBenchmarksAre(@TempDir File dir) throws Exception {
    File samples = new File(dir, "samples.csv");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int rc = Main.run(new String[] {"calibrate", "--seeds", "1", "--modes", "oracle", "--out",
        dir.getPath(), "--samples", samples.getPath()}, new PrintStream(bytes, true,
        StandardCharsets.UTF_8));
    assertEquals(0, rc, bytes.toString(StandardCharsets.UTF_8));
    java.util.List<String> lines = Files.readAllLines(samples.toPath());
    assertEquals(Calibration.SAMPLES_HEADER, lines.get(0));
    // The fitted run's rounds: 9 of 36 files read in each read scenario, 9 of 24 written.
    assertEquals(1 + 2 * 9 * 36 + 9 * 24, lines.size());
    String[] row = lines.get(1).split(",");
    assertEquals(10, row.length, lines.get(1));
    assertEquals("read-throttled", row[0]);
    assertEquals("oracle", row[1]);
    assertEquals("read", row[6]);
    assertTrue(Double.parseDouble(row[8]) > 0, lines.get(1));
  }
}
