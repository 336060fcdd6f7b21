package io.curtail.bench.soak;

import io.curtail.bench.blame.BlameRecords;
import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.tools.blame.Blame;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Curtail's clients for a long while under DataNode faults that come and go, then an account of
 * every byte: writers (files of up to three and a half blocks, hflushed now and then), readers
 * (whole files and positional reads of finished ones) and tailers (the visible length of a file
 * being written, as stock's and Curtail's streams show it, and Curtail reading what was hflushed)
 * share one Curtail file
 * system ({@code --client stock}: stock's, as a baseline) on an embedded cluster, while faults
 * rotate over the DataNodes: slow disks for writes and for
 * reads, throttling both ways, stalls, and kills (the DataNode restarted when its spell ends).
 * A new spell may start every half {@code --fault-seconds} and lasts half to one and a half
 * times that, so faults come one at a time and two at once.
 *
 * <p>Afterwards, with every fault lifted, the stock client reads every file back: no byte the
 * application was told is safe (hflushed, or closed) may be lost, no read during the soak may
 * have delivered a wrong byte, the visible length of a tailed file may never have been less than
 * what was hflushed before it was asked, nor those bytes unreadable, nor (Curtail's) less than an
 * earlier open's, every block must reach full
 * replication once the NameNode settles, and Curtail's threads must be gone
 * once its file system is closed. The exit code is 1 if any of that fails.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
    description = "Runs Curtail's writers, readers and hflush tailers under rotating DataNode"
        + " faults on an embedded cluster, then checks every byte and every block's replication.")
public final class Soak implements Callable<Integer> {
  @Option(names = "--minutes", defaultValue = "30", description = "How long the clients run.")
  double minutes;

  @Option(names = "--writers", defaultValue = "3", description = "Concurrent writers.")
  int writers;

  @Option(names = "--readers", defaultValue = "2", description = "Concurrent readers.")
  int readers;

  @Option(names = "--tailers", defaultValue = "1", description = "Concurrent hflush tailers.")
  int tailers;

  @Option(names = "--fault-seconds", defaultValue = "20",
      description = "A fault's mean length; a new one may start every half of it.")
  double faultSeconds;

  @Option(names = "--data-nodes", defaultValue = "6",
      description = "DataNodes (at least 5: three replicas, one killed, one to replace with).")
  int dataNodes;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the files and faults.")
  long seed;

  /** Whose streams the soak's clients use. */
  enum Client { curtail, stock }

  @Option(names = "--client", defaultValue = "curtail", description = "Whose streams the clients"
      + " use: ${COMPLETION-CANDIDATES} (stock: the same soak as a baseline).")
  Client client;

  @Option(names = "--keep", defaultValue = "200", description = "Finished files kept; beyond,"
      + " writers read the oldest back with the stock client and delete it, so disks never fill.")
  int keep;

  @Option(names = "--stats-dir", description = "Where Curtail's client writes its per-block"
      + " statistics, kept with the spells as a labels file (incidents.txt); by default a"
      + " temporary directory, deleted once the blame row is printed.")
  java.io.File statsDir;

  private final PrintStream stdout;

  /** The soak printing its progress and account on {@code stdout}; the benchmark's {@code soak}. */
  public Soak(PrintStream stdout) {
    this.stdout = stdout;
  }

  @Override
  public Integer call() throws Exception {
    check(minutes > 0, "--minutes must be > 0, was " + minutes);
    check(faultSeconds > 0, "--fault-seconds must be > 0, was " + faultSeconds);
    check(writers >= 1 && readers >= 0 && tailers >= 0,
        "need at least one writer and no negative counts of clients");
    check(dataNodes >= 5, "--data-nodes must be at least 5, was " + dataNodes);
    check(keep >= 1, "--keep must be at least 1, was " + keep);
    stdout.printf(Locale.ROOT, "soak: %s's streams, %.1f min, %d writers, %d readers, %d tailers,"
        + " %d DataNodes, faults of %.0f s on average%n", client, minutes, writers, readers,
        tailers, dataNodes, faultSeconds);
    try (FaultyCluster cluster = FaultyCluster.builder().dataNodes(dataNodes)
        .blockSize(Clients.BLOCK).build()) {
      long threadsBefore = curtailThreads();
      int jvmThreadsBefore = Thread.activeCount();
      long began = System.nanoTime();
      Counts counts = new Counts();
      Clients clients = new Clients(seed, keep, client.name(), counts, began);
      Map<FaultSpells.Kind, Integer> spells;
      Path stats = client == Client.stock ? null : statsDir != null
          ? statsDir.toPath() : Files.createTempDirectory("curtail-soak-stats-");
      try (FileSystem fs = client == Client.stock ? cluster.stockFileSystem()
              : cluster.curtailFileSystem(Map.of("curtail.stats.dir", stats.toString()));
          DistributedFileSystem stock = cluster.stockFileSystem()) {
        clients.start(fs, stock, writers, readers, tailers);
        spells = new FaultSpells(seed, faultSeconds, minutes, stdout)
            .rotate(cluster, began + (long) (minutes * 60e9));
        clients.stop();
        if (fs instanceof CurtailDistributedFileSystem) {
          CurtailDistributedFileSystem c = (CurtailDistributedFileSystem) fs;
          stdout.printf(Locale.ROOT, "Curtail: %d hedges (%d won), %d replacements, %d pipeline"
              + " recoveries%n", c.hedgesTried(), c.hedgesWon(), c.replacements(),
              c.pipelineRecoveries());
        }
      }
      printBlame(BlameRecords.label(stats, BlameRecords.incidents(cluster)));
      if (stats != null && statsDir == null) {
        BlameRecords.delete(stats);
      }
      long threadsAfter = settledThreads(threadsBefore);
      stdout.printf("JVM threads: %d before the clients, %d after (the cluster's included)%n",
          jvmThreadsBefore, Thread.activeCount());
      return new Account(cluster, clients, counts, client.name(), stdout)
          .settle(spells, (System.nanoTime() - began) / 60e9, threadsBefore, threadsAfter);
    }
  }

  /**
   * How right the client's decisions were against the spells (any fault on a DataNode counts
   * against it both ways: a slow-reads spell makes a write's replacement of it right too).
   */
  private void printBlame(Blame blame) {
    if (blame == null) {
      return;
    }
    Blame.header("soak").forEach(stdout::println);
    stdout.println(blame.row(client.name()));
    stdout.println(Blame.legend());
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  private static long curtailThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("curtail-")).count();
  }

  /** Curtail's threads once they are back to {@code before}, or after 30 s, as many as remain. */
  private static long settledThreads(long before) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (curtailThreads() > before && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    return curtailThreads();
  }
}
