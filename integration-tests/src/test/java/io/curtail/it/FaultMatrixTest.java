package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fault matrix: each fault a production cluster meets, under the stock client and under
 * Curtail, on a cluster of its own. For each: whether the write or read completed, the bytes lost
 * (of those the application was told are safe, hflushed or closed, read back with the stock
 * client), the file's replication once the NameNode settles, and the time. Curtail must complete
 * every scenario stock completes, lose nothing, and end with full replication; both outcomes
 * are written to {@code target/fault-matrix.md}.
 */
class FaultMatrixTest {
  private static final int KIB = 1024;
  private static final int MIB = 1024 * KIB;
  private static final long BLOCK = 4 * MIB;
  private static final long LENGTH = 3 * BLOCK;
  private static final short REPLICATION = 3;
  private static final long SEED = 42;
  private static final List<String> ROWS = Collections.synchronizedList(new ArrayList<>());
  /** Whether stock completed each scenario: Curtail must wherever stock did. */
  private static final Map<Scenario, Boolean> STOCK_COMPLETED =
      new java.util.concurrent.ConcurrentHashMap<>();

  enum Client { STOCK, CURTAIL }

  /** What one scenario does to the cluster while {@link Run#fs} writes or reads {@link Run#p}. */
  enum Scenario {
    /** The NameNode restarts while a file is written (a new block allocated across it). */
    NAMENODE_RESTART_WRITE(false) {
      @Override
      void run(Run r) throws Exception {
        try (FSDataOutputStream out = r.create()) {
          r.writeRange(out, 0, 5 * MIB, 0);
          r.hflush(out, 5 * MIB); // the second block allocated: the restart meets it mid-block
          CompletableFuture<Void> restart = r.background(r.c::restartNameNode);
          r.writeRange(out, 5 * MIB, LENGTH, 30); // paced so the writing spans the restart
          restart.join();
        }
      }
    },
    /** The NameNode restarts while a file is read sequentially and positionally. */
    NAMENODE_RESTART_READ(true) {
      @Override
      void run(Run r) throws Exception {
        try (FSDataInputStream in = r.fs.open(r.p)) {
          r.readRange(in, 0, 2 * MIB, 0);
          CompletableFuture<Void> restart = r.background(r.c::restartNameNode);
          r.readRange(in, 2 * MIB, LENGTH, 20);
          restart.join();
          r.pread(in, LENGTH - 3 * MIB, 2 * MIB);
        }
      }
    },
    /**
     * Block tokens live 2 s; a write pauses past that, then loses a DataNode: the recovery and
     * the blocks after it need tokens newer than the pipeline's.
     */
    TOKEN_EXPIRY_WRITE(false) {
      @Override
      void run(Run r) throws Exception {
        r.c.blockTokenLifetime(2000);
        r.writeWithFaultMidBlock(() -> {
          Thread.sleep(3000);
          r.undo.add(r.c.stop(r.pipelineMember()));
        });
      }
    },
    /**
     * Block tokens live 2 s; a read pauses past that mid-file, then reads on and reads
     * positionally: every request after the pause carries an expired token at first.
     */
    TOKEN_EXPIRY_READ(true) {
      @Override
      void run(Run r) throws Exception {
        r.c.blockTokenLifetime(2000);
        try (FSDataInputStream in = r.fs.open(r.p)) {
          r.readRange(in, 0, MIB, 0);
          Thread.sleep(3000);
          r.readRange(in, MIB, LENGTH, 0);
          r.pread(in, 0, MIB);
          r.pread(in, BLOCK + 12345, 2 * MIB);
        }
      }
    },
    /** A DataNode of the pipeline runs out of space mid-block and stays full. */
    DISK_FULL_MID_BLOCK(false) {
      @Override
      void run(Run r) throws Exception {
        r.writeWithFaultMidBlock(() -> r.undo.add(r.c.fillDisk(r.pipelineMember())));
      }
    },
    /**
     * dn0 is slow, heals, and turns slow again, over nine files: Curtail replaces it at most
     * twice per slow spell (no storm), stops avoiding it once healed and forgotten, and avoids
     * it again once slow again.
     */
    SLOW_HEALS_SLOW_AGAIN(false) {
      @Override
      void run(Run r) throws Exception {
        DiskFault slow = DiskFault.serviceTime(Duration.ofMillis(10));
        long[] replacements = new long[3];
        for (int spell = 0; spell < 3; spell++) {
          Fault f = spell == 1 ? () -> { } : r.c.slowDisk(0, slow);
          try (Fault undo = f) {
            for (int file = 0; file < 3; file++) {
              Path q = new Path(r.p + "-" + spell + "-" + file);
              try (FSDataOutputStream out = r.fs.create(q, true, 4096, REPLICATION, BLOCK)) {
                SeededData.write(out, SEED + spell * 3 + file, BLOCK);
              }
              r.extra.add(q);
            }
          }
          replacements[spell] = r.replacements();
          if (spell == 1 && r.fs instanceof CurtailDistributedFileSystem) {
            Thread.sleep(MEMORY_MS + 500);
            assertEquals(0, ((CurtailDistributedFileSystem) r.fs).runtime().slowNodes()
                .avoided().size(), "dn0 forgotten once healed");
          }
        }
        r.note = "replacements per spell " + replacements[0] + ", "
            + (replacements[1] - replacements[0]) + ", " + (replacements[2] - replacements[1]);
        if (r.fs instanceof CurtailDistributedFileSystem) {
          assertTrue(replacements[0] <= 2 && replacements[2] - replacements[1] <= 2,
              "no replacement storm: " + r.note);
        }
        try (FSDataOutputStream out = r.create()) {
          r.writeRange(out, 0, LENGTH, 0);
        }
      }
    },
    /**
     * A DataNode of the pipeline restarts for an upgrade mid-block: it sends the writer an
     * out-of-band "restarting" ack, goes down and comes back on its ports.
     */
    UPGRADE_RESTART_MID_WRITE(false) {
      @Override
      void run(Run r) throws Exception {
        r.writeWithFaultMidBlock(() -> r.c.restartForUpgrade(r.pipelineMember()));
      }
    };

