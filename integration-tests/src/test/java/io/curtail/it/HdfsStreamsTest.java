package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.read.CurtailInputStream;
import io.curtail.client.write.CurtailOutputStream;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.ReadStatistics;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream.SyncFlag;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Applications that test for the HDFS stream types (Spark's history server, Storm's HDFS bolt)
 * get them from Curtail, with what they offer working as stock's does: read statistics, visible
 * length, blocks, {@code hsync(UPDATE_LENGTH)}, the current block's replication (issue #32); and
 * an append to a missing file fails as stock's does (issue #33).
 */
class HdfsStreamsTest {
  private static final int BLOCK = 256 * 1024;
  private static final long LENGTH = 3L * BLOCK + 100;
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER =
      new FaultyClusterExtension(b -> b.dataNodes(4).blockSize(BLOCK));
  private static FaultyCluster cluster;
  private static DistributedFileSystem stock;
  @TempDir
  static java.nio.file.Path statsDirs;

  @BeforeAll
  static void names() {
    cluster = CLUSTER.cluster();
    stock = CLUSTER.stock();
  }

  /**
   * Settings of each way a Curtail file system makes its streams: Curtail's own; Curtail's with
   * per-file statistics records around them; stock's, timed for statistics.
   */
  private static Map<String, String> settings(String streams) throws IOException {
    Map<String, String> s = new HashMap<>();
    if (!streams.equals("curtail")) {
      s.put("curtail.stats.dir", Files.createTempDirectory(statsDirs, streams).toString());
    }
    if (streams.equals("stock-recorded")) {
      s.put("curtail.read.hedging", "off");
      s.put("curtail.write.failfast.enabled", "false");
    }
    return s;
  }

  @ParameterizedTest
  @ValueSource(strings = {"curtail", "curtail-recorded", "stock-recorded"})
  void writeStreamIsAnHdfsDataOutputStreamWithSyncAndReplication(String streams)
      throws IOException {
    Path p = new Path("/hdfs-streams/write-" + streams);
    long half = LENGTH / 2;
    try (FileSystem fs = cluster.curtailFileSystem(settings(streams));
        FSDataOutputStream out = fs.create(p, true, 4096, (short) 3, BLOCK)) {
      assertTrue(out instanceof HdfsDataOutputStream, out.getClass().getName());
      assertEquals(!streams.startsWith("stock"),
          out.getWrappedStream() instanceof CurtailOutputStream,
          out.getWrappedStream().toString());
      HdfsDataOutputStream hdfs = (HdfsDataOutputStream) out;
      SeededData.write(out, 31, half);
      hdfs.hsync(EnumSet.of(SyncFlag.UPDATE_LENGTH));
      assertEquals(half, stock.getFileStatus(p).getLen(), "the length hsync recorded");
      assertEquals(3, hdfs.getCurrentBlockReplication());
      byte[] rest = new byte[(int) (LENGTH - half)];
      SeededData.fill(31, half, rest, 0, rest.length);
      out.write(rest);
      assertEquals(LENGTH, out.getPos());
    }
    SeededData.verify(stock, p, 31, LENGTH);
  }

  @ParameterizedTest
  @ValueSource(strings = {"curtail", "curtail-recorded", "stock-recorded"})
  void readStreamIsAnHdfsDataInputStreamCountingAsStocksDoes(String streams)
      throws IOException {
    Path p = new Path("/hdfs-streams/read-" + streams);
    SeededData.create(stock, p, 32, LENGTH);
    ReadStatistics stocks = readWhole(stock, p, false);
    try (FileSystem fs = cluster.curtailFileSystem(settings(streams))) {
      ReadStatistics curtails = readWhole(fs, p, !streams.startsWith("stock"));
      assertEquals(LENGTH, curtails.getTotalBytesRead());
      assertEquals(stocks.getTotalLocalBytesRead(), curtails.getTotalLocalBytesRead(), "local");
      assertEquals(0, curtails.getTotalShortCircuitBytesRead(), "short-circuit");
      assertEquals(0, curtails.getTotalZeroCopyBytesRead(), "zero-copy");
    }
  }

