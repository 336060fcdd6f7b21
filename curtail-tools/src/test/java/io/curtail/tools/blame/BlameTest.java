package io.curtail.tools.blame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Labelling decisions against incidents, on hand-made records: DataNode A (127.0.0.1:1) is slow
 * from 1 s to 100 s after the epoch; B, C and D are healthy.
 */
class BlameTest {
  private static final String A = "127.0.0.1:1";
  private static final String B = "127.0.0.1:2";
  private static final String C = "127.0.0.1:3";
  private static final String D = "127.0.0.1:4";
  private static final long MIB = 1 << 20;
  private final ObjectMapper json = new ObjectMapper();

  private static String write(long startMs, long bytes, String datanodes, String replacements,
      String window) {
    return "{\"cohort\":null,\"level\":\"block\",\"block\":1,\"dir\":\"write\",\"stream\":"
        + "\"curtail\",\"bytes\":" + bytes + ",\"start_ms\":" + startMs + ",\"duration_ms\":500.0,"
        + "\"datanodes\":" + datanodes + ",\"replacements\":[" + replacements + "]"
        + (window == null ? "" : ",\"window\":{" + window + "}") + "}";
  }

  private static String read(long startMs, String datanodes, String hedgedFrom,
      String demoted) {
    return "{\"level\":\"block\",\"dir\":\"read\",\"stream\":\"curtail\",\"bytes\":" + MIB
        + ",\"start_ms\":" + startMs + ",\"duration_ms\":20.0,\"datanodes\":" + datanodes
        + ",\"hedges\":{\"tried\":1,\"won\":0,\"targets\":[],\"from\":" + hedgedFrom + "}"
        + (demoted == null ? "" : ",\"demoted\":" + demoted) + "}";
  }

  private static String q(String... addresses) {
    return "[\"" + String.join("\",\"", addresses) + "\"]";
  }

  private Blame labelled(String... lines) throws IOException {
    Blame b = new Blame(List.of(Incident.dataNode(A, 1000, 100_000)));
    for (String l : lines) {
      b.add(json.readTree(l));
    }
    return b;
  }

