package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.read.CurtailInputStream;
import io.curtail.client.write.RepairHook;
import io.curtail.client.write.RepairHook.Step;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A DataNode killed at each step of a fail-fast replacement: right after the decision, as the
 * rebuild starts, while the rebuild copies ({@code transferBlock} under way), with the new
 * pipeline set up but not yet told to the NameNode, and as streaming resumes; each time the slow
 * DataNode, the rebuild's source, the newcomer or another member. A replacement takes tens of
 * milliseconds, so the writer's {@link RepairHook} says when it is at a step and the kill happens
 * there (during the copy: the newcomer's disk is slowed so the copy lasts over half a second, and
 * the kill comes 150 ms in). Every file must be written whole, read back byte for byte with the
 * stock client, and end with three replicas, none on the dead DataNode in any block that was
 * still being written when it died.
 */
class RepairStepsTest {
  private static final int MIB = 1024 * 1024;
  private static final long BLOCK = 4 * MIB;
  private static final long LENGTH = 2 * BLOCK + 12345;
  /** dn0's disk: about ten times slower than a healthy packet write. */
  private static final DiskFault SLOW = DiskFault.serviceTime(Duration.ofMillis(10));

  private static FaultyCluster cluster;
  private static DistributedFileSystem stock;
  private static final AtomicInteger FILES = new AtomicInteger();

  /** Which DataNode dies. */
  enum Victim {
    /** The DataNode judged slow. */
    SLOW,
    /** The replica the rebuild copies from. */
    SOURCE,
    /** The DataNode the NameNode granted in place of the slow one. */
    NEWCOMER,
    /** A member of the pipeline that is neither slow nor the source. */
    OTHER
  }

  /** Where a DataNode dies. */
  enum Kill {
    DECIDED_SLOW(Step.REPLACEMENT_DECIDED, Victim.SLOW, false),
    DECIDED_OTHER(Step.REPLACEMENT_DECIDED, Victim.OTHER, false),
    REBUILD_STARTING_SOURCE(Step.REBUILD_STARTING, Victim.SOURCE, false),
    REBUILD_STARTING_NEWCOMER(Step.REBUILD_STARTING, Victim.NEWCOMER, false),
    REBUILDING_SOURCE(Step.REBUILD_STARTING, Victim.SOURCE, true),
    REBUILDING_NEWCOMER(Step.REBUILD_STARTING, Victim.NEWCOMER, true),
    REBUILDING_OTHER(Step.REBUILD_STARTING, Victim.OTHER, true),
    PIPELINE_OPENED_NEWCOMER(Step.PIPELINE_OPENED, Victim.NEWCOMER, false),
    PIPELINE_OPENED_OTHER(Step.PIPELINE_OPENED, Victim.OTHER, false),
    STREAMING_RESUMED_NEWCOMER(Step.STREAMING_RESUMED, Victim.NEWCOMER, false),
    STREAMING_RESUMED_OTHER(Step.STREAMING_RESUMED, Victim.OTHER, false);

    final Step step;
    final Victim victim;
    /** Kill during the step's work (the copy) rather than before it. */
    final boolean during;

    Kill(Step step, Victim victim, boolean during) {
      this.step = step;
      this.victim = victim;
      this.during = during;
    }
  }

  @BeforeAll
  static void start() throws IOException {
    // Seven DataNodes: a pipeline of three, a dead one, and spares for the replacement and for
    // the recovery the kill starts.
    cluster = FaultyCluster.builder().dataNodes(7).blockSize(BLOCK).build();
    stock = cluster.stockFileSystem();
  }

  @AfterAll
  static void stop() throws IOException {
    try (FaultyCluster c = cluster; DistributedFileSystem s = stock) {
      // closed in reverse order
    }
  }

