package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.io.File;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.tools.DistCp;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * DistCp (its MapReduce job, on the LocalJobRunner) with {@code fs.hdfs.impl} swapped for
 * Curtail, as users run it: a copy, {@code -update} after a change that keeps the length (found
 * by checksum), {@code -update -append} after the source grew, and a copy preserving block size
 * and checksum type ({@code -pbc}). Every target is read back with the stock client and its
 * checksum compared with the source's as stock computes them; Curtail's per-block statistics
 * show its own streams read and wrote the bytes.
 */
class DistCpTest {
  private static final int MIB = 1024 * 1024;
  private static final long BLOCK = MIB;

  @RegisterExtension
  static final FaultyClusterExtension CLUSTER =
      new FaultyClusterExtension(b -> b.dataNodes(4).blockSize(BLOCK));

  @TempDir
  File stats;

  @TempDir
  File staging;

  @AfterEach
  void closeTheJobsFileSystems() throws IOException {
    FileSystem.closeAll(); // DistCp's tasks took Curtail's from the cache
  }

  /** Runs DistCp with Curtail as the hdfs:// file system; returns its exit code. */
  private int distCp(String... args) throws Exception {
    Configuration conf = CLUSTER.cluster().conf();
    conf.set("fs.hdfs.impl", CurtailDistributedFileSystem.class.getName());
    conf.set("curtail.stats.dir", stats.getPath());
    conf.set("mapreduce.framework.name", "local");
    conf.set("mapreduce.jobtracker.staging.root.dir", staging.getPath());
    return ToolRunner.run(conf, new DistCp(conf, null), args);
  }

  private static String uri(String path) {
    return CLUSTER.cluster().uri() + path;
  }

  private static void assertSame(DistributedFileSystem stock, Path src, Path dst, long seed,
      long length) throws IOException {
    SeededData.verify(stock, dst, seed, length);
    assertEquals(stock.getFileChecksum(src), stock.getFileChecksum(dst), dst + "'s checksum");
  }

  /** Records Curtail's streams wrote ({@code write}) or read, in the statistics so far. */
  private long curtailRecords(String dir) throws IOException {
    return StatsRecords.in(stats.toPath()).stream()
        .filter(r -> StatsRecords.ofBlock(r, dir) && r.get("stream").asText().equals("curtail"))
        .count();
  }

  @Test
  void copyUpdateAppendAndPreserveCarryEveryByteThroughCurtail() throws Exception {
    DistributedFileSystem stock = CLUSTER.stock();
    Path a = new Path("/distcp/src/a");
    Path b = new Path("/distcp/src/sub/b");
    long aLength = 3 * MIB + 12345;
    long bLength = 700_000;
    SeededData.create(stock, a, 1, aLength);
    SeededData.create(stock, b, 2, bLength);

    assertEquals(0, distCp(uri("/distcp/src"), uri("/distcp/dst")));
    assertSame(stock, a, new Path("/distcp/dst/a"), 1, aLength);
    assertSame(stock, b, new Path("/distcp/dst/sub/b"), 2, bLength);
    assertTrue(curtailRecords("write") >= 5, "Curtail wrote " + curtailRecords("write")
        + " blocks of the 5");
    assertTrue(curtailRecords("read") >= 5, "Curtail read " + curtailRecords("read")
        + " blocks of the 5");

    // Same length, other bytes: only the checksum tells, and -update must copy it again.
    SeededData.create(stock, a, 3, aLength);
    assertEquals(0, distCp("-update", uri("/distcp/src"), uri("/distcp/dst")));
    assertSame(stock, a, new Path("/distcp/dst/a"), 3, aLength);

    // The source grew: -append writes only what is new onto the target.
    long grown = bLength + 2 * MIB;
    try (FSDataOutputStream out = stock.append(b)) {
      byte[] more = new byte[(int) (grown - bLength)];
      SeededData.fill(2, bLength, more, 0, more.length);
      out.write(more);
    }
    assertEquals(0, distCp("-update", "-append", uri("/distcp/src"), uri("/distcp/dst")));
    assertSame(stock, b, new Path("/distcp/dst/sub/b"), 2, grown);

    // Block size and checksum type preserved: a file of blocks other than the default.
    Path c = new Path("/distcp/src2/c");
    try (FSDataOutputStream out = stock.create(c, true, 4096, (short) 3, 512 * 1024)) {
      SeededData.write(out, 4, 2 * MIB + 99);
    }
    assertEquals(0, distCp("-pbc", uri("/distcp/src2"), uri("/distcp/dst2")));
    Path copied = new Path("/distcp/dst2/c");
    assertEquals(512 * 1024, stock.getFileStatus(copied).getBlockSize());
    assertSame(stock, c, copied, 4, 2 * MIB + 99);
  }
}
