package io.curtail.hbase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.fs.HFileSystem;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.JVMClusterUtil.RegionServerThread;
import org.junit.jupiter.api.Test;

/**
 * HBase on Curtail: an HBase mini-cluster whose master and region servers get their HDFS file
 * system from {@code fs.hdfs.impl}, set to Curtail, as a deployment would. A table is written in
 * two generations, each flushed to HFiles, the second overwriting and deleting some of the first;
 * a major compaction merges them; a third generation stays in the write-ahead log only, and its
 * region server is aborted, so the new one replays the log. After the compaction and after the
 * abort every cell is read back by get and by scan and compared byte for byte with what was put.
 * Then Curtail's per-block statistics ({@code curtail.stats.dir}) say which streams carried the
 * HFiles' blocks.
 */
class HBaseSmokeTest {
  private static final TableName TABLE = TableName.valueOf("smoke");
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final String[] QUALIFIERS = {"q0", "q1"};
  /** Three regions: the rows are {@code row-00000} to {@code row-02999}. */
  private static final byte[][] SPLITS = {Bytes.toBytes("row-01000"), Bytes.toBytes("row-02000")};
  private static final int BLOCK = 1024 * 1024;

  /** Kept after the run, under the module's target/, for a reader to look into. */
  private final Path stats = Path.of("target", "curtail-stats");

  /** What the table must hold: row, then qualifier, then value. */
  private final NavigableMap<String, NavigableMap<String, byte[]>> expected = new TreeMap<>();

