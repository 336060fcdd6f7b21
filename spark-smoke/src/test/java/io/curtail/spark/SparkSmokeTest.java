package io.curtail.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import java.io.File;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Spark in local mode, on nothing but its own class path (its shaded Hadoop client) and
 * curtail-client, with {@code spark.hadoop.fs.hdfs.impl} swapped, against a cluster of separate
 * processes started by {@code docker/local-cluster}: a Parquet and a text round trip come back
 * exactly, and Curtail's per-block statistics show its own streams wrote and read the blocks. On
 * Spark 3.5 (Hadoop client 3.3.4) a pipeline recovery runs too: the calls that differ between
 * Hadoop 3.3 and 3.4 are on that path.
 */
// The faults last: what the writer learnt of a slow DataNode stays with the JVM (by design), and
// would have the round trips replace it again after it healed.
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkSmokeTest {
  private static final int NN_PORT = 19_620;
  private static final File DIR = new File("target/spark-cluster").getAbsoluteFile();
  private static final File STATS = new File("target/spark-stats").getAbsoluteFile();
  private static final String HDFS = "hdfs://127.0.0.1:" + NN_PORT;
  private static SparkSession spark;

  private static String launcher(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", "../docker/local-cluster"));
    command.addAll(List.of(args));
    File out = new File(DIR.getParentFile(), "spark-cluster-" + args[0] + ".out");
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out);
    pb.environment().put("CURTAIL_CLUSTER_DIR", DIR.getPath());
    pb.environment().put("CURTAIL_NN_PORT", Integer.toString(NN_PORT));
    Process p = pb.start();
    assertTrue(p.waitFor(3, TimeUnit.MINUTES), "local-cluster " + args[0] + " hung");
    String printed = new String(Files.readAllBytes(out.toPath()), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), "local-cluster " + String.join(" ", args) + ":\n" + printed);
    return printed;
  }

  @BeforeAll
  static void start() throws Exception {
    launcher("start", "-n", "4"); // a spare beyond replication 3, for recoveries
    assertTrue(STATS.mkdirs() || STATS.isDirectory());
    spark = SparkSession.builder().master("local[2]").appName("curtail-smoke")
        .config("spark.ui.enabled", "false")
        .config("spark.hadoop.fs.hdfs.impl", "io.curtail.client.CurtailDistributedFileSystem")
        .config("spark.hadoop.curtail.stats.dir", STATS.getPath())
        .config("spark.hadoop.dfs.blocksize", Integer.toString(1024 * 1024))
        .getOrCreate();
  }

  @AfterAll
  static void stop() throws Exception {
    if (spark != null) {
      spark.stop();
    }
    launcher("stop");
  }

  @Test
  @Order(1)
  void theClassPathIsSparksShadedHadoop() throws Exception {
    String where = Class.forName("org.apache.hadoop.fs.FileSystem").getProtectionDomain()
        .getCodeSource().getLocation().getPath();
    assertTrue(where.contains("hadoop-client-api"), where);
    assertTrue(Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
        .noneMatch(e -> e.contains("hadoop-hdfs-client") || e.contains("curtail-wire")),
        "an unshaded Hadoop client or a Curtail module beside curtail-client");
  }

  @Test
  @Order(2)
  void parquetAndTextComeBackExactlyThroughCurtail() throws Exception {
    Dataset<Row> rows = spark.range(0, 300_000)
        .selectExpr("id", "id * 7919 % 1000003 as x", "concat('row-', cast(id as string)) as s");
    rows.write().mode("overwrite").parquet(HDFS + "/smoke/parquet");
    Dataset<Row> back = spark.read().parquet(HDFS + "/smoke/parquet");
    assertEquals(300_000, back.count());
    assertEquals(0, back.exceptAll(rows).count(), "rows read that were not written");
    assertEquals(0, rows.exceptAll(back).count(), "rows written that were not read");

    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      lines.add("line " + i + " " + Integer.toHexString(i * 40503));
    }
    spark.createDataset(lines, Encoders.STRING()).repartition(3).write().mode("overwrite")
        .text(HDFS + "/smoke/text");
    List<String> read = new ArrayList<>(
        spark.read().textFile(HDFS + "/smoke/text").collectAsList());
    Collections.sort(read);
    List<String> want = new ArrayList<>(lines);
    Collections.sort(want);
    assertEquals(want, read);

    assertTrue(curtailBlocks("write") > 0, "no block written by Curtail's stream");
    assertTrue(curtailBlocks("read") > 0, "no block read by Curtail's stream");
  }

  /**
   * Through the file system Spark's jobs get, on Spark's class path: a DataNode of the pipeline
   * killed in the middle of a write (a recovery); every byte read back.
   */
  @Test
  @Order(3)
  void aRecoveryOnSparksHadoopClient() throws Exception {
    FileSystem fs = FileSystem.get(new URI(HDFS), spark.sparkContext().hadoopConfiguration());
    assertTrue(fs instanceof CurtailDistributedFileSystem, fs.getClass().getName());
    CurtailDistributedFileSystem curtail = (CurtailDistributedFileSystem) fs;

    Path recovered = new Path("/smoke/recovery");
    byte[] data = bytes(1, 6 * 1024 * 1024);
    long recoveries = curtail.pipelineRecoveries();
    int killed = 0;
    try {
      try (FSDataOutputStream out = fs.create(recovered, (short) 3)) {
        int cut = 3 * 1024 * 1024 + 300_000; // inside a block (1 MiB here): its pipeline is open
        out.write(data, 0, cut);
        out.hflush();
        // The block being written, as the NameNode lists it (a file's length leaves it out).
        DatanodeInfo[] pipeline = curtail.getClient().getLocatedBlocks(recovered.toString(), 0)
            .getLastLocatedBlock().getLocations();
        killed = dataNodeIndex(pipeline[1].getXferPort());
        launcher("kill", Integer.toString(killed));
        out.write(data, cut, data.length - cut);
      }
      assertTrue(curtail.pipelineRecoveries() > recoveries, "no pipeline recovery counted");
      assertArrayEquals(data, readAll(fs, recovered));
    } finally {
      if (killed > 0) { // the next step needs every DataNode, whatever became of this one
        launcher("revive", Integer.toString(killed));
      }
    }
  }

  /**
   * A fail-fast replacement through Spark's class path: one DataNode's disk made slow (20 ms a
   * packet, about ten times a healthy one here) and pinned into the pipeline by favoured nodes,
   * in a file of one 8 MiB block (128 packets), with the fourth DataNode spare. The slow one needs
   * 20 acked packets before it is judged (p95 of a 100-packet window); the hundred left are what
   * replacing saves, far more than rebuilding 20 on the spare costs, so the cost model replaces
   * it every time. The step this replaces left it to chance whether the slow DataNode was in any
   * pipeline, and ran right after the recovery's revive, when the revived DataNode (the slow one,
   * or the only spare) was not yet registered again: the NameNode placed nothing on it.
   */
  @Test
  @Order(4)
  void aFailFastReplacementOnSparksHadoopClient() throws Exception {
    FileSystem fs = FileSystem.get(new URI(HDFS), spark.sparkContext().hadoopConfiguration());
    CurtailDistributedFileSystem curtail = (CurtailDistributedFileSystem) fs;
    DatanodeInfo[] live = curtail.getDataNodeStats();
    assertTrue(live.length >= 4, "a spare beyond the pipeline: " + live.length + " DataNodes");
    // The last DataNodes by the launcher's numbers: the slow one the same in every run.
    Arrays.sort(live, (a, b) -> Integer.compare(b.getXferPort(), a.getXferPort()));
    InetSocketAddress[] favoured = new InetSocketAddress[3];
    for (int i = 0; i < favoured.length; i++) {
      favoured[i] = new InetSocketAddress(live[i].getIpAddr(), live[i].getXferPort());
    }
    int slow = dataNodeIndex(live[0].getXferPort());
    Path p = new Path("/smoke/replacement");
    int length = 8 * 1024 * 1024;
    byte[] data = bytes(3, length);
    long replacements = curtail.replacements();
    launcher("fault", Integer.toString(slow), "slowDisk", "20000", "0", "false");
    try (FSDataOutputStream out = curtail.create(p, null,
        EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE), 4096, (short) 3, length, null, null,
        favoured)) {
      out.write(data);
    } finally {
      launcher("fault", Integer.toString(slow), "heal");
    }
    assertTrue(curtail.replacements() > replacements, "slow dn" + slow + " not replaced");
    assertArrayEquals(data, readAll(fs, p));
    for (BlockLocation b : fs.getFileBlockLocations(p, 0, length)) {
      assertFalse(Arrays.asList(b.getNames()).contains(favoured[0].getAddress().getHostAddress()
          + ":" + favoured[0].getPort()), "slow dn" + slow + " still holds a replica: "
          + Arrays.toString(b.getNames()));
    }
  }

  private static byte[] bytes(long seed, int n) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static byte[] readAll(FileSystem fs, Path p) throws Exception {
    try (FSDataInputStream in = fs.open(p)) {
      byte[] b = new byte[(int) fs.getFileStatus(p).getLen()];
      in.readFully(0, b);
      return b;
    }
  }

  /** The launcher's number of the DataNode whose transfer port is {@code port}. */
  private static int dataNodeIndex(int port) {
    return (port - NN_PORT - 180) / 10;
  }

  /** Blocks Curtail's own streams read or wrote, in the statistics written so far. */
  private static long curtailBlocks(String dir) throws Exception {
    Thread.sleep(500); // the statistics are written every 200 ms, off the data path
    long n = 0;
    try (Stream<java.nio.file.Path> files = Files.list(STATS.toPath())) {
      for (java.nio.file.Path f : files.collect(Collectors.toList())) {
        n += Files.readAllLines(f, StandardCharsets.UTF_8).stream()
            .filter(l -> l.contains("\"level\":\"block\"") && l.contains("\"dir\":\"" + dir + "\"")
                && l.contains("\"stream\":\"curtail\""))
            .count();
      }
    }
    return n;
  }
}