  /**
   * Watches one write's replacement and kills its victim at the chosen step, once: the steps
   * before it only note who is who.
   */
  private static final class Killer implements RepairHook {
    private final Kill kill;
    private final String slowNode;
    private final List<Fault> restarts = new ArrayList<>();
    private List<String> decided;
    private String source;
    private String newcomer;
    private volatile boolean armed;
    /** Kills during the copy, from its own thread. */
    private Thread killer;
    final AtomicReference<String> killed = new AtomicReference<>();
    /**
     * The file's length at the kill as the NameNode had it: its complete blocks. A block finished
     * before the kill keeps its replica on the dead DataNode until the NameNode declares it dead
     * (minutes), as with any DataNode that dies: only later blocks must be rebuilt without it.
     */
    volatile long completeAtKill = -1;

    Killer(Kill kill) {
      this.kill = kill;
      this.slowNode = address(0);
    }

    @Override
    public void reached(Step step, String file, List<String> dataNodes) {
      if (killed.get() != null) {
        return;
      }
      if (step == Step.REPLACEMENT_DECIDED && decided == null && dataNodes.contains(slowNode)) {
        decided = dataNodes;
        armed = true;
      }
      if (!armed) {
        return;
      }
      if (step == Step.REBUILD_STARTING && newcomer == null) {
        source = dataNodes.get(0);
        newcomer = dataNodes.get(1);
      }
      if (step != kill.step) {
        return;
      }
      String victim = victim();
      if (kill.during) {
        // Slow the newcomer's disk so that the copy lasts, and kill while it runs.
        Fault copyingSlowly = cluster.slowDisk(index(newcomer),
            DiskFault.serviceTime(Duration.ofMillis(40)));
        restarts.add(copyingSlowly);
        killer = new Thread(() -> {
          sleep(150);
          killNow(file, victim);
          copyingSlowly.close();
        }, "killer");
        killer.start();
        killed.set(victim);
      } else {
        killNow(file, victim);
      }
    }

    private String victim() {
      switch (kill.victim) {
        case SLOW:
          return slowNode;
        case SOURCE:
          return source;
        case NEWCOMER:
          return newcomer;
        default:
          for (String n : decided) {
            if (!n.equals(slowNode) && !n.equals(source)) {
              return n;
            }
          }
          throw new IllegalStateException("no other member in " + decided);
      }
    }