    /** Curtail's memory of a slow DataNode in {@link #SLOW_HEALS_SLOW_AGAIN}. */
    static final long MEMORY_MS = 3000;

    /** The file exists before (written healthy by stock) and the scenario reads it. */
    final boolean reads;

    Scenario(boolean reads) {
      this.reads = reads;
    }

    abstract void run(Run r) throws Exception;
  }

  /** One scenario under one client: its cluster, file systems, file and what to undo after. */
  static final class Run {
    final FaultyCluster c;
    final FileSystem fs;
    final Path p;
    final List<Fault> undo = new ArrayList<>();
    final List<Path> extra = new ArrayList<>();
    /** Bytes of {@link #p} the application was told are safe: hflushed, or closed. */
    long durable;
    String note = "";

    Run(FaultyCluster c, FileSystem fs, Path p) {
      this.c = c;
      this.fs = fs;
      this.p = p;
    }

    void hflush(FSDataOutputStream out, long length) throws IOException {
      out.hflush();
      durable = length;
    }

    /**
     * Writes the file: its first MiB, hflushed (the pipeline set up and known), then
     * {@code fault}, then the rest, across the next blocks.
     */
    void writeWithFaultMidBlock(Action fault) throws Exception {
      try (FSDataOutputStream out = create()) {
        writeRange(out, 0, MIB, 0);
        hflush(out, MIB);
        fault.run();
        writeRange(out, MIB, LENGTH, 0);
      }
    }

    FSDataOutputStream create() throws IOException {
      return fs.create(p, true, 4096, REPLICATION, BLOCK);
    }

    /** Writes the seeded bytes [from, to) in 64 KiB writes, {@code pauseMs} after each. */
    void writeRange(FSDataOutputStream out, long from, long to, long pauseMs) throws Exception {
      byte[] chunk = new byte[64 * KIB];
      for (long at = from; at < to; at += chunk.length) {
        int len = (int) Math.min(chunk.length, to - at);
        SeededData.fill(SEED, at, chunk, 0, len);
        out.write(chunk, 0, len);
        if (pauseMs > 0) {
          Thread.sleep(pauseMs);
        }
      }
    }

    /** Reads and checks the bytes [from, to) sequentially, {@code pauseMs} after each 64 KiB. */
    void readRange(FSDataInputStream in, long from, long to, long pauseMs) throws Exception {
      byte[] got = new byte[64 * KIB];
      byte[] want = new byte[got.length];
      for (long at = from; at < to; at += got.length) {
        int len = (int) Math.min(got.length, to - at);
        in.readFully(got, 0, len);
        SeededData.check(got, len, SEED, at, want, p.toString());
        if (pauseMs > 0) {
          Thread.sleep(pauseMs);
        }
      }
    }

    void pread(FSDataInputStream in, long at, int len) throws IOException {
      byte[] got = new byte[len];
      in.readFully(at, got, 0, len);
      SeededData.check(got, len, SEED, at, new byte[len], p + " at " + at);
    }

    /** A DataNode in the middle of the file's current pipeline. */
    int pipelineMember() throws IOException {
      List<List<Integer>> blocks = c.replicas(fs, p);
      return blocks.get(blocks.size() - 1).get(1);
    }

    long replacements() {
      return fs instanceof CurtailDistributedFileSystem
          ? ((CurtailDistributedFileSystem) fs).replacements() : 0;
    }