  @Test
  void everyDecisionIsLabelledAndHdfsRuleJudgedOnTheSameSamples() throws IOException {
    Blame b = labelled(
        // 1. A replaced 120 ms in, 256 KiB acked, on p95s 40 / 1.2 / 1 ms: right, and caught
        write(2000, 4 * MIB, q(D, B, C), "{\"position\":0,\"replaced\":\"" + A + "\",\"by\":\""
            + D + "\",\"reason\":\"slow\",\"evidence\":\"\",\"at_ms\":120.0,\"acked\":262144,"
            + "\"pipeline\":" + q(A, B, C) + ",\"p_us\":[40000,1200,1000],\"n\":[9,9,9]}",
            "\"at_ms\":499.0,\"acked\":4194304,\"pipeline\":" + q(D, B, C)
            + ",\"p_us\":[900,1100,1000],\"n\":[9,9,9]"),
        // 2. through A, nobody replaced; B looks as slow as A, so HDFS's rule misses it too
        write(3000, 4 * MIB, q(B, A, C), "", "\"at_ms\":499.0,\"acked\":4194304,\"pipeline\":"
            + q(B, A, C) + ",\"p_us\":[30000,32000,1000],\"n\":[9,9,9]"),
        // 3. B replaced instead of A: wrong, and a miss; HDFS's rule flags A at the block's end
        write(4000, 4 * MIB, q(D, A, C), "{\"position\":0,\"replaced\":\"" + B + "\",\"by\":\""
            + D + "\",\"reason\":\"slow\",\"evidence\":\"\",\"at_ms\":50.0,\"acked\":65536,"
            + "\"pipeline\":" + q(B, A, C) + ",\"p_us\":[45000,44000,1500],\"n\":[9,9,9]}",
            "\"at_ms\":499.0,\"acked\":4194304,\"pipeline\":" + q(D, A, C)
            + ",\"p_us\":[1000,41000,1200],\"n\":[9,9,9]"),
        // 4. through A for three packets only: too short to be a miss
        write(5000, 3 * 65536, q(A, B, C), "", null),
        // 5. an old line (no time, no samples): B replaced after the fault ended, wrong
        write(200_000, 4 * MIB, q(D, A, C), "{\"position\":0,\"replaced\":\"" + B + "\",\"by\":\""
            + D + "\",\"reason\":\"slow\",\"evidence\":\"p95 per DataNode […]\"}", null),
        // 6. a failure's replacement and a stock stream's block: no decisions of Curtail's
        write(6000, 4 * MIB, q(B, C, D), "{\"position\":0,\"replaced\":\"" + B + "\",\"by\":\"\","
            + "\"reason\":\"failed\",\"evidence\":\"connection reset\"}", null),
        write(7000, 4 * MIB, q(B, A, C), "", null).replace("\"curtail\"", "\"stock\""),
        // 7-11. reads: hedged away from A (right, caught); read from A unhedged (a miss);
        // hedged away from B (wrong; A, not read first, neither caught nor missed); A demoted
        // (right, caught); B demoted (wrong)
        read(2000, q(A, B, C), q(A), null),
        read(2100, q(A, B, C), "[]", null),
        read(2200, q(B, A, C), q(B), null),
        read(2300, q(B, C, A), "[]", q(A)),
        read(2400, q(C, A, B), "[]", q(B)));

    Tally curtail = b.replacements();
    assertEquals(3, curtail.decisions()); // 1, 3 and 5
    assertEquals(1 / 3.0, curtail.precision(), 1e-9);
    assertEquals(1, curtail.caught()); // 1
    assertEquals(2, curtail.missed()); // 2 and 3; not 4, too short
    assertEquals(1 / 3.0, curtail.recall(), 1e-9);
    assertEquals(120, curtail.medianMillis(), 1e-9); // the block met the fault at its start
    assertEquals(262144, curtail.medianBytes());
    long written = 3 * 4 * MIB + 3 * 65536 + 4 * MIB + 4 * MIB;
    assertEquals(2 / (written / (double) (1 << 30)), b.wrongPerGib(), 1e-9);

    Tally pipeline = b.baseline(OutlierRule.ON_PIPELINE);
    assertEquals(2, pipeline.decisions()); // A in 1's evidence, A in 3's end window
    assertEquals(1.0, pipeline.precision(), 1e-9);
    assertEquals(2, pipeline.caught());
    assertEquals(1, pipeline.missed()); // 2
    assertEquals(2 / 3.0, pipeline.recall(), 1e-9);

    Tally defaults = b.baseline(OutlierRule.HDFS_PEERS);
    assertEquals(0, defaults.decisions()); // three peers are fewer than its ten
    assertTrue(Double.isNaN(defaults.precision()));
    assertEquals(0.0, defaults.recall(), 1e-9);

    Tally reads = b.reads();
    assertEquals(4, reads.decisions()); // 7, 9, 10 and 11
    assertEquals(0.5, reads.precision(), 1e-9);
    assertEquals(2, reads.caught()); // 7 and 10
    assertEquals(1, reads.missed()); // 8
    assertEquals(2 / 3.0, reads.recall(), 1e-9);
  }

  @Test
  void aFaultMeetingABlockLateIsTimedFromWhenItBegan() throws IOException {
    // the block began at 800 ms, the fault at 1000 ms; replaced 450 ms into the block
    Blame b = labelled(write(800, 4 * MIB, q(D, B, C), "{\"position\":0,\"replaced\":\"" + A
        + "\",\"by\":\"" + D + "\",\"reason\":\"slow\",\"evidence\":\"\",\"at_ms\":450.0,"
        + "\"acked\":1048576,\"pipeline\":" + q(A, B, C) + ",\"p_us\":[40000,1200,1000],"
        + "\"n\":[9,9,9]}", null));
    assertEquals(250, b.replacements().medianMillis(), 1e-9);
    assertEquals(1.0, b.replacements().precision(), 1e-9);
  }

  @Test
  void aLinkBlamesEitherEndAndMeetsPipelinesWhereItsEndsAreNeighbours() {
    Incident link = Incident.link(A, B, 0, 10);
    assertTrue(link.blames(A));
    assertTrue(link.blames(B));
    assertFalse(link.blames(C));
    assertTrue(link.in(List.of(C, A, B)));
    assertTrue(link.in(List.of(B, A, C)));
    assertFalse(link.in(List.of(A, C, B)));
    Incident host = Incident.dataNode("127.0.0.1", 0, 10);
    assertTrue(host.blames(A)); // a host alone names each of its DataNodes
    assertFalse(Incident.dataNode("127.0.0.11", 0, 10).blames(A));
  }

