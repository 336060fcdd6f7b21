package io.curtail.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end at small scale (seconds): 60 DataNodes in 3 racks, 60 clients, 6 of the DataNodes
 * slow with the benchmark's faults. The experiment: does Curtail's read tail beat stock's and
 * stay near the oracle's, at the load the budget allows, and is a run a function of its seed?
 */
class SimulationTest {
  private static Setup small(double fraction, long seed) {
    Workload w = new Workload(2, 1, 1, 4 * Workload.MIB, Workload.MIB, 16 * Workload.MIB,
        1_000_000_000L, 0);
    return new Setup(60, 3, 60, 10, true, 120, w, FaultPlan.mix(fraction), Hardware.datacentre(),
        60_000_000_000L, 10_000_000_000L, seed, 0);
  }

  @Test
  void curtailCutsTheReadTailThatStockHasAtTheBudgetsLoad() {
    Setup s = small(0.1, 7);
    Metrics stock = new Simulation(s, Mode.STOCK, Policy.defaults()).run();
    Metrics curtail = new Simulation(s, Mode.CURTAIL, Policy.defaults()).run();
    Metrics oracle = new Simulation(s, Mode.ORACLE, Policy.defaults()).run();
    double stockP99 = stock.quantileMs(Metrics.Op.READ, 0.99);
    double curtailP99 = curtail.quantileMs(Metrics.Op.READ, 0.99);
    double oracleP99 = oracle.quantileMs(Metrics.Op.READ, 0.99);
    assertTrue(stock.count(Metrics.Op.READ) > 1000, "enough reads: " + stock.count(Metrics.Op.READ));
    assertTrue(curtailP99 < stockP99 / 3, "curtail p99 " + curtailP99 + " vs stock " + stockP99);
    assertTrue(oracleP99 < stockP99 / 3, "oracle p99 " + oracleP99 + " vs stock " + stockP99);
    assertTrue(curtail.hedgesTried() > 0 && curtail.hedgesWon() > 0, "curtail hedged");
    assertEquals(0, stock.hedgesTried(), "stock never hedges");
    // At most the budget (a tenth of packets) plus its burst per JVM, in packets of 64 KiB.
    assertTrue(curtail.hedgedShare() <= 0.1 + 0.01, "hedged share " + curtail.hedgedShare());
  }

  @Test
  void aHealthyClusterHedgesAndReplacesNothing() {
    Metrics curtail = new Simulation(small(0, 3), Mode.CURTAIL, Policy.defaults()).run();
    assertEquals(0, curtail.replacementsPerBlock(), 1e-9, "no replacement without a slow node");
    assertTrue(curtail.hedgedShare() < 0.01, "hedged share " + curtail.hedgedShare());
  }

  @Test
  void aRunIsAFunctionOfItsSeed() {
    Metrics a = new Simulation(small(0.1, 11), Mode.CURTAIL, Policy.defaults()).run();
    Metrics b = new Simulation(small(0.1, 11), Mode.CURTAIL, Policy.defaults()).run();
    Metrics c = new Simulation(small(0.1, 12), Mode.CURTAIL, Policy.defaults()).run();
    assertEquals(a.packets(), b.packets());
    assertEquals(a.hedgesTried(), b.hedgesTried());
    assertEquals(a.quantileMs(Metrics.Op.READ, 0.99), b.quantileMs(Metrics.Op.READ, 0.99));
    assertEquals(a.quantileMs(Metrics.Op.WRITE, 0.5), b.quantileMs(Metrics.Op.WRITE, 0.5));
    assertTrue(a.packets() != c.packets() || a.hedgesTried() != c.hedgesTried(),
        "another seed, another run");
  }

  @Test
  void theCommandWritesItsReport(@TempDir File dir) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int rc = Main.run(new String[] {"simulate", "--datanodes", "30", "--minutes", "1",
        "--warmup-s", "10", "--pace-ms", "2000", "--fraction", "0.1", "--modes", "stock,curtail",
        "--out", dir.getPath()}, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, out);
    assertTrue(out.contains("packets/s"), out);
    String md = Files.readString(new File(dir, "report.md").toPath());
    assertTrue(md.contains("| simulate | slow share | 0.100 | curtail |"), md);
    assertEquals(3, Files.readAllLines(new File(dir, "results.csv").toPath()).size(),
        "a header and one row per mode");
  }

  @Test
  void helpNamesTheCommands() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    assertEquals(0, Main.run(new String[] {"--help"}, new PrintStream(bytes, true,
        StandardCharsets.UTF_8)));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(out.contains("simulate") && out.contains("study") && out.contains("calibrate"));
  }

  @Test
  void aMisspeltOptionIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Main.run(new String[] {"simulate", "--datanode", "10"}, System.out));
    assertEquals("unknown option '--datanode' (--help lists them)", e.getMessage());
  }
}