    CompletableFuture<Void> background(IoAction action) {
      return CompletableFuture.runAsync(() -> {
        try {
          action.run();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
    }
  }

  interface IoAction {
    void run() throws IOException;
  }

  interface Action {
    void run() throws Exception;
  }

  static Stream<Arguments> cases() {
    List<Arguments> all = new ArrayList<>();
    for (Scenario s : Scenario.values()) {
      for (Client client : Client.values()) {
        all.add(Arguments.of(s, client));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void noBytesLost(Scenario scenario, Client client) throws Exception {
    FaultyCluster.Builder b = FaultyCluster.builder().dataNodes(5).blockSize(BLOCK);
    if (scenario == Scenario.TOKEN_EXPIRY_READ || scenario == Scenario.TOKEN_EXPIRY_WRITE) {
      b.set("dfs.block.access.token.enable", "true");
    }
    try (FaultyCluster c = b.build(); DistributedFileSystem stock = c.stockFileSystem();
        FileSystem fs = client == Client.STOCK ? c.stockFileSystem() : c.curtailFileSystem(
            Map.of("curtail.knowledge.memory.ms", Long.toString(Scenario.MEMORY_MS)))) {
      Path p = new Path("/matrix/" + scenario);
      if (scenario.reads) {
        SeededData.create(stock, p, SEED, LENGTH);
        c.awaitReplicas(stock, p, REPLICATION);
      }
      Run r = new Run(c, fs, p);
      String error = "";
      long began = System.nanoTime();
      try (Fault undo = Fault.all(r.undo)) {
        scenario.run(r);
        r.durable = LENGTH; // written and closed, or read
      } catch (Exception | AssertionError e) {
        error = e.toString();
      }
      if (scenario.reads) {
        r.durable = LENGTH;
      }
      double seconds = (System.nanoTime() - began) / 1e9;
      long lost = Math.max(0, r.durable - SeededData.intactPrefix(stock, p, SEED));
      for (Path q : r.extra) {
        lost += BLOCK - SeededData.intactPrefix(stock, q, SEED + extraIndex(q));
      }
      int replication = settledReplication(c, stock, p);
      for (Path q : r.extra) {
        replication = Math.min(replication, settledReplication(c, stock, q));
      }
      String note = r.note;
      if (fs instanceof CurtailDistributedFileSystem && note.isEmpty()) {
        CurtailDistributedFileSystem cfs = (CurtailDistributedFileSystem) fs;
        note = "recoveries " + cfs.pipelineRecoveries() + ", replacements "
            + cfs.replacements();
      }
      ROWS.add(String.format("| %s | %s | %s | %d of %d | %d of %d | %.1f | %s |", scenario,
          client.toString().toLowerCase(), error.isEmpty() ? "yes" : "no", lost, r.durable, replication,
          REPLICATION, seconds, (note + (error.isEmpty() ? "" : " " + error)).trim()
              .replace('|', '/').replace('\n', ' ')));
      boolean completed = error.isEmpty();
      if (client == Client.STOCK) {
        STOCK_COMPLETED.put(scenario, completed);
      } else {
        assertTrue(completed || !STOCK_COMPLETED.getOrDefault(scenario, true),
            scenario + ": stock completed, Curtail failed: " + error);
        assertEquals(0, lost, "bytes lost that were hflushed or closed");
        if (completed) {
          assertEquals(REPLICATION, replication, "replication after recovery");
        }
      }
    }
  }

  /** The seed offset of a {@code SLOW_HEALS_SLOW_AGAIN} file, from its name. */
  private static long extraIndex(Path q) {
    String[] parts = q.getName().split("-");
    return Long.parseLong(parts[parts.length - 2]) * 3 + Long.parseLong(parts[parts.length - 1]);
  }

  /** The fewest replicas of any block of {@code p} once the NameNode settles (within 30 s). */
  private static int settledReplication(FaultyCluster c, FileSystem fs, Path p) {
    try {
      c.awaitReplicas(fs, p, REPLICATION);
      return REPLICATION;
    } catch (IOException notYet) {
      try {
        return c.replicas(fs, p).stream().mapToInt(List::size).min().orElse(0);
      } catch (IOException e) {
        return 0;
      }
    }
  }

  @AfterAll
  static void writeTable() throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("| scenario | client | completed | bytes lost (of those hflushed or closed) | replication after | time s | notes |");
    lines.add("|---|---|---|---:|---|---:|---|");
    synchronized (ROWS) {
      ROWS.sort(null);
      lines.addAll(ROWS);
    }
    Files.createDirectories(Paths.get("target"));
    Files.write(Paths.get("target", "fault-matrix.md"), lines, StandardCharsets.UTF_8);
    lines.forEach(System.out::println);
  }
}
