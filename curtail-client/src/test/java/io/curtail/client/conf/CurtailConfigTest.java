package io.curtail.client.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CurtailConfigTest {

  @Test
  void defaultsAreThePapers() {
    CurtailConfig c = CurtailConfig.defaults();
    assertTrue(c.writeFailFastEnabled());
    assertEquals(HedgingMode.SMART, c.readHedging());
    assertEquals(TimeUnit.MILLISECONDS.toNanos(500), c.staticHedgeThresholdNanos());
    assertEquals(0.95, c.slownessPercentile());
    assertEquals(3.0, c.slownessFactor());
    assertEquals(100, c.writeWindowPackets());
    assertEquals(20, c.readWindowPackets());
    assertEquals(5, c.writeFailFastMaxAttempts());
    assertEquals(3, c.readHedgingMaxRetries());
    assertEquals(TimeUnit.MILLISECONDS.toNanos(25), c.minHedgeThresholdNanos());
    assertEquals(0.1, c.hedgeBudgetRatio()); // Brooker's and grpc-java's share
    assertEquals(10, c.hedgeBudgetBurst());
    assertFalse(c.allTechniquesOff());
  }

  @Test
  void readsHadoopConfigurationTrimmedAndCaseInsensitiveWhereSensible() {
    Configuration conf = new Configuration(false);
    conf.set("curtail.read.hedging", " Static ");
    conf.set("curtail.write.failfast.enabled", "FALSE");
    conf.set("curtail.slowness.factor", "2.5");
    conf.set("curtail.read.window.packets", "512");
    conf.set("unrelated.key", "whatever");
    CurtailConfig c = CurtailConfig.from(conf);
    assertEquals(HedgingMode.STATIC, c.readHedging());
    assertFalse(c.writeFailFastEnabled());
    assertEquals(2.5, c.slownessFactor());
    assertEquals(512, c.readWindowPackets());
  }

  @Test
  void everythingOffIsRecognised() {
    Map<String, String> m = new HashMap<>();
    m.put("curtail.write.failfast.enabled", "false");
    m.put("curtail.read.hedging", "off");
    assertTrue(CurtailConfig.from(m).allTechniquesOff());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "curtail.slowness.percentile | 1.5 | must be a number in (0, 1)",
      "curtail.slowness.percentile | 0 | must be a number in (0, 1)",
      "curtail.slowness.percentile | 1 | must be a number in (0, 1)",
      "curtail.slowness.percentile | NaN | must be a number in (0, 1)",
      "curtail.slowness.percentile | high | must be a number in (0, 1)",
      "curtail.slowness.factor | 1 | must be a finite number > 1",
      "curtail.slowness.factor | 0.5 | must be a finite number > 1",
      "curtail.slowness.factor | Infinity | must be a finite number > 1",
      "curtail.write.window.packets | 0 | must be a whole number in [1, 512]",
      "curtail.write.window.packets | 513 | must be a whole number in [1, 512]",
      "curtail.read.window.packets | 2.5 | must be a whole number in [1, 512]",
      "curtail.read.hedging | fast | must be one of off, static, smart",
      "curtail.write.failfast.enabled | yes | must be true or false",
      "curtail.write.failfast.max.attempts | 0 | must be a whole number in [1, 100]",
      "curtail.read.hedging.max.retries | -1 | must be a whole number in [0, 30]",
      "curtail.read.hedging.static.threshold.ms | 0 | must be a whole number in [1, 3600000]",
      "curtail.read.hedging.backoff.packets | 0 | must be a whole number in [1, 1048576]",
      "curtail.read.hedging.min.threshold.ms | -1 | must be a whole number in [0, 3600000]",
      "curtail.read.hedging.budget.ratio | 0 | must be a number in (0, 1]",
      "curtail.read.hedging.budget.ratio | 1.5 | must be a number in (0, 1]",
      "curtail.read.hedging.budget.ratio | NaN | must be a number in (0, 1]",
      "curtail.read.hedging.budget.burst | 0 | must be a whole number in [1, 1048576]",
      "curtail.write.failfast.reconstruction.min.timeout.ms | -5 | must be a whole number in [1, 3600000]",
      "curtail.read.namenode.load | on | must be true or false",
      "curtail.read.namenode.load.factor | 1 | must be a finite number > 1",
      "curtail.read.namenode.load.margin | 0 | must be a whole number in [1, 1048576]",
      "curtail.read.namenode.load.stale.ms | 0 | must be a whole number in [1, 86400000]",
  })
  void badValuesNameKeyRuleAndValue(String key, String value, String rule) {
    Configuration conf = new Configuration(false);
    conf.set(key, value);
    InvalidConfigException e =
        assertThrows(InvalidConfigException.class, () -> CurtailConfig.from(conf));
    assertEquals(key, e.key());
    assertEquals("Invalid Curtail setting " + key + "='" + value + "': " + rule, e.getMessage());
  }

  @Test
  void unknownClientKeyIsRejectedButDataNodeKeysAreLeftAlone() {
    Configuration conf = new Configuration(false);
    conf.set("curtail.datanode.fault.disk.service.us", "100");
    CurtailConfig.from(conf); // fine
    conf.set("curtail.read.hedgeing", "off");
    InvalidConfigException e =
        assertThrows(InvalidConfigException.class, () -> CurtailConfig.from(conf));
    assertEquals("curtail.read.hedgeing", e.key());
    assertTrue(e.getMessage().contains("unknown key; did you mean curtail.read.hedging?"),
        e.getMessage());
    conf.unset("curtail.read.hedgeing");
    conf.set("curtail.read.hedging.max.inflight", "4");
    e = assertThrows(InvalidConfigException.class, () -> CurtailConfig.from(conf));
    assertTrue(e.getMessage().contains("did you mean curtail.read.hedging.max.in.flight?"),
        e.getMessage());
  }

  /**
   * docs/configuration.md is where users look keys up (the unknown-key message sends them there):
   * every key must have its row with the default this enum gives, and no row may name a key the
   * client would refuse (the DataNode's keys are on docs/datanode-plugin.md).
   */
  @Test
  void configurationPageDocumentsEveryKeyWithItsDefault() throws IOException {
    String page = new String(Files.readAllBytes(Paths.get("..", "docs", "configuration.md")),
        StandardCharsets.UTF_8);
    for (CurtailKey k : CurtailKey.values()) {
      String row = "| `" + k.key() + "` | `" + k.defaultValue() + "` |";
      assertTrue(page.contains(row), "docs/configuration.md lacks the row starting " + row);
    }
    Matcher m = Pattern.compile("(?m)^\\| `(curtail\\.[^`]+)` \\|").matcher(page);
    int rows = 0;
    while (m.find()) {
      rows++;
      String key = m.group(1);
      assertTrue(CurtailKey.byName(key) != null,
          "docs/configuration.md has a row for " + key + ", which is no CurtailKey");
    }
    assertEquals(CurtailKey.values().length, rows, "rows of client keys in docs/configuration.md");
  }
}