  @Test
  void flushesCompactionAndAnAbortKeepEveryCellThroughCurtail() throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("fs.hdfs.impl", CurtailDistributedFileSystem.class.getName());
    deleteRecursively(stats);
    conf.set("curtail.stats.dir", stats.toString());
    // HFiles of several HDFS blocks, so reads and writes cross block boundaries.
    conf.setLong("dfs.blocksize", BLOCK);
    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    long started = System.nanoTime();
    util.startMiniCluster(StartMiniClusterOption.builder()
        .numDataNodes(3).numRegionServers(1).build());
    try {
      assertCurtailUnderHFiles(util.getMiniHBaseCluster().getRegionServer(0));
      // Data blocks uncached, so every get after a flush reads its HFile through HDFS.
      util.getAdmin().createTable(TableDescriptorBuilder.newBuilder(TABLE)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY)
              .setBlockCacheEnabled(false).build())
          .build(), SPLITS);
      util.waitTableAvailable(TABLE);
      try (Table table = util.getConnection().getTable(TABLE)) {
        put(table, 1, 0, 2000, 1);
        util.flush(TABLE);
        put(table, 2, 1000, 3000, 1);
        delete(table, 0, 1000, 17);
        util.flush(TABLE);
        // The first region holds generation 1 and the deletes, the second both generations,
        // the third generation 2 alone.
        assertEquals(5, storeFiles(util), "HFiles before the compaction");
        util.compact(TABLE, true);
        assertEquals(3, storeFiles(util), "HFiles after the major compaction, one per region");
        verify(table, "after the major compaction");

        put(table, 3, 0, 3000, 5); // in the write-ahead log only
        abortTheRegionServer(util);
        verify(table, "after the region server's abort");
      }
      System.out.printf("HBase smoke: %d rows, %d cells checked twice, %.1f s%n",
          expected.size(), cells(), (System.nanoTime() - started) / 1e9);
    } finally {
      util.shutdownMiniCluster(); // closes the file systems: their statistics are written out
    }
    assertCurtailCarriedTheHFiles();
  }

  /** The region server's file systems, the one HFiles are written with and the one they are read with, are Curtail's. */
  private static void assertCurtailUnderHFiles(HRegionServer server) throws IOException {
    HFileSystem fs = assertInstanceOf(HFileSystem.class, server.getFileSystem(),
        "the region server's file system");
    assertInstanceOf(CurtailDistributedFileSystem.class, fs.getBackingFs(),
        "HFileSystem's file system for writes and checksummed reads");
    assertInstanceOf(CurtailDistributedFileSystem.class, fs.getNoChecksumFs(),
        "HFileSystem's file system for HFile reads, checksums left to HBase");
  }

  /** Generation {@code gen}'s value of one cell: its length, 100 to 2099 bytes, and bytes seeded by all three. */
  private static byte[] value(int gen, int row, int q) {
    int length = 100 + (row * 37 + gen * 11 + q * 5) % 2000;
    return SeededData.bytes(gen * 1_000_003L + row * 7L + q, length);
  }

  private static String row(int row) {
    return String.format("row-%05d", row);
  }

  /** Puts generation {@code gen} of rows {@code from} (inclusive) to {@code to}, every {@code step}th. */
  private void put(Table table, int gen, int from, int to, int step) throws IOException {
    List<Put> puts = new ArrayList<>();
    for (int r = from; r < to; r += step) {
      Put put = new Put(Bytes.toBytes(row(r)));
      for (int q = 0; q < QUALIFIERS.length; q++) {
        byte[] v = value(gen, r, q);
        put.addColumn(FAMILY, Bytes.toBytes(QUALIFIERS[q]), v);
        expected.computeIfAbsent(row(r), k -> new TreeMap<>()).put(QUALIFIERS[q], v);
      }
      puts.add(put);
    }
    table.put(puts);
  }

  /** Deletes rows {@code from} to {@code to} that are multiples of {@code every}. */
  private void delete(Table table, int from, int to, int every) throws IOException {
    List<Delete> deletes = new ArrayList<>();
    for (int r = from; r < to; r++) {
      if (r % every == 0) {
        deletes.add(new Delete(Bytes.toBytes(row(r))));
        expected.remove(row(r));
      }
    }
    table.delete(deletes);
  }

  private long cells() {
    return expected.values().stream().mapToLong(Map::size).sum();
  }

  private static int storeFiles(HBaseTestingUtility util) {
    int files = 0;
    for (HRegion region : util.getMiniHBaseCluster().getRegions(TABLE)) {
      files += region.getStore(FAMILY).getStorefilesCount();
    }
    return files;
  }

  /**
   * Every row ever written is got (deleted rows must come back empty), then the whole table is
   * scanned: the same rows in order, no others, each cell's bytes as put.
   */
  private void verify(Table table, String when) throws IOException {
    List<Get> gets = new ArrayList<>();
    for (int r = 0; r < 3000; r++) {
      gets.add(new Get(Bytes.toBytes(row(r))));
    }
    Result[] got = table.get(gets);
    for (int r = 0; r < 3000; r++) {
      NavigableMap<String, byte[]> want = expected.get(row(r));
      if (want == null) {
        assertTrue(got[r].isEmpty(), row(r) + " was deleted, yet a get " + when + " found it");
      } else {
        assertRow(want, got[r], "get of " + row(r) + " " + when);
      }
    }
    try (ResultScanner scanner = table.getScanner(new Scan().addFamily(FAMILY))) {
      Iterator<Map.Entry<String, NavigableMap<String, byte[]>>> want =
          expected.entrySet().iterator();
      for (Result result : scanner) {
        String row = Bytes.toString(result.getRow());
        assertTrue(want.hasNext(), "the scan " + when + " found " + row + " after the last row");
        Map.Entry<String, NavigableMap<String, byte[]>> next = want.next();
        assertEquals(next.getKey(), row, "the scan's next row " + when);
        assertRow(next.getValue(), result, "scan at " + row + " " + when);
      }
      assertFalse(want.hasNext(), "the scan " + when + " ended before " + next(want));
    }
  }

  private static String next(Iterator<Map.Entry<String, NavigableMap<String, byte[]>>> it) {
    return it.hasNext() ? it.next().getKey() : "";
  }

  private static void assertRow(NavigableMap<String, byte[]> want, Result got, String what) {
    NavigableMap<byte[], byte[]> cells = got.getFamilyMap(FAMILY);
    assertEquals(want.size(), cells == null ? 0 : cells.size(), what + ": cells");
    for (Map.Entry<String, byte[]> cell : want.entrySet()) {
      assertArrayEquals(cell.getValue(), got.getValue(FAMILY, Bytes.toBytes(cell.getKey())),
          what + ", " + cell.getKey());
    }
  }

  /**
   * Starts a second region server, aborts the first (memstores lost, the write-ahead log not
   * closed) and waits until the master has split its log and opened every region on the new one.
   */
  private static void abortTheRegionServer(HBaseTestingUtility util) throws Exception {
    MiniHBaseCluster cluster = util.getMiniHBaseCluster();
    RegionServerThread second = cluster.startRegionServer();
    second.waitForServerOnline();
    cluster.abortRegionServer(0);
    cluster.waitOnRegionServer(0);
    util.waitUntilNoRegionsInTransition(120_000);
    util.waitTableAvailable(TABLE, 120_000);
    assertEquals(3, second.getRegionServer().getRegions(TABLE).size(),
        "regions on the new region server");
    assertCurtailUnderHFiles(second.getRegionServer());
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (var paths = Files.walk(dir)) {
        for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
          Files.delete(p);
        }
      }
    }
  }

  /** Counts the statistics' block records of this table's HFiles by direction and stream. */
  private void assertCurtailCarriedTheHFiles() throws IOException {
    Map<String, Long> blocks = new TreeMap<>();
    for (StatsRecord r : StatsRecord.in(stats)) {
      if (r.isBlock() && r.file().contains("/data/default/" + TABLE.getNameAsString() + "/")) {
        blocks.merge(r.direction() + " " + r.stream(), 1L, Long::sum);
      }
    }
    System.out.println("HBase smoke: HFile block records by direction and stream " + blocks);
    assertTrue(blocks.getOrDefault("write curtail", 0L) > 0,
        "no HFile block was written through Curtail's stream: " + blocks);
    assertEquals(0L, blocks.getOrDefault("write stock", 0L),
        "HFile blocks written through stock's stream: " + blocks);
    long reads = blocks.getOrDefault("read curtail", 0L) + blocks.getOrDefault("read stock", 0L);
    assertTrue(reads > 0, "no HFile block read was recorded: " + blocks);
  }
}