  /**
   * Reads {@code p} through {@code fs} as an application that tests for the HDFS type would,
   * checking every byte and what the stream tells of the file; returns its read statistics.
   */
  private static ReadStatistics readWhole(FileSystem fs, Path p, boolean curtails)
      throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      assertTrue(in instanceof HdfsDataInputStream, in.getClass().getName());
      HdfsDataInputStream hdfs = (HdfsDataInputStream) in;
      assertEquals(curtails, hdfs.getWrappedStream() instanceof CurtailInputStream,
          hdfs.getWrappedStream().toString());
      assertEquals(LENGTH, hdfs.getVisibleLength());
      List<LocatedBlock> blocks = hdfs.getAllBlocks();
      assertEquals(4, blocks.size(), blocks.toString());
      in.seek(BLOCK + 10);
      assertTrue(in.read() >= 0);
      assertEquals(blocks.get(1).getBlock().getBlockId(), hdfs.getCurrentBlock().getBlockId());
      DatanodeInfo from = hdfs.getCurrentDatanode();
      assertNotNull(from, "the DataNode a sequential read is connected to");
      assertTrue(Arrays.asList(blocks.get(1).getLocations()).contains(from),
          from + " holds none of " + Arrays.toString(blocks.get(1).getLocations()));
      hdfs.clearReadStatistics();
      assertEquals(0, hdfs.getReadStatistics().getTotalBytesRead(), "cleared");
      in.seek(0);
      SeededData.verify((InputStream) in, 32, LENGTH, p.toString());
      // At the end, the block the last read came from (Hadoop's DFSTestUtil.getFirstBlock reads
      // one byte of a one-byte file and asks).
      assertEquals(blocks.get(3).getBlock().getBlockId(), hdfs.getCurrentBlock().getBlockId(),
          "at the end of the file");
      return hdfs.getReadStatistics();
    }
  }

  @Test
  void favouredNodeCreateTypedForHdfsGivesCurtailsStream() throws IOException {
    Path p = new Path("/hdfs-streams/favoured");
    InetSocketAddress[] favoured = {cluster.address(0)};
    try (DistributedFileSystem fs = cluster.curtailFileSystem(Collections.emptyMap());
        HdfsDataOutputStream out = fs.create(p, FsPermission.getFileDefault(), true, 4096,
            (short) 3, BLOCK, null, favoured)) {
      assertTrue(out.getWrappedStream() instanceof CurtailOutputStream,
          out.getWrappedStream().getClass().getName());
      SeededData.write(out, 33, LENGTH);
    }
    SeededData.verify(stock, p, 33, LENGTH);
    for (List<Integer> replicas : cluster.replicas(stock, p)) {
      assertTrue(replicas.contains(0), "a block not on the favoured DataNode: " + replicas);
    }
  }

  /**
   * The {@code appendFile} builder reaches the public favoured-node {@code append}, which Curtail
   * overrides, so its stream is Curtail's; the {@code createFile} builder goes through a private
   * {@code create} of stock's (its class is final, its constructor private) and stays stock's.
   */
  @Test
  void theAppendFileBuilderGivesCurtailsStreamTheCreateFileBuilderStocks() throws IOException {
    Path p = new Path("/hdfs-streams/builders");
    try (DistributedFileSystem fs = cluster.curtailFileSystem(Collections.emptyMap())) {
      try (FSDataOutputStream out = fs.createFile(p).recursive().replication((short) 3).build()) {
        assertFalse(out.getWrappedStream() instanceof CurtailOutputStream,
            out.getWrappedStream().getClass().getName());
        SeededData.write(out, 34, LENGTH);
      }
      try (FSDataOutputStream out = fs.appendFile(p).build()) {
        assertTrue(out.getWrappedStream() instanceof CurtailOutputStream,
            out.getWrappedStream().getClass().getName());
        byte[] more = new byte[1000];
        SeededData.fill(34, LENGTH, more, 0, more.length);
        out.write(more);
      }
    }
    SeededData.verify(stock, p, 34, LENGTH + 1000);
  }

  @Test
  void appendingToAMissingFileFailsAsStocksDoes() throws IOException {
    Path p = new Path("/hdfs-streams/missing");
    IOException stocks = assertThrows(IOException.class, () -> stock.append(p).close());
    try (FileSystem fs = cluster.curtailFileSystem(Collections.emptyMap())) {
      IOException curtails = assertThrows(IOException.class, () -> fs.append(p).close());
      assertEquals(stocks.getClass(), curtails.getClass());
      assertEquals(stocks.getMessage(), curtails.getMessage());
    }
    assertTrue(!stock.exists(p), p + " was created");
  }
}