    private void killNow(String file, String victim) {
      try {
        completeAtKill = stock.getFileStatus(new Path(file)).getLen();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      synchronized (restarts) {
        restarts.add(cluster.stop(index(victim)));
      }
      killed.set(victim);
    }

    /** Restarts the dead DataNode and heals the newcomer's disk. */
    void undo() throws InterruptedException {
      if (killer != null) {
        killer.join();
      }
      synchronized (restarts) {
        Fault.all(restarts).close();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Kill.class)
  void aDataNodeKilledAtThisStepLosesNothing(Kill kill) throws Exception {
    int n = FILES.incrementAndGet();
    Path p = new Path("/repair-steps/" + kill);
    Killer killer = new Killer(kill);
    try (Fault slow = cluster.slowDisk(0, SLOW);
        CurtailDistributedFileSystem fs = cluster.curtailFileSystem(Map.of(
            "curtail.knowledge.scope", "repair-steps-" + n))) {
      fs.repairHook(killer);
      InetSocketAddress[] favoured = {cluster.address(0), cluster.address(1), cluster.address(2)};
      try (FSDataOutputStream out = fs.create(p, null,
          EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE), 4096, (short) 3, BLOCK, null,
          null, favoured)) {
        SeededData.write(out, n, LENGTH);
      }
      String dead = killer.killed.get();
      assertNotNull(dead, kill + " never reached; replacements " + fs.recentReplacements());
      assertEquals(LENGTH, stock.getFileStatus(p).getLen(), "length of " + p);
      SeededData.verify(stock, p, n, LENGTH);
      cluster.awaitReplicas(stock, p, 3);
      int deadIndex = index(dead);
      List<List<Integer>> blocks = cluster.replicas(stock, p);
      for (int b = (int) (killer.completeAtKill / BLOCK); b < blocks.size(); b++) {
        assertFalse(blocks.get(b).contains(deadIndex), "a replica on the dead dn" + deadIndex
            + " in block " + b + " of " + blocks + ", written from byte "
            + killer.completeAtKill + " on, when it died");
      }
    } finally {
      killer.undo();
    }
  }

  /**
   * A reader tailing an hflushed file while its pipeline's slow DataNode is replaced: the writer
   * is held 300 ms at every step of the replacement while the reader opens the file again and
   * again. Each time, the visible length must be at least what was hflushed before the open (what
   * HDFS promises a new reader), and every visible byte right.
   *
   * <p>And the newcomer, once the new pipeline is set up and before the NameNode hears of it
   * (so before any reader can ask it), shows at least what the least of the survivors shows, so
   * the least over the replicas (Curtail's visible length) cannot go back when it is listed. It
   * was copied from a frozen survivor, the one furthest down among those not judged slow: that one
   * holds every byte the others made visible, and then the newcomer shows as much as any. When
   * the one furthest down was judged slow, an upstream survivor is the source, and the newcomer
   * can show less than the one furthest down (not what was hflushed, which every replica holds):
   * printed, as stock's readers may see that, which HDFS allows.
   *
   * <p>Each time the reader opens the file with Curtail too, whose visible length must never go
   * below an earlier open's. Stock's may, and is only printed: HDFS does not promise it, even
   * without a replacement. Each stock open asks one DataNode, and a DataNode shows a packet only
   * once those after it in the pipeline have it, so while packets are on their way back the
   * first DataNode shows less than the last. When a pipeline is cut (by a failure, in stock
   * clients too) that lasts until the resent packets are acknowledged. Curtail's stream takes
   * the least every replica shows, which never goes back. The slow DataNode is favoured second,
   * so that it is in the middle where the NameNode keeps the order: the cut then leaves the
   * survivors at different lengths, which the newcomer check needs.
   */
  @Test
  void aTailingReaderSeesWhatWasHflushedAndCurtailsNeverGoBackDuringAReplacement() throws Exception {
    int n = FILES.incrementAndGet();
    Path p = new Path("/repair-steps/tailed");
    AtomicLong flushed = new AtomicLong();
    AtomicBoolean replacing = new AtomicBoolean();
    AtomicInteger readsDuring = new AtomicInteger();
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicReference<List<String>> decided = new AtomicReference<>();
    AtomicReference<String> newcomerShows = new AtomicReference<>();
    try (Fault slow = cluster.slowDisk(0, SLOW);
        CurtailDistributedFileSystem fs = cluster.curtailFileSystem(Map.of(
            "curtail.knowledge.scope", "repair-steps-" + n))) {
      fs.repairHook((step, file, dataNodes) -> {
        if (step == Step.REPLACEMENT_DECIDED) {
          replacing.set(true);
          decided.set(dataNodes);
        }
        if (step == Step.PIPELINE_OPENED && replacing.get()) {
          newcomerShows.set(visibleLengths(p, decided.get(), dataNodes));
          System.out.println("decided " + decided.get() + " opened " + dataNodes);
        }
        if (replacing.get()) {
          sleep(500); // room for several tailing reads in each step, on a loaded machine too
        }
        if (step == Step.STREAMING_RESUMED) {
          replacing.set(false);
        }
      });
      InetSocketAddress[] favoured = {cluster.address(1), cluster.address(0), cluster.address(2)};
      FSDataOutputStream out = fs.create(p, null,
          EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE), 4096, (short) 3, BLOCK, null,
          null, favoured);
      ExecutorService tailing = Executors.newSingleThreadExecutor();
      Future<Long> tailer = tailing.submit(() -> {
        long lastVisible = 0;
        long lastCurtailVisible = 0;
        long reads = 0;
        byte[] got = new byte[(int) LENGTH];
        byte[] want = new byte[(int) LENGTH];
        while (writing.get()) {
          long atLeast = flushed.get();
          boolean during = replacing.get();
          try (HdfsDataInputStream in = (HdfsDataInputStream) stock.open(p)) {
            long visible = in.getVisibleLength();
            if (visible < atLeast) {
              throw new AssertionError("visible length " + visible + " after hflush of "
                  + atLeast);
            }
            if (visible < lastVisible) {
              System.out.println("visible length " + visible + " below " + lastVisible
                  + " seen before (hflushed " + atLeast + ")");
            }
            in.readFully(0, got, 0, (int) visible);
            SeededData.check(got, (int) visible, n, 0, want, "tailed at " + visible);
            lastVisible = Math.max(lastVisible, visible);
          }
          try (FSDataInputStream in = fs.open(p)) {
            long visible = ((CurtailInputStream) in.getWrappedStream()).getVisibleLength();
            if (visible < atLeast || visible < lastCurtailVisible) {
              throw new AssertionError("Curtail's visible length " + visible + " after hflush of "
                  + atLeast + " and an earlier open's " + lastCurtailVisible);
            }
            in.readFully(0, got, 0, (int) visible);
            SeededData.check(got, (int) visible, n, 0, want, "tailed by Curtail at " + visible);
            lastCurtailVisible = visible;
          }
          reads++;
          if (during && replacing.get()) {
            readsDuring.incrementAndGet();
          }
        }
        return reads;
      });
      try {
        // Several packets between hflushes, so that some are on their way when the pipeline
        // is cut: the survivors then show different lengths.
        byte[] chunk = new byte[256 * 1024];
        for (long at = 0; at < LENGTH; at += chunk.length) {
          int len = (int) Math.min(chunk.length, LENGTH - at);
          SeededData.fill(n, at, chunk, 0, len);
          out.write(chunk, 0, len);
          out.hflush();
          flushed.set(at + len);
        }
        out.close();
      } finally {
        writing.set(false);
      }
      long reads = tailer.get();
      tailing.shutdown();
      assertEquals(1, fs.replacements(), "dn0 replaced once");
      String shows = newcomerShows.get();
      assertNotNull(shows, "the new pipeline never reached");
      System.out.println("the newcomer " + shows);
      assertFalse(shows.startsWith("behind"), "the newcomer " + shows);
      assertTrue(readsDuring.get() >= 3, readsDuring + " of " + reads
          + " tailing reads during the replacement");
      SeededData.verify(stock, p, n, LENGTH);
      cluster.awaitReplicas(stock, p, 3);
    }
  }

