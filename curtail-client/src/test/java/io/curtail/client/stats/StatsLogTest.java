package io.curtail.client.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The statistics log: valid JSON lines, a queue that drops instead of blocking, rotation. */
class StatsLogTest {
  @TempDir
  Path dir;

  @Test
  void recordsAreOneJsonLineEach() throws IOException {
    try (StatsLog log = StatsLog.open(dir, "ff", "host-1", "DFSClient_x", 16, 1 << 20, 2)) {
      BlockRecord r = BlockRecord.write("/a \"quoted\"\nfile", 42, 0, 0);
      r.dataNodes(Arrays.asList("10.0.0.1:9866", "10.0.0.2:9866"));
      r.samples(Arrays.asList("10.0.0.1:9866", "10.0.0.2:9866"), new long[] {1_000_000,
          40_000_000}, new int[] {9, 8}, 65536, 250_000_000L);
      r.replaced(1, "10.0.0.2:9866", "10.0.0.3:9866", "slow", "p95 [1, 40]");
      r.rebuilt(3_000_000, 1);
      r.busy("10.0.0.2:9866");
      r.samples(Arrays.asList("10.0.0.1:9866", "10.0.0.3:9866"), new long[] {900_000,
          1_100_000}, new int[] {20, 12}, 4 << 20, 1_999_000_000L);
      r.done(4 << 20, 2_000_000_000L);
      log.record(r);
      BlockRecord read = BlockRecord.read("/b", 7, 0);
      read.demoted("10.0.0.2:9866");
      read.hedgeTried("10.0.0.1:9866", "10.0.0.3:9866", 0, 50_000_000L);
      read.hedgeWon("10.0.0.3:9866");
      read.done(1 << 20, 500_000_000L);
      log.record(read);
    }
    List<String> lines = lines();
    assertEquals(2, lines.size());
    JsonNode w = new ObjectMapper().readTree(lines.get(0));
    assertEquals("ff", w.get("cohort").asText());
    assertEquals("host-1", w.get("host").asText());
    assertEquals("/a \"quoted\"\nfile", w.get("file").asText());
    assertEquals("write", w.get("dir").asText());
    assertEquals(4 << 20, w.get("bytes").asLong());
    assertEquals(2000.0, w.get("duration_ms").asDouble(), 1e-9);
    assertEquals(2.0, w.get("mib_s").asDouble(), 1e-9);
    JsonNode replacement = w.get("replacements").get(0);
    assertEquals("10.0.0.3:9866", replacement.get("by").asText());
    // what the writer knew when it decided, and at the block's end
    assertEquals(250.0, replacement.get("at_ms").asDouble(), 1e-9);
    assertEquals(65536, replacement.get("acked").asLong());
    assertEquals("[\"10.0.0.1:9866\",\"10.0.0.2:9866\"]", replacement.get("pipeline").toString());
    assertEquals("[1000,40000]", replacement.get("p_us").toString());
    assertEquals("[9,8]", replacement.get("n").toString());
    assertEquals("[900,1100]", w.get("window").get("p_us").toString());
    assertEquals(4 << 20, w.get("window").get("acked").asLong());
    assertEquals(1, w.get("rebuild_aborts").asInt());
    assertEquals("10.0.0.2:9866", w.get("busy").get(0).asText());
    JsonNode r = new ObjectMapper().readTree(lines.get(1));
    assertEquals(1, r.get("hedges").get("won").asInt());
    assertEquals("10.0.0.3:9866", r.get("hedges").get("targets").get(0).asText());
    assertEquals("10.0.0.1:9866", r.get("hedges").get("from").get(0).asText());
    assertEquals("[\"10.0.0.2:9866\"]", r.get("demoted").toString());
    assertTrue(w.get("demoted") == null, "a block without demotions lists none");
  }

  /** A block group's record: level group, its DataNodes by index, the streamer let go. */
  @Test
  void aBlockGroupIsARecordOfItsOwnLevel() throws IOException {
    long group = Long.MIN_VALUE + 16; // striped ids are negative
    try (StatsLog log = StatsLog.open(dir, null, "h", "c", 16, 1 << 20, 2)) {
      BlockRecord g = log.group("/ec/f", group, 0, 0);
      g.samples(Arrays.asList("a:1", "b:1", "c:1", "d:1", "e:1"), new long[] {1_000_000,
          60_000_000, 1_000_000, 2_000_000, 1_000_000}, new int[] {34, 20, 33, 34, 34}, 65536,
          1_200_000_000L);
      g.replaced(1, "b:1", "", "slow", "dropped from the block group: drop #1");
      g.dataNodes(Arrays.asList("a:1", "b:1", "c:1", "d:1", "e:1"));
      g.done(3 << 20, 1_500_000_000L);
    }
    JsonNode r = new ObjectMapper().readTree(lines().get(0));
    assertEquals("group", r.get("level").asText());
    assertEquals(group, r.get("block").asLong());
    assertEquals("curtail", r.get("stream").asText());
    JsonNode drop = r.get("replacements").get(0);
    assertEquals(1, drop.get("position").asInt());
    assertEquals("b:1", drop.get("replaced").asText());
    assertEquals("", drop.get("by").asText());
    assertEquals("[1000,60000,1000,2000,1000]", drop.get("p_us").toString());
  }

  @Test
  void aFullQueueDropsAndCountsWithoutBlocking() throws IOException {
    StatsLog log = StatsLog.openIdle(dir, 2); // nobody drains it
    long start = System.nanoTime();
    for (int i = 0; i < 1000; i++) {
      BlockRecord r = BlockRecord.read("/f", i, 0);
      r.done(1, 1);
      log.record(r);
    }
    assertTrue(System.nanoTime() - start < 1_000_000_000L, "offering must not wait");
    assertEquals(998, log.dropped());
    log.close();
  }

  @Test
  void filesRotateAtTheirCapAndTheOldestGo() throws IOException {
    try (StatsLog log = StatsLog.open(dir, null, "h", "c", 4096, 2000, 3)) {
      for (int i = 0; i < 200; i++) {
        BlockRecord r = BlockRecord.read("/f", i, 0);
        r.done(1, 1);
        log.record(r);
      }
    }
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> kept = files.collect(Collectors.toList());
      assertEquals(3, kept.size(), kept.toString());
      for (Path p : kept) {
        assertTrue(Files.size(p) <= 2000, p + " is " + Files.size(p) + " bytes");
      }
    }
    List<String> lines = lines();
    assertEquals(199, new ObjectMapper().readTree(lines.get(lines.size() - 1)).get("block")
        .asLong(), "the newest records are kept");
  }

  /** Every line of every file, files in name order, which is their rotation order. */
  private List<String> lines() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.sorted().flatMap(p -> {
        try {
          return Files.readAllLines(p, StandardCharsets.UTF_8).stream();
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }).collect(Collectors.toList());
    }
  }
}
