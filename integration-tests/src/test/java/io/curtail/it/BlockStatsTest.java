package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.conf.InvalidConfigException;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-block statistics from real reads and writes, under an A/B cohort: one record per block
 * written and per block range read, their bytes adding up to the file's, naming the cohort, host
 * and DataNodes; and a directory that cannot be written refused by name.
 */
class BlockStatsTest {
  private static final long BLOCK = 256 * 1024;
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER =
      new FaultyClusterExtension(b -> b.dataNodes(3).blockSize(BLOCK));
  @TempDir
  Path dir;

  private CurtailDistributedFileSystem curtail(String statsDir) throws IOException {
    return curtail(statsDir, "all=100:failfast+smart");
  }

  private CurtailDistributedFileSystem curtail(String statsDir, String cohorts)
      throws IOException {
    Map<String, String> m = new HashMap<>();
    m.put("curtail.knowledge.scope", "stats-test");
    m.put("curtail.stats.dir", statsDir);
    m.put("curtail.ab.cohorts", cohorts);
    m.put("curtail.ab.host", "worker-7");
    return CLUSTER.cluster().curtailFileSystem(m);
  }

  /**
   * Cohort {@code all} reads and writes through Curtail's streams; cohort {@code control}
   * ({@code none}) through stock's, timed per block so that the control has records too.
   */
  @ParameterizedTest
  @CsvSource({"all=100:failfast+smart, all, curtail", "control=100:none, control, stock"})
  void everyBlockReadAndWrittenIsOneRecord(String cohorts, String cohort, String stream)
      throws IOException {
    long length = 2 * BLOCK + 1000;
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/stats/f-" + cohort);
    List<Long> blockIds = new ArrayList<>();
    try (CurtailDistributedFileSystem fs = curtail(dir.toString(), cohorts)) {
      SeededData.create(fs, file, 11, length);
      SeededData.verify(fs, file, 11, length); // sequential: a record per block
      byte[] got = new byte[4096];
      try (FSDataInputStream in = fs.open(file)) {
        in.readFully(BLOCK - 1000, got); // one pread across two blocks: a record for each
      }
      byte[] want = new byte[4096];
      SeededData.check(got, got.length, 11, BLOCK - 1000, want, file.toString());
      assertEquals(0, fs.statsDropped());
      for (LocatedBlock b : fs.getClient().getLocatedBlocks(file.toString(), 0)
          .getLocatedBlocks()) {
        blockIds.add(b.getBlock().getBlockId());
      }
    }
    List<JsonNode> records = records();
    long written = 0;
    long read = 0;
    int writes = 0;
    int reads = 0;
    List<Long> writtenIds = new ArrayList<>();
    List<String> files = new ArrayList<>();
    for (JsonNode r : records) {
      if (r.get("level").asText().equals("file")) { // a stream's whole file, open to close
        assertTrue(r.get("block").isNull(), r.toString());
        assertEquals(stream, r.get("stream").asText());
        files.add(r.get("dir").asText() + " " + r.get("bytes").asLong());
        continue;
      }
      assertEquals(cohort, r.get("cohort").asText());
      assertEquals(stream, r.get("stream").asText());
      assertEquals("worker-7", r.get("host").asText());
      assertEquals(file.toString(), r.get("file").asText());
      assertTrue(blockIds.contains(r.get("block").asLong()), r.toString());
      assertTrue(r.get("client").asText().startsWith("DFSClient"), r.toString());
      assertTrue(r.get("datanodes").size() >= 1, r.toString());
      assertTrue(r.get("duration_ms").asDouble() >= 0, r.toString());
      if (r.get("dir").asText().equals("write")) {
        writes++;
        written += r.get("bytes").asLong();
        writtenIds.add(r.get("block").asLong());
        if (stream.equals("curtail")) {
          assertEquals(3, r.get("datanodes").size(), r.toString()); // its pipeline
        } else {
          // Stock's writer does not say where it wrote: these are the replicas the NameNode
          // lists, and for the last block, asked right after close, the third DataNode's report
          // may still be on its way.
          int n = r.get("datanodes").size();
          assertTrue(n >= 1 && n <= 3, r.toString());
        }
      } else {
        reads++;
        read += r.get("bytes").asLong();
      }
    }
    assertEquals(3, writes);
    assertEquals(blockIds, writtenIds, "each block once, in order");
    assertEquals(length, written);
    assertEquals(3 + 2, reads);
    assertEquals(length + 4096, read);
    files.sort(null);
    assertEquals(List.of("read 4096", "read " + length, "write " + length), files);
  }

  /** An append continues the file's last block: it has a record too, of the bytes appended. */
  @Test
  void aBlockAnAppendContinuesIsRecordedForTheBytesAppended() throws IOException {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/stats/appended");
    byte[] all = SeededData.bytes(21, 1500);
    try (CurtailDistributedFileSystem fs = curtail(dir.toString())) {
      try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(file)) {
        out.write(all, 0, 1000);
      }
      try (org.apache.hadoop.fs.FSDataOutputStream out = fs.append(file)) {
        out.write(all, 1000, 500);
      }
      SeededData.verify(fs, file, 21, 1500);
    }
    List<Long> bytes = new ArrayList<>();
    List<Long> blocks = new ArrayList<>();
    for (JsonNode r : records()) {
      if (r.get("dir").asText().equals("write") && r.get("level").asText().equals("block")) {
        bytes.add(r.get("bytes").asLong());
        blocks.add(r.get("block").asLong());
      }
    }
    assertEquals(List.of(1000L, 500L), bytes);
    assertEquals(blocks.get(0), blocks.get(1), "the same block, continued");
  }

  @Test
  void anUnwritableDirectoryIsRefusedByName() throws IOException {
    Path notADir = Files.createFile(dir.resolve("a-file"));
    InvalidConfigException e = assertThrows(InvalidConfigException.class,
        () -> curtail(notADir.resolve("stats").toString()));
    assertEquals("curtail.stats.dir", e.key());
    assertTrue(e.getMessage().contains(notADir.resolve("stats").toString()), e.getMessage());
  }

  private List<JsonNode> records() throws IOException {
    return StatsRecords.in(dir);
  }
}
