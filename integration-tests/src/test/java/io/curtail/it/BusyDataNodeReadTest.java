package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.read.CurtailInputStream;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A DataNode whose every transfer thread is taken ({@code dfs.datanode.max.transfer.threads}, as
 * under many readers) refuses new reads, closing their connections at once. Stock clients wait
 * and ask the NameNode again over a window that grows ({@code dfs.client.retry.window.base}), and
 * give up after {@code dfs.client.max.block.acquire.failures} rounds with a
 * {@link BlockMissingException}; Curtail's reader must be as patient, and fail the same way.
 *
 * <p>The threads are taken by connections that never send an operation: each holds a DataNode
 * thread waiting for one until it is closed. The DataNode keeps a connection between reads only
 * briefly ({@code dfs.datanode.socket.reuse.keepalive}), so that none kept from an earlier read
 * serves the read under test.
 */
class BusyDataNodeReadTest {
  private static final int MAX_THREADS = 4;
  /** The retry window, shortened from stock's 3 s so the tests take seconds. */
  private static final long WINDOW_MS = 250;
  private static final long LENGTH = 300 * 1024;
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER = new FaultyClusterExtension(b -> b.dataNodes(1)
      .blockSize(256 * 1024)
      .set("dfs.datanode.max.transfer.threads", Integer.toString(MAX_THREADS))
      .set("dfs.client.max.block.acquire.failures", "3")
      .set("dfs.datanode.socket.reuse.keepalive", "100"));

  @Test
  void aReadRefusedWhileEveryTransferThreadIsBusyWaitsAndSucceedsOnceOneIsFree()
      throws Exception {
    FaultyCluster c = CLUSTER.cluster();
    Path p = new Path("/busy/recovers");
    SeededData.create(CLUSTER.stock(), p, 11, LENGTH);
    ExecutorService reader = Executors.newSingleThreadExecutor();
    long windowMs = 4 * WINDOW_MS;
    List<Socket> hogs = new ArrayList<>();
    try (CurtailDistributedFileSystem fs = c.curtailFileSystem(Collections.singletonMap(
            "dfs.client.retry.window.base", Long.toString(windowMs)));
        FSDataInputStream in = fs.open(p)) {
      assertTrue(in.getWrappedStream() instanceof CurtailInputStream);
      // A first read loads the read path, so that the read under test meets the busy DataNode
      // at once rather than after the threads are freed.
      assertEquals(LENGTH, SeededData.verify(fs, p, 11, LENGTH));
      hogs.addAll(takeEveryTransferThread(c));
      Future<byte[]> read = reader.submit(() -> {
        byte[] got = new byte[(int) LENGTH];
        in.readFully(0, got);
        return got;
      });
      // Stock's earliest last attempt comes 3 windows after the first (0 + 1 + 2 windows of
      // waiting); the threads are freed before that, so a patient reader must succeed.
      Thread.sleep(windowMs * 3 / 2);
      assertTrue(!read.isDone(), "the read ended while the DataNode refused every read");
      release(hogs);
      assertArrayEquals(SeededData.bytes(11, (int) LENGTH), read.get(30, TimeUnit.SECONDS));
    } finally {
      release(hogs);
      reader.shutdownNow();
    }
  }

  @Test
  void aReadRefusedThroughoutFailsAfterStocksRoundsWithBlockMissingException() throws Exception {
    FaultyCluster c = CLUSTER.cluster();
    Path p = new Path("/busy/gives-up");
    SeededData.create(CLUSTER.stock(), p, 12, LENGTH);
    List<Socket> hogs = takeEveryTransferThread(c);
    try (CurtailDistributedFileSystem fs = c.curtailFileSystem(Collections.singletonMap(
            "dfs.client.retry.window.base", Long.toString(WINDOW_MS)));
        FSDataInputStream in = fs.open(p)) {
      long start = System.nanoTime();
      IOException e = assertThrows(IOException.class, () -> in.read(0, new byte[4096], 0, 4096));
      long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(e instanceof BlockMissingException, "stock throws BlockMissingException: " + e);
      assertEquals(p.toString(), ((BlockMissingException) e).getFile());
      // Three waits before giving up: at least 0 + 1 + 2 windows, at most 1 + 3 + 5.
      assertTrue(tookMs >= 3 * WINDOW_MS && tookMs < 9 * WINDOW_MS + 5_000,
          "gave up after " + tookMs + " ms");
    } finally {
      release(hogs);
    }
    // Freed, the DataNode serves the file again.
    try (CurtailDistributedFileSystem fs = c.curtailFileSystem(Collections.emptyMap())) {
      assertEquals(LENGTH, SeededData.verify(fs, p, 12, LENGTH));
    }
  }

  /**
   * Opens idle connections to the DataNode until it runs more transfer threads than it allows,
   * so that it refuses the next connection.
   */
  private static List<Socket> takeEveryTransferThread(FaultyCluster c) throws IOException {
    DataNode dn = c.dataNode(0);
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (dn.getXceiverCount() > 0) { // connections kept from earlier reads: wait them out
      if (System.nanoTime() > deadline) {
        throw new IOException("the DataNode still runs " + dn.getXceiverCount()
            + " transfer threads after 20 s without reads");
      }
      sleep(20);
    }
    List<Socket> hogs = new ArrayList<>();
    while (dn.getXceiverCount() <= MAX_THREADS) {
      if (hogs.size() < 2 * MAX_THREADS) {
        hogs.add(new Socket(c.address(0).getAddress(), c.address(0).getPort()));
      }
      if (System.nanoTime() > deadline) {
        release(hogs);
        throw new IOException("the DataNode runs " + dn.getXceiverCount() + " transfer threads"
            + " after " + hogs.size() + " idle connections, never over " + MAX_THREADS);
      }
      sleep(20);
    }
    return hogs;
  }

  private static void release(List<Socket> hogs) {
    for (Socket s : hogs) {
      try {
        s.close();
      } catch (IOException ignored) {
        // closing
      }
    }
  }

  private static void sleep(long ms) throws IOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException();
    }
  }
}
