package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.write.CurtailOutputStream;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream.SyncFlag;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Curtail's writer on a healthy cluster: round trips of every awkward size, flush visibility,
 * sync, append, and the stream contract. Everything written is read back byte for byte with the
 * stock client, and every block must reach its full replication.
 */
class CurtailWriteTest {
  private static final int KIB = 1024;
  private static final int BLOCK = 256 * KIB;
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER =
      new FaultyClusterExtension(b -> b.dataNodes(4).blockSize(BLOCK));
  private static FaultyCluster cluster;
  private static DistributedFileSystem stock;
  private static CurtailDistributedFileSystem curtail;
  private static int fileNo;

  /** Short names for what {@link #CLUSTER} started. */
  @BeforeAll
  static void names() throws IOException {
    cluster = CLUSTER.cluster();
    stock = CLUSTER.stock();
    curtail = CLUSTER.curtail(Collections.emptyMap());
  }

  private static Path next() {
    return new Path("/write/f" + (fileNo++));
  }

  /** Reads {@code path} back with the stock client and checks length, bytes and replication. */
  private static void verify(Path path, long seed, long length) throws IOException {
    assertEquals(length, stock.getFileStatus(path).getLen(), "length of " + path);
    SeededData.verify(stock, path, seed, length);
    cluster.awaitReplicas(stock, path, 3);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 511, 512, 513, 64 * KIB - 1, 64 * KIB, 64 * KIB + 1, BLOCK - 1,
      BLOCK, BLOCK + 1, 3 * BLOCK + 12345})
  void roundTrips(int length) throws IOException {
    Path p = next();
    try (FSDataOutputStream out = curtail.create(p)) {
      assertTrue(out.getWrappedStream() instanceof CurtailOutputStream, "Curtail's stream");
      SeededData.write(out, length, length);
      assertEquals(length, out.getPos());
    }
    verify(p, length, length);
  }

  @Test
  void oddWriteSizesAndSingleBytes() throws IOException {
    Path p = next();
    byte[] data = SeededData.bytes(7, 200_000);
    try (FSDataOutputStream out = curtail.create(p)) {
      int pos = 0;
      for (int size = 1; pos < data.length; size = size * 3 % 9973 + 1) {
        int n = Math.min(size, data.length - pos);
        if (n == 1) {
          out.write(data[pos]);
        } else {
          out.write(data, pos, n);
        }
        pos += n;
      }
    }
    verify(p, 7, data.length);
  }

  @Test
  void hflushMakesDataVisibleToANewReader() throws IOException {
    Path p = next();
    byte[] data = SeededData.bytes(11, BLOCK + 1000);
    try (FSDataOutputStream out = curtail.create(p)) {
      int[] marks = {1, 100, 512, 513, 70_000, BLOCK, BLOCK + 1000};
      int written = 0;
      for (int mark : marks) {
        out.write(data, written, mark - written);
        written = mark;
        out.hflush();
        byte[] seen = new byte[mark];
        try (FSDataInputStream in = stock.open(p)) {
          in.readFully(0, seen);
        }
        for (int i = 0; i < mark; i++) {
          if (seen[i] != data[i]) {
            throw new AssertionError("after hflush at " + mark + ", byte " + i + " differs");
          }
        }
      }
    }
    verify(p, 11, data.length);
  }

  @Test
  void hsyncWithUpdateLengthRecordsTheLength() throws IOException {
    Path p = next();
    try (FSDataOutputStream out = curtail.create(p)) {
      SeededData.write(out, 13, 5000);
      out.hsync();
      ((CurtailOutputStream) out.getWrappedStream()).hsync(EnumSet.of(SyncFlag.UPDATE_LENGTH));
      assertEquals(5000, stock.getFileStatus(p).getLen());
      out.write(SeededData.bytes(99, 1), 0, 0);
    }
    verify(p, 13, 5000);
  }

  @Test
  void appendContinuesPartialBlocksAndChunks() throws IOException {
    Path p = next();
    long seed = 17;
    byte[] all = SeededData.bytes(seed, 3 * BLOCK);
    int[] cuts = {1000, 1001, 1537, BLOCK - 3, BLOCK, BLOCK + 512, 2 * BLOCK + 77, 3 * BLOCK};
    try (FSDataOutputStream out = curtail.create(p)) {
      out.write(all, 0, cuts[0]);
    }
    for (int i = 1; i < cuts.length; i++) {
      try (FSDataOutputStream out = curtail.append(p)) {
        assertTrue(out.getWrappedStream() instanceof CurtailOutputStream);
        assertEquals(cuts[i - 1], out.getPos());
        out.write(all, cuts[i - 1], cuts[i] - cuts[i - 1]);
        if (i % 2 == 0) {
          out.hflush();
        }
      }
      byte[] back = new byte[cuts[i]];
      try (FSDataInputStream in = stock.open(p)) {
        in.readFully(0, back);
      }
      for (int j = 0; j < back.length; j++) {
        if (back[j] != all[j]) {
          throw new AssertionError("after append to " + cuts[i] + ", byte " + j + " differs");
        }
      }
    }
    verify(p, seed, all.length);
  }

  @Test
  void appendToNewBlock() throws IOException {
    Path p = next();
    try (FSDataOutputStream out = curtail.create(p)) {
      SeededData.write(out, 19, 1000);
    }
    try (FSDataOutputStream out = curtail.append(p, 4096, null, true)) {
      byte[] rest = new byte[1000];
      SeededData.fill(19, 1000, rest, 0, rest.length);
      out.write(rest);
    }
    verify(p, 19, 2000);
    List<List<Integer>> blocks = cluster.replicas(stock, p);
    assertEquals(2, blocks.size(), "NEW_BLOCK starts a second block");
  }

  @Test
  void streamContract() throws IOException {
    Path p = next();
    FSDataOutputStream out = curtail.create(p);
    assertTrue(out.hasCapability(StreamCapabilities.HFLUSH));
    assertTrue(out.hasCapability(StreamCapabilities.HSYNC));
    assertFalse(out.hasCapability("unbuffer"));
    out.write(1);
    out.close();
    out.close();
    assertThrows(IOException.class, () -> out.write(2));
    assertThrows(FileAlreadyExistsException.class, () -> curtail.create(p, false));
    assertArrayEquals(new byte[] {1}, readAll(p));
  }

  private static byte[] readAll(Path p) throws IOException {
    byte[] b = new byte[(int) stock.getFileStatus(p).getLen()];
    try (FSDataInputStream in = stock.open(p)) {
      in.readFully(0, b);
    }
    return b;
  }
}