  @Test
  void anOperatorsLabelsFileIsReadAndABadLineNamed(@TempDir Path dir) throws IOException {
    Path labels = dir.resolve("labels");
    Files.write(labels, List.of("# incidents of 25 November",
        "datanode 10.0.0.5:9866 2026-11-25T09:00:00Z 2026-11-25T10:00:00Z", "",
        "link 10.0.0.5:9866 10.0.0.7 1795597200000 -"));
    List<Incident> read = Incident.read(labels);
    assertEquals(2, read.size());
    assertTrue(read.get(0).onAt(1795597200000L));
    assertFalse(read.get(0).onAt(1795597200000L + 3_600_001));
    assertTrue(read.get(1).isLink());
    assertTrue(read.get(1).onAt(Long.MAX_VALUE));
    Files.write(labels, List.of("datanode 10.0.0.5:9866 yesterday -"));
    IOException e = assertThrows(IOException.class, () -> Incident.read(labels));
    assertEquals(labels + " line 1 is not an incident ('datanode ADDRESS FROM TO', 'sending"
        + " ADDRESS FROM TO' or 'link ADDRESS ADDRESS FROM TO'): time 'yesterday' is neither an"
        + " ISO-8601 instant, epoch milliseconds nor '-'", e.getMessage());
    Files.write(labels, List.of("sending 10.0.0.5:9866 0 -"));
    Incident nic = Incident.read(labels).get(0);
    assertEquals("sending 10.0.0.5:9866 0 -", nic.toLabel());
  }

  @Test
  void aFlappingFaultIsAnIncidentInItsSlowSpellsOnly() throws IOException {
    // A slow disk from 0 to 20 s; the DataNode flaps from 2 s to 15 s, 3 s slow and 3 s healthy:
    // steady from 0 to 1.999 s, then slow from 2 to 5, 8 to 11 and 14 to 15 s.
    List<Incident> spells = Incident.dataNode(A, 0, 20_000).spells(2000, 15_000, 3000, 3000);
    assertEquals("[datanode " + A + " from 0 to 1999, datanode " + A + " from 2000 to 5000,"
        + " datanode " + A + " from 8000 to 11000, datanode " + A + " from 14000 to 15000]",
        spells.toString());
    // A replacement in a healthy spell (at 6 s) took out a DataNode that was not slow then.
    Blame b = new Blame(spells);
    b.add(json.readTree(write(5500, 4 * MIB, q(D, B, C), "{\"position\":0,\"replaced\":\""
        + A + "\",\"by\":\"" + D + "\",\"reason\":\"slow\",\"evidence\":\"\",\"at_ms\":500.0,"
        + "\"acked\":131072,\"pipeline\":" + q(A, B, C) + ",\"p_us\":[30000,900,1000],"
        + "\"n\":[9,9,9]}", null)));
    assertEquals(0.0, b.replacements().precision());
  }

  @Test
  void aDataNodeSlowOnlySendingSlowsThePipelinesItForwardsIn() throws IOException {
    // A's NIC is slow on the way out: last in a pipeline it forwards nothing, and its acks are
    // small, so that block is not through the fault, and not replacing A there is no miss. First
    // or in the middle it is, and replacing it is right.
    Incident nic = Incident.sending(A, 1000, 100_000);
    assertTrue(nic.in(List.of(A, B, C)));
    assertTrue(nic.in(List.of(B, A, C)));
    assertFalse(nic.in(List.of(B, C, A)));
    assertTrue(nic.blames(A));
    Blame b = new Blame(List.of(nic));
    b.add(json.readTree(write(2000, 4 * MIB, q(B, C, A), "", null)));
    b.add(json.readTree(write(3000, 4 * MIB, q(D, B, C), "{\"position\":1,\"replaced\":\""
        + A + "\",\"by\":\"" + D + "\",\"reason\":\"slow\",\"evidence\":\"\",\"at_ms\":80.0,"
        + "\"acked\":131072,\"pipeline\":" + q(B, A, C) + ",\"p_us\":[900,30000,1000],"
        + "\"n\":[9,9,9]}", null)));
    assertEquals(0, b.replacements().missed());
    assertEquals(1, b.replacements().caught());
    assertEquals(1.0, b.replacements().precision());
  }
}
