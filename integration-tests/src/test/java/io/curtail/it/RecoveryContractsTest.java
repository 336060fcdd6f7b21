package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.write.CurtailOutputStream;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a stock client promises when a pipeline loses a DataNode, held against Curtail's writer
 * (issue #32): each experiment runs once with the stock client, which shows the promise, and once
 * with Curtail, which must keep it. Every byte written is read back with the stock client.
 */
class RecoveryContractsTest {
  private static final int KIB = 1024;
  private static final int MIB = 1024 * KIB;

  enum Client { STOCK, CURTAIL }

  /** A file system of {@code client} with {@code settings} on top of the cluster's. */
  private static FileSystem open(FaultyCluster c, Client client, Map<String, String> settings)
      throws IOException {
    if (client == Client.CURTAIL) {
      return c.curtailFileSystem(settings);
    }
    Configuration conf = c.conf();
    conf.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
    settings.forEach(conf::set);
    return FileSystem.newInstance(c.uri(), conf);
  }

  private static void assertCurtailStream(Client client, FSDataOutputStream out) {
    if (client == Client.CURTAIL) {
      assertTrue(out.getWrappedStream() instanceof CurtailOutputStream, "Curtail's stream");
    }
  }

  /** Waits (at most 30 s) until the NameNode lists exactly {@code n} replicas of the last block. */
  private static void awaitReplicasOfLastBlock(FaultyCluster c, FileSystem fs, Path p, int n)
      throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    List<List<Integer>> blocks;
    while ((blocks = c.replicas(fs, p)).get(blocks.size() - 1).size() != n) {
      assertTrue(System.nanoTime() < deadline, "replicas of " + p + " still " + blocks);
      Thread.sleep(50);
    }
  }

  /**
   * Three DataNodes, one of them dead but still listed by the NameNode (its heartbeats have not
   * yet run out), so every new block's pipeline of three includes it; with
   * {@code min-replication=2} a stock client sets the block up again on the two survivors and
   * writes on. Curtail must too, rather than give the block back and ask for others.
   */
  @ParameterizedTest
  @EnumSource(Client.class)
  void aDeadButListedDataNodeLeavesTwoSurvivorsThatCarryTheBlock(Client client)
      throws Exception {
    try (FaultyCluster c = FaultyCluster.builder().dataNodes(3).blockSize(MIB).build();
        DistributedFileSystem stock = c.stockFileSystem();
        FileSystem fs = open(c, client, Map.of(
            "dfs.client.block.write.replace-datanode-on-failure.min-replication", "2"))) {
      Path p = new Path("/contracts/dead-listed-" + client);
      long length = 2 * MIB + 777;
      try (Fault dead = c.stop(1)) {
        long askedBefore = c.blocksAllocated();
        try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 3, MIB)) {
          assertCurtailStream(client, out);
          SeededData.write(out, 1, length);
        }
        SeededData.verify(stock, p, 1, length);
        List<List<Integer>> blocks = c.replicas(stock, p);
        for (List<Integer> block : blocks) {
          assertEquals(List.of(0, 2), block.stream().sorted().collect(Collectors.toList()),
              "each block on the two survivors");
        }
        assertEquals(blocks.size(), c.blocksAllocated() - askedBefore,
            "blocks the NameNode allocated: none given back for another");
      }
    }
  }

  /**
   * A file of replication 3 whose third DataNode has died since it was closed (the NameNode
   * knows), so its last block has two replicas left and no spare to add. Stock's
   * {@code DEFAULT} replace-on-failure policy wants a DataNode more before writing to an appended
   * block; with none to be had, a stock append fails (the bytes already there untouched) rather
   * than write on with fewer replicas than the policy allows.
   */
  @ParameterizedTest
  @EnumSource(Client.class)
  void anAppendThatCannotRestoreReplicationIsRefused(Client client) throws Exception {
    try (FaultyCluster c = FaultyCluster.builder().dataNodes(3).blockSize(MIB).build();
        DistributedFileSystem stock = c.stockFileSystem();
        FileSystem fs = open(c, client, Map.of())) {
      Path p = new Path("/contracts/append-short-" + client);
      long length = 100 * KIB + 7;
      try (FSDataOutputStream out = stock.create(p, true, 4096, (short) 3, MIB)) {
        SeededData.write(out, 2, length);
      }
      c.awaitReplicas(stock, p, 3);
      try (Fault dead = c.stopKnownDead(2)) {
        awaitReplicasOfLastBlock(c, stock, p, 2); // the NameNode has dropped the dead one
        IOException refused = assertThrows(IOException.class, () -> {
          // Not try-with-resources: stock's stream may throw its streamer's failure from write
          // and then the very same exception from close, which try-with-resources would add to
          // itself as suppressed (an IllegalArgumentException). The first failure is the answer.
          FSDataOutputStream out = fs.append(p);
          IOException failed = null;
          try {
            assertCurtailStream(client, out);
            byte[] more = new byte[64 * KIB];
            SeededData.fill(2, length, more, 0, more.length);
            out.write(more);
          } catch (IOException e) {
            failed = e;
          }
          try {
            out.close();
          } catch (IOException e) {
            failed = failed == null ? e : failed;
          }
          if (failed != null) {
            throw failed;
          }
        });
        assertTrue(refused.getMessage().contains(
            "dfs.client.block.write.replace-datanode-on-failure.policy"), refused.toString());
        SeededData.verify(stock, p, 2, length);
      }
    }
  }

  /**
   * A file of replication 1, its only DataNode restarted for a rolling upgrade mid-write: the
   * DataNode tells the writer it is restarting (an out-of-band ack), goes down and comes back on
   * its ports with the replica. With no other replica to rebuild from, a stock writer waits for
   * it (up to {@code dfs.client.datanode-restart.timeout}) and writes on to it; so must Curtail.
   */
  @ParameterizedTest
  @EnumSource(Client.class)
  void aWriteWaitsForItsOnlyDataNodeToRestart(Client client) throws Exception {
    try (FaultyCluster c = FaultyCluster.builder().dataNodes(2).blockSize(MIB).build();
        DistributedFileSystem stock = c.stockFileSystem();
        FileSystem fs = open(c, client, Map.of())) {
      Path p = new Path("/contracts/restart-" + client);
      long length = 2 * MIB + 999;
      byte[] all = SeededData.bytes(3, (int) length);
      int before = 300 * KIB;
      try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, MIB)) {
        assertCurtailStream(client, out);
        out.write(all, 0, before);
        out.hflush(); // the pipeline is up, and the restart meets it mid-block
        int dn = c.replicas(stock, p).get(0).get(0);
        CompletableFuture<Void> restart = CompletableFuture.runAsync(() -> {
          try {
            c.restartForUpgrade(dn);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
        // Writing on while it restarts: a send may fail before the restart notice is read.
        for (int at = before; at < all.length; at += 16 * KIB) {
          out.write(all, at, Math.min(16 * KIB, all.length - at));
          Thread.sleep(10);
        }
        restart.join();
      }
      SeededData.verify(stock, p, 3, length);
    }
  }

  /**
   * Two of three DataNodes crash between blocks: the writer excludes them as the next block's
   * pipeline fails to set up on them, and writes that block on the third alone. They come back,
   * and once {@code dfs.client.write.exclude.nodes.cache.expiry.interval.millis} (here 2 s) has
   * passed a stock writer has forgiven them: when the third crashes too, the block after goes to
   * the two that are back. A writer that never forgave them has no DataNode left for it.
   */
  @ParameterizedTest
  @EnumSource(Client.class)
  void dataNodesThatFailedAWriteAreUsedAgainOnceTheirExclusionExpires(Client client)
      throws Exception {
    long expiryMs = 2000;
    try (FaultyCluster c = FaultyCluster.builder().dataNodes(3).blockSize(MIB).build();
        DistributedFileSystem stock = c.stockFileSystem();
        FileSystem fs = open(c, client, Map.of(
            "dfs.client.write.exclude.nodes.cache.expiry.interval.millis",
            Long.toString(expiryMs)))) {
      Path p = new Path("/contracts/forgiven-" + client);
      int length = 2 * MIB + 555;
      byte[] all = SeededData.bytes(4, length);
      try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 3, MIB)) {
        assertCurtailStream(client, out);
        out.write(all, 0, MIB); // the first block, on all three, ended by the flush
        out.hflush();
        try (Fault one = c.stop(1); Fault two = c.stop(2)) {
          out.write(all, MIB, MIB); // the second block: set up on 0 alone, 1 and 2 excluded
          out.hflush();
        } // 1 and 2 restart
        Thread.sleep(expiryMs + 1000);
        try (Fault zero = c.stop(0)) {
          out.write(all, 2 * MIB, length - 2 * MIB); // 0 fails; 1 and 2 are forgiven by now
          out.close();
        }
      }
      SeededData.verify(stock, p, 4, length);
    }
  }
}