  /**
   * What the DataNodes of the new pipeline {@code opened} show of {@code p}'s last block, the
   * newcomer (the one {@code before} lacks) first; "behind: …" if it shows less than every
   * survivor.
   */
  private static String visibleLengths(Path p, List<String> before, List<String> opened) {
    try {
      ExtendedBlock last = stock.getClient().getLocatedBlocks(p.toString(), 0)
          .getLastLocatedBlock().getBlock();
      long newcomer = -1;
      long least = Long.MAX_VALUE;
      long most = 0;
      for (String dn : opened) {
        long visible = cluster.dataNode(index(dn)).getFSDataset().getReplicaVisibleLength(last);
        if (before.contains(dn)) {
          least = Math.min(least, visible);
          most = Math.max(most, visible);
        } else {
          newcomer = visible;
        }
      }
      return (newcomer < least ? "behind: " : "") + "shows " + newcomer
          + ", the survivors " + least + " to " + most;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String address(int i) {
    InetSocketAddress a = cluster.address(i);
    return a.getAddress().getHostAddress() + ":" + a.getPort();
  }

  private static int index(String address) {
    int i = cluster.indexOfPort(Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)));
    if (i < 0) {
      throw new UncheckedIOException(new IOException("no DataNode at " + address));
    }
    return i;
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
