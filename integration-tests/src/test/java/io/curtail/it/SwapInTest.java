package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.conf.HedgingMode;
import io.curtail.client.conf.InvalidConfigException;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.util.Collections;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Curtail swaps in the way Spark and MapReduce users will swap it in: {@code fs.hdfs.impl}. */
class SwapInTest {
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER =
      new FaultyClusterExtension(b -> b.dataNodes(3));
  private static FaultyCluster cluster;

  /** Short names for what {@link #CLUSTER} started. */
  @BeforeAll
  static void names() throws IOException {
    cluster = CLUSTER.cluster();
  }

  @Test
  void fsHdfsImplGivesCurtailAndItRoundTrips() throws IOException {
    Configuration conf = cluster.conf();
    conf.set("fs.hdfs.impl", "io.curtail.client.CurtailDistributedFileSystem");
    try (FileSystem fs = FileSystem.newInstance(cluster.uri(), conf)) {
      assertTrue(fs instanceof CurtailDistributedFileSystem, fs.getClass().getName());
      CurtailDistributedFileSystem curtail = (CurtailDistributedFileSystem) fs;
      assertEquals(HedgingMode.SMART, curtail.curtailConfig().readHedging());
      Path p = new Path("/swap-in/data");
      long length = 3L * 1024 * 1024 + 17;
      SeededData.create(fs, p, 99, length);
      SeededData.verify(fs, p, 99, length);
      try (FileSystem stock = cluster.stockFileSystem()) {
        SeededData.verify(stock, p, 99, length); // what Curtail wrote, stock reads
      }
    }
  }

  @Test
  void everyTechniqueOffStillWorks() throws IOException {
    java.util.Map<String, String> off = new java.util.HashMap<>();
    off.put("curtail.write.failfast.enabled", "false");
    off.put("curtail.read.hedging", "off");
    try (CurtailDistributedFileSystem fs = cluster.curtailFileSystem(off)) {
      assertTrue(fs.curtailConfig().allTechniquesOff());
      Path p = new Path("/swap-in/off");
      SeededData.create(fs, p, 5, 70_000);
      SeededData.verify(fs, p, 5, 70_000);
    }
  }

  /** One file system operation, to try after the file system was closed. */
  @FunctionalInterface
  private interface Op {
    void on(FileSystem fs, Path p) throws IOException;
  }

  @Test
  void everyOperationAfterCloseFailsAsStocksDoesAndTouchesNothing() throws IOException {
    Path existing = new Path("/swap-in/closed/existing");
    try (FileSystem stock = cluster.stockFileSystem()) {
      SeededData.create(stock, existing, 8, 1000);
    }
    java.util.Map<String, Op> ops = new java.util.LinkedHashMap<>();
    ops.put("create", (fs, p) -> fs.create(p).close());
    ops.put("createNonRecursive", (fs, p) -> fs.createNonRecursive(p, true, 4096, (short) 3,
        1 << 20, null).close());
    ops.put("append", (fs, p) -> fs.append(existing).close());
    ops.put("open", (fs, p) -> fs.open(existing).close());
    ops.put("getFileStatus", (fs, p) -> fs.getFileStatus(existing));
    ops.put("delete", (fs, p) -> fs.delete(existing, false));
    ops.put("mkdirs", (fs, p) -> fs.mkdirs(p));
    for (boolean curtail : new boolean[] {false, true}) {
      FileSystem fs = curtail ? cluster.curtailFileSystem(Collections.emptyMap())
          : cluster.stockFileSystem();
      fs.close();
      for (java.util.Map.Entry<String, Op> op : ops.entrySet()) {
        Path p = new Path("/swap-in/closed/" + (curtail ? "curtail-" : "stock-") + op.getKey());
        IOException e = assertThrows(IOException.class, () -> op.getValue().on(fs, p),
            op.getKey() + " after close, curtail=" + curtail);
        assertEquals("Filesystem closed", e.getMessage(), op.getKey() + ", curtail=" + curtail);
        try (FileSystem stock = cluster.stockFileSystem()) {
          assertTrue(!stock.exists(p), op.getKey() + " created " + p + ", curtail=" + curtail);
          SeededData.verify(stock, existing, 8, 1000);
        }
      }
    }
  }

  @Test
  void streamMisuseFailsWithStocksTexts() throws IOException {
    Path p = new Path("/swap-in/misuse");
    try (FileSystem stock = cluster.stockFileSystem();
        FileSystem curtail = cluster.curtailFileSystem(Collections.emptyMap())) {
      SeededData.create(stock, p, 9, 5000);
      for (long target : new long[] {5001, -1}) {
        assertEquals(seekFailure(stock, p, target), seekFailure(curtail, p, target),
            "seek to " + target);
      }
      assertEquals(readAfterClose(stock, p), readAfterClose(curtail, p));
      // Stock buffers a single byte written after close and loses it silently; Curtail refuses
      // it, as both refuse an array, rather than lose data without a word.
      org.apache.hadoop.fs.FSDataOutputStream out = curtail.create(new Path("/swap-in/w"));
      out.close();
      assertThrows(java.nio.channels.ClosedChannelException.class, () -> out.write(1));
      assertThrows(java.nio.channels.ClosedChannelException.class,
          () -> out.write(new byte[10], 0, 10));
    }
  }

  private static String seekFailure(FileSystem fs, Path p, long target) throws IOException {
    try (org.apache.hadoop.fs.FSDataInputStream in = fs.open(p)) {
      return assertThrows(java.io.EOFException.class, () -> in.seek(target)).getMessage();
    }
  }

  private static String readAfterClose(FileSystem fs, Path p) throws IOException {
    org.apache.hadoop.fs.FSDataInputStream in = fs.open(p);
    in.close();
    return assertThrows(IOException.class, in::read).getMessage();
  }

  @Test
  void badSettingFailsInitialisationNamingKeyRuleAndValue() {
    InvalidConfigException e = assertThrows(InvalidConfigException.class,
        () -> cluster.curtailFileSystem(
            Collections.singletonMap("curtail.slowness.percentile", "1.5")));
    assertEquals("Invalid Curtail setting curtail.slowness.percentile='1.5': must be a number in"
        + " (0, 1)", e.getMessage());
  }
}
