package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.write.CurtailOutputStream;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.LocalKeyStore;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.crypto.CryptoOutputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSStripedOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A create in an encryption zone or an erasure-coded directory creates its file once (issue
 * #33): the NameNode audits one {@code create}, a reader polling the path meanwhile sees one
 * inode id, and the data reads back exact. Before, Curtail created the
 * file, closed it, and created it again with the stock stream: an empty file was briefly visible
 * and an encrypted file cost a second data key.
 */
class CreateOnceTest {
  private static final String KEY = "curtail-test-key";
  private static final String EC_POLICY = "XOR-2-1-1024k"; // three DataNodes
  private static final long LENGTH = 3L * 1024 * 1024 + 7; // past a 1 MiB cell, and a block
  /** A local key store both the NameNode and the clients use as the zones' key provider. */
  private static final LocalKeyStore KEYS = LocalKeyStore.withKeys(KEY);
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER = new FaultyClusterExtension(b -> b.dataNodes(3)
      .blockSize(1024 * 1024)
      .set(LocalKeyStore.PROVIDER_PATH, KEYS.uri())
      .set("dfs.namenode.audit.loggers", CreateAudit.class.getName()));
  private static DistributedFileSystem stock;

  @BeforeAll
  static void zones() throws IOException {
    stock = CLUSTER.stock();
    Path zone = new Path("/create-once/zone");
    stock.mkdirs(zone);
    stock.createEncryptionZone(zone, KEY);
    Path ec = new Path("/create-once/ec");
    stock.mkdirs(ec);
    stock.enableErasureCodingPolicy(EC_POLICY);
    stock.setErasureCodingPolicy(ec, EC_POLICY);
  }

  @AfterAll
  static void deleteKeys() {
    KEYS.close();
  }

  @Test
  void encryptedCreateCreatesOnceAndWritesThroughCurtailsPipeline() throws Exception {
    Path p = new Path("/create-once/zone/file");
    String wrapped = createWatched(p, 41);
    assertTrue(wrapped.startsWith(CryptoOutputStream.class.getName() + ">"
        + CurtailOutputStream.class.getName()), wrapped);
    // What reached the DataNodes is not the plain text.
    Path raw = new Path("/.reserved/raw" + p.toUri().getPath());
    assertEquals(LENGTH, stock.getFileStatus(raw).getLen());
    assertTrue(SeededData.intactPrefix(stock, raw, 41) < 16, "the raw bytes are the plain text");
  }

  @Test
  void erasureCodedCreateCreatesOnceWithStocksStripedStream() throws Exception {
    Path p = new Path("/create-once/ec/file");
    String wrapped = createWatched(p, 42);
    assertEquals(DFSStripedOutputStream.class.getName(), wrapped);
  }

  /**
   * Creates {@code p} with Curtail while a stock client polls its inode id, writes seeded data,
   * and checks the file was created once and reads back exact through both clients; returns the
   * classes of the stream the data went through, outermost first, joined by {@code >}.
   */
  private static String createWatched(Path p, long seed) throws Exception {
    String src = p.toUri().getPath();
    Set<Long> seen = ConcurrentHashMap.newKeySet();
    AtomicBoolean writing = new AtomicBoolean(true);
    Thread poller = new Thread(() -> {
      while (writing.get()) {
        try {
          HdfsFileStatus s = stock.getClient().getFileInfo(src);
          if (s != null) {
            seen.add(s.getFileId());
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }, "inode-poller");
    poller.start();
    String wrapped;
    try (FileSystem fs = CLUSTER.cluster().curtailFileSystem(Collections.emptyMap());
        FSDataOutputStream out = fs.create(p, true)) {
      assertTrue(out instanceof HdfsDataOutputStream, out.getClass().getName());
      wrapped = out.getWrappedStream().getClass().getName();
      if (out.getWrappedStream() instanceof CryptoOutputStream) {
        wrapped += ">" + ((CryptoOutputStream) out.getWrappedStream()).getWrappedStream()
            .getClass().getName();
      }
      SeededData.write(out, seed, LENGTH);
    } finally {
      writing.set(false);
      poller.join();
    }
    long inode = stock.getClient().getFileInfo(src).getFileId();
    assertEquals(1, CreateAudit.creates(src), "creates of " + src + " the NameNode audited");
    assertEquals(Set.of(inode), seen, "inodes a reader saw at " + src);
    SeededData.verify(stock, p, seed, LENGTH);
    try (FileSystem fs = CLUSTER.cluster().curtailFileSystem(Collections.emptyMap())) {
      SeededData.verify(fs, p, seed, LENGTH);
    }
    return wrapped;
  }
}
