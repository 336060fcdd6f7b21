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
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
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
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.util.JVMClusterUtil.RegionServerThread;
import org.junit.jupiter.api.Test;

/**
 * HBase on Curtail: an HBase mini-cluster whose master and region servers get their HDFS file
 * system from {@code fs.hdfs.impl}, set to Curtail, as a deployment would. A table is written in
 * two generations, each flushed to HFiles, the second overwriting and deleting some of the first;
 * a major compaction merges them; a third generation stays in the write-ahead log only, and its
 * region server is aborted, so the new one replays the log. After the compaction and after the
 * abort every cell is read back by get and by scan and compared byte for byte with what was put.
 * Then Curtail's per-block statistics ({@code curtail.stats.dir}) say, kind of file by kind,
 * what Curtail's streams carried. No {@code fs.hdfs.impl.disable.cache} is needed: each region
 * server has a file system of its own (its own user), and HBase makes its checksum-off one with
 * {@code newInstance}.
 */
class HBaseSmokeTest {
  private static final TableName TABLE = TableName.valueOf("smoke");
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final String[] QUALIFIERS = {"q0", "q1"};
  /** Three regions: the rows are {@code row-00000} to {@code row-02999}. */
  private static final byte[][] SPLITS = {Bytes.toBytes("row-01000"), Bytes.toBytes("row-02000")};
  private static final int BLOCK = 1024 * 1024;
  /** An HFile of the table's family, being written (.tmp) or in place: region, family, name. */
  private static final Pattern HFILE =
      Pattern.compile("/smoke/[0-9a-f]{32}/(\\.tmp/)?f/[0-9a-f]{32}$");

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
    long[] hfiles;
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
      hfiles = hfilesWritten(util);
    } finally {
      util.shutdownMiniCluster(); // closes the file systems: their statistics are written out
    }
    assertCurtailCarriedHBasesFiles(hfiles);
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

  /** What a path of HBase's is, by where HBase keeps it. */
  private static String kind(String path) {
    if (HFILE.matcher(path).find()) {
      return "hfile";
    }
    if (path.contains("/recovered.edits/")) {
      return "recovered-edits";
    }
    return path.contains("WALs/") ? "wal" : "other";
  }

  /** Bytes of every HFile of the table HBase wrote: those live and those a compaction archived. */
  private static long[] hfilesWritten(HBaseTestingUtility util) throws IOException {
    FileSystem fs = util.getDFSCluster().getFileSystem();
    org.apache.hadoop.fs.Path root = CommonFSUtils.getRootDir(util.getConfiguration());
    long files = 0;
    long bytes = 0;
    for (String dir : new String[] {"data", "archive"}) {
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(new org.apache.hadoop.fs.Path(root, dir), true);
      while (it.hasNext()) {
        LocatedFileStatus f = it.next();
        if (kind(f.getPath().toUri().getPath()).equals("hfile")) {
          files++;
          bytes += f.getLen();
        }
      }
    }
    return new long[] {files, bytes};
  }

  /**
   * Tallies the statistics' block records by kind of file, direction and stream, and asserts
   * what Curtail carries under HBase: the HFiles' reads, their data blocks included (read
   * through a second file system with checksum verification off; with the block cache off, each
   * get reads its block again, so more bytes than the HFiles hold), and the log split's reads of
   * the aborted server's write-ahead log. HFile writes are not asserted: HBase writes HFiles with
   * {@code DistributedFileSystem.createFile(path)...favoredNodes(..).build()}, a builder Hadoop
   * routes through a private method (stock's stream, no record).
   */
  private void assertCurtailCarriedHBasesFiles(long[] hfiles) throws IOException {
    Map<String, Long> blocks = new TreeMap<>();
    Map<String, Long> bytes = new TreeMap<>();
    for (StatsRecord r : StatsRecord.in(stats)) {
      if (r.isBlock() && r.file().contains("/" + TABLE.getNameAsString() + "/")
          || r.isBlock() && r.file().contains("WALs/")) {
        String key = kind(r.file()) + " " + r.direction() + " " + r.stream();
        blocks.merge(key, 1L, Long::sum);
        bytes.merge(key, r.bytes(), Long::sum);
      }
    }
    System.out.printf("HBase smoke: HFiles HBase wrote: %d files, %d bytes%n", hfiles[0],
        hfiles[1]);
    System.out.println("HBase smoke: block records by kind, direction, stream: " + blocks);
    System.out.println("HBase smoke: their bytes: " + bytes);
    assertTrue(bytes.getOrDefault("hfile read curtail", 0L) > hfiles[1],
        "HFile reads through Curtail's stream, bytes, against the HFiles' " + hfiles[1] + ": "
        + bytes);
    assertTrue(blocks.getOrDefault("wal read curtail", 0L) > 0,
        "the aborted server's write-ahead log was not split through Curtail's stream: " + blocks);
  }
}
