package io.curtail.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;
import org.junit.jupiter.api.Test;

/** Mistakes a user can make get one clear line on stderr, not a stack trace. */
class CliErrorsTest {
  private String err;
  private int code;

  private void run(String... args) throws UnsupportedEncodingException {
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    code = Main.run(args, new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"),
        new PrintStream(e, true, "UTF-8"), false);
    err = e.toString("UTF-8").trim();
  }

  @Test
  void unknownScenario() throws Exception {
    run("--scenario", "nope");
    assertEquals(2, code);
    // The catalogue in order, the default run's first, then each group's; then the groups.
    assertTrue(err.startsWith("curtail-bench: unknown scenario 'nope'; scenarios are healthy,"
        + " healthy-read, healthy-blocks,"), err);
    assertTrue(err.contains(" mixed, healthy-local, read-slow-local-disk, write-slow-first,"), err);
    assertTrue(err.endsWith("; groups are all, default, kinds, ec"), err);
  }

  @Test
  void faultCommandsNeedARealCluster() throws Exception {
    run("--fault-on", "true", "--fault-off", "true");
    assertEquals(2, code);
    assertEquals("curtail-bench: --fault-on needs --fs: the embedded cluster injects each"
        + " scenario's own fault", err);
  }

  @Test
  void dataNodeAddressesNeedARealClusterAndAPipelinesWorth() throws Exception {
    run("--datanodes", "10.0.0.1:9866,10.0.0.2:9866,10.0.0.3:9866");
    assertEquals(2, code);
    assertEquals("curtail-bench: --datanodes needs --fs: the embedded cluster injects each"
        + " scenario's own fault", err);
    run("--fs", "hdfs://127.0.0.1:1", "--datanodes", "10.0.0.1:9866,10.0.0.2:9866");
    assertEquals(2, code);
    assertEquals("curtail-bench: --datanodes must name at least 3 DataNodes (a pipeline's), was"
        + " [10.0.0.1:9866, 10.0.0.2:9866]", err);
  }

  @Test
  void soakOnTooFewDataNodes() throws Exception {
    run("soak", "--data-nodes", "3");
    assertEquals(2, code);
    assertEquals("curtail-bench: --data-nodes must be at least 5, was 3", err);
  }

  @Test
  void interleavingAFaultOrTwoClusters() throws Exception {
    run("--interleave", "--scenario", "healthy,read-throttled", "--mode", "stock,curtail");
    assertEquals(2, code);
    assertEquals("curtail-bench: --interleave needs scenarios without a fault or a pace;"
        + " read-throttled has a fault", err);
    run("--interleave", "--scenario", "healthy-read", "--mode", "stock,stock-best");
    assertEquals(2, code);
    assertEquals("curtail-bench: --interleave needs modes on one cluster and DataNodes; stock"
        + " and stock-best differ", err);
  }

  @Test
  void unknownMode() throws Exception {
    run("--mode", "stock,turbo");
    assertEquals(2, code);
    assertEquals("curtail-bench: unknown mode 'turbo'; modes are stock, stock-hedged, stock-best,"
        + " curtail-static, curtail, curtail-best-cluster, curtail-stats, curtail-ab,"
        + " curtail-no-reports, stock-plain-dn, oracle", err);
  }

  @Test
  void badCohorts() throws Exception {
    run("--cohorts", "a=50:none,b=40:failfast");
    assertEquals(2, code);
    assertTrue(err.startsWith("curtail-bench: --cohorts: Invalid Curtail setting"
        + " curtail.ab.cohorts='a=50:none,b=40:failfast': shares sum to 90, not 100"), err);
  }

  @Test
  void badStockBestThreshold() throws Exception {
    run("--stock-best-thresholds", "50,0");
    assertEquals(2, code);
    assertEquals("curtail-bench: --stock-best-thresholds must each be > 0 ms, was 0", err);
  }

  @Test
  void badUri() throws Exception {
    run("--fs", "http://example.com");
    assertEquals(2, code);
    assertEquals("curtail-bench: --fs must be an hdfs://host:port URI, was 'http://example.com'",
        err);
  }

  @Test
  void badCurtailSetting() throws Exception {
    run("-D", "curtail.slowness.factor=0.5");
    assertEquals(2, code);
    assertEquals("curtail-bench: Invalid Curtail setting curtail.slowness.factor='0.5': must be a"
        + " finite number > 1", err);
  }

  @Test
  void unreachableCluster() throws Exception {
    run("--fs", "hdfs://127.0.0.1:1");
    assertEquals(1, code);
    assertEquals(1, err.split("\n").length, err);
    assertEquals(true, err.startsWith("curtail-bench: cannot reach hdfs://127.0.0.1:1: "), err);
  }

  @Test
  void badNumberAndUnknownOption() throws Exception {
    run("--scale", "-1");
    assertEquals(2, code);
    assertEquals("curtail-bench: --scale must be > 0, was -1.0", err);
    run("--pace", "-5");
    assertEquals(2, code);
    assertEquals("curtail-bench: --pace must be >= 0 ms, was -5", err);
    run("--frobnicate");
    assertEquals(2, code);
    assertEquals("curtail-bench: Unknown option: '--frobnicate' (see --help)", err);
  }
}
