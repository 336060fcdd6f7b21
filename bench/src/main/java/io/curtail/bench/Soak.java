package io.curtail.bench;

import io.curtail.bench.blame.Blame;
import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.read.CurtailInputStream;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
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
  private static final int KIB = 1024;
  private static final int MIB = 1024 * KIB;
  private static final long BLOCK = 4L * MIB;
  private static final short REPLICATION = 3;

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

  Soak(PrintStream stdout) {
    this.stdout = stdout;
  }

  /** The faults that rotate, each injected on one DataNode and lifted by closing it. */
  enum Kind {
    SLOW_WRITES {
      @Override
      Fault inject(FaultyCluster c, int dn) {
        return c.slowDisk(dn, DiskFault.serviceTime(Duration.ofMillis(10)));
      }
    },
    SLOW_READS {
      @Override
      Fault inject(FaultyCluster c, int dn) {
        return c.slowDisk(dn, DiskFault.serviceTime(Duration.ofMillis(10))
            .on(DiskFault.Access.READS, DiskFault.Access.OPENS));
      }
    },
    THROTTLED_WRITES {
      @Override
      Fault inject(FaultyCluster c, int dn) {
        return c.throttleWrites(dn, MIB);
      }
    },
    THROTTLED_READS {
      @Override
      Fault inject(FaultyCluster c, int dn) {
        return c.throttleReads(dn, MIB);
      }
    },
    STALLS {
      @Override
      Fault inject(FaultyCluster c, int dn) {
        return c.slowDisk(dn, DiskFault.stalls(Duration.ofSeconds(4), Duration.ofMillis(1500)));
      }
    },
    KILLED {
      @Override
      Fault inject(FaultyCluster c, int dn) {
        return c.stop(dn);
      }
    };

    abstract Fault inject(FaultyCluster c, int dn);
  }

  /** One fault on one DataNode, for a while. */
  private static final class Spell {
    final Kind kind;
    final int dataNode;
    final long endsAt;
    final Fault fault;

    Spell(Kind kind, int dataNode, long endsAt, Fault fault) {
      this.kind = kind;
      this.dataNode = dataNode;
      this.endsAt = endsAt;
      this.fault = fault;
    }
  }

  /** A file a writer made, and how much of it the application was told is safe. */
  private static final class Written {
    final Path path;
    final long seed;
    final long length;
    volatile long durable;
    volatile boolean closed;
    volatile boolean failed;
    /** Read back whole by the stock client and deleted, to keep the disks from filling. */
    volatile boolean retired;

    Written(Path path, long seed, long length) {
      this.path = path;
      this.seed = seed;
      this.length = length;
    }
  }

  /** Failures of one kind: how many, and the first few as examples. */
  private static final class Tally {
    final String name;
    final AtomicLong count = new AtomicLong();
    final List<String> examples = new CopyOnWriteArrayList<>();

    Tally(String name) {
      this.name = name;
    }

    void add(String what, Exception e) {
      count.incrementAndGet();
      if (examples.size() < 3) {
        String message = String.valueOf(e.getMessage());
        int eol = message.indexOf('\n');
        examples.add(what + ": " + e.getClass().getSimpleName() + ": "
            + (eol < 0 ? message : message.substring(0, eol)));
      }
    }

    long get() {
      return count.get();
    }

    @Override
    public String toString() {
      return count.toString();
    }
  }

  /** What the clients did and met, counted while they run. */
  private static final class Counts {
    final AtomicLong filesWritten = new AtomicLong();
    final AtomicLong bytesWritten = new AtomicLong();
    final AtomicLong reads = new AtomicLong();
    final AtomicLong bytesRead = new AtomicLong();
    final AtomicLong tailReads = new AtomicLong();
    final AtomicLong wrongBytes = new AtomicLong();
    final Tally writeFailures = new Tally("writes failed");
    final Tally readFailures = new Tally("reads failed");
    final Tally tailFailures = new Tally("tailing reads failed");
    final Tally belowFlushed = new Tally("visible length below what was hflushed");
    /** Opens whose visible length was below the one before: stock's, and the tested client's. */
    final AtomicLong wentBackAcrossOpens = new AtomicLong();
    final Tally ownWentBack = new Tally("visible length less than an earlier open's");
    final Tally clientsDied = new Tally("client threads died");

    List<Tally> tallies() {
      return List.of(writeFailures, readFailures, tailFailures, belowFlushed, ownWentBack,
          clientsDied);
    }
  }

  private final List<Written> files = new CopyOnWriteArrayList<>();
  /** When the clients started, for the minutes examples are stamped with. */
  private volatile long began;
  private final AtomicInteger fileNo = new AtomicInteger();
  private final Object retiring = new Object();
  private int oldest;
  private int kept;
  private long retiredBytes;
  private final Counts counts = new Counts();
  private volatile boolean running = true;

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
    try (FaultyCluster cluster = FaultyCluster.builder().dataNodes(dataNodes).blockSize(BLOCK)
        .build()) {
      long threadsBefore = curtailThreads();
      int jvmThreadsBefore = Thread.activeCount();
      began = System.nanoTime();
      Map<Kind, Integer> spells;
      List<Thread> clients = new ArrayList<>();
      java.nio.file.Path stats = client == Client.stock ? null : statsDir != null
          ? statsDir.toPath() : java.nio.file.Files.createTempDirectory("curtail-soak-stats-");
      try (FileSystem fs = client == Client.stock ? cluster.stockFileSystem()
              : cluster.curtailFileSystem(Map.of("curtail.stats.dir", stats.toString()));
          DistributedFileSystem stock = cluster.stockFileSystem()) {
        for (int i = 0; i < writers; i++) {
          clients.add(client("writer-" + i, i, r -> write(fs, stock, r)));
        }
        for (int i = 0; i < readers; i++) {
          clients.add(client("reader-" + i, 100 + i, r -> read(fs, r)));
        }
        for (int i = 0; i < tailers; i++) {
          clients.add(client("tailer-" + i, 200 + i, r -> tail(fs, stock, r)));
        }
        spells = rotateFaults(cluster, began + (long) (minutes * 60e9));
        running = false;
        for (Thread t : clients) {
          t.join(TimeUnit.MINUTES.toMillis(5));
          if (t.isAlive()) {
            throw new IllegalStateException(t.getName() + " hung: not done 5 minutes after the end");
          }
        }
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
      return account(cluster, spells, (System.nanoTime() - began) / 60e9, threadsBefore,
          threadsAfter);
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

  /** What one client thread does over and over until the soak ends. */
  private interface Loop {
    void run(SplittableRandom random) throws Exception;
  }

  private Thread client(String name, long stream, Loop loop) {
    Thread t = new Thread(() -> {
      SplittableRandom random = new SplittableRandom(seed * 1_000_003 + stream);
      while (running) {
        try {
          loop.run(random);
        } catch (Exception e) {
          counts.clientsDied.add(name + " died", e);
          return;
        }
      }
    }, "soak-" + name);
    t.start();
    return t;
  }

  /**
   * Starts and ends fault spells until {@code deadline}: every half mean length, the spells due
   * end, and a new one starts if fewer than two are on. Returns how many of each kind ran.
   */
  private Map<Kind, Integer> rotateFaults(FaultyCluster cluster, long deadline)
      throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    Map<Kind, Integer> ran = new EnumMap<>(Kind.class);
    List<Spell> on = new ArrayList<>();
    long tick = (long) (faultSeconds * 1e9 / 2);
    try {
      while (System.nanoTime() < deadline) {
        long now = System.nanoTime();
        for (Spell s : new ArrayList<>(on)) {
          if (s.endsAt <= now) {
            s.fault.close();
            on.remove(s);
          }
        }
        if (on.size() < 2) {
          Spell s = startSpell(cluster, random, on, now);
          on.add(s);
          ran.merge(s.kind, 1, Integer::sum);
          stdout.printf(Locale.ROOT, "%6.1f min  %s on dn%d for %.0f s%n",
              (now - deadline) / 60e9 + minutes, s.kind, s.dataNode, (s.endsAt - now) / 1e9);
        }
        TimeUnit.NANOSECONDS.sleep(Math.min(tick, Math.max(0, deadline - System.nanoTime())));
      }
    } finally {
      for (Spell s : on) {
        s.fault.close();
      }
    }
    return ran;
  }

  /** A spell on a DataNode no other spell holds; never two DataNodes killed at once. */
  private Spell startSpell(FaultyCluster cluster, SplittableRandom random, List<Spell> on,
      long now) {
    boolean oneKilled = on.stream().anyMatch(s -> s.kind == Kind.KILLED);
    Kind kind;
    do {
      kind = Kind.values()[random.nextInt(Kind.values().length)];
    } while (oneKilled && kind == Kind.KILLED);
    int dn;
    do {
      dn = random.nextInt(cluster.dataNodeCount());
    } while (holds(on, dn));
    long lasting = (long) (faultSeconds * 1e9 * (0.5 + random.nextDouble()));
    return new Spell(kind, dn, now + lasting, kind.inject(cluster, dn));
  }

  private static boolean holds(List<Spell> on, int dn) {
    return on.stream().anyMatch(s -> s.dataNode == dn);
  }

  /**
   * Writes one file of random length in 64 KiB writes, hflushing after about one in 16; then
   * retires the oldest finished file if more than {@code --keep} are.
   */
  private void write(FileSystem fs, DistributedFileSystem stock,
      SplittableRandom random) throws IOException {
    int n = fileNo.getAndIncrement();
    Written f = new Written(new Path("/soak/f" + n), seed * 7919 + n,
        1 + random.nextLong(3 * BLOCK + BLOCK / 2));
    byte[] chunk = new byte[64 * KIB];
    FSDataOutputStream out;
    try {
      out = fs.create(f.path, true, 4096, REPLICATION, BLOCK);
    } catch (IOException e) {
      counts.writeFailures.add("creating " + f.path, e);
      return;
    }
    files.add(f); // now there for readers and tailers to find
    try (FSDataOutputStream o = out) {
      for (long at = 0; at < f.length; ) {
        int len = (int) Math.min(chunk.length, f.length - at);
        SeededData.fill(f.seed, at, chunk, 0, len);
        o.write(chunk, 0, len);
        at += len;
        if (random.nextInt(16) == 0) {
          o.hflush();
          f.durable = at;
        }
      }
    } catch (IOException e) {
      f.failed = true;
      counts.writeFailures.add("writing " + f.path, e);
      return;
    }
    f.durable = f.length;
    f.closed = true;
    counts.filesWritten.incrementAndGet();
    counts.bytesWritten.addAndGet(f.length);
    retireOldest(stock);
  }

  /**
   * Past {@code --keep} finished files, reads the oldest back with the stock client and deletes
   * it if every byte is right; one that is not is kept for the final account.
   */
  private void retireOldest(DistributedFileSystem stock) throws IOException {
    synchronized (retiring) {
      if (++kept <= keep) {
        return;
      }
      while (oldest < files.size() && !files.get(oldest).closed) {
        oldest++; // failed, or still being written: the final account takes those
      }
      if (oldest == files.size()) {
        return;
      }
      Written f = files.get(oldest++);
      kept--;
      if (SeededData.intactPrefix(stock, f.path, f.seed) == f.length) {
        f.retired = true;
        retiredBytes += f.length;
        stock.delete(f.path, false);
      }
    }
  }

  /** Reads a finished file whole, or four positional reads of 4 KiB to 1 MiB of it. */
  private void read(FileSystem fs, SplittableRandom random)
      throws InterruptedException {
    Written f = finished(random);
    if (f == null) {
      Thread.sleep(100);
      return;
    }
    byte[] got = new byte[MIB];
    byte[] want = new byte[MIB];
    try (FSDataInputStream in = fs.open(f.path)) {
      if (random.nextBoolean()) {
        long at = 0;
        for (int n; (n = in.read(got)) > 0; at += n) {
          counts.wrongBytes.addAndGet(wrong(got, n, f.seed, at, want));
        }
        if (at != f.length) {
          throw new IOException("read " + at + " bytes of " + f.length);
        }
        counts.bytesRead.addAndGet(at);
      } else {
        for (int k = 0; k < 4; k++) {
          int len = (int) Math.min(f.length, 4 * KIB << random.nextInt(9));
          long at = random.nextLong(f.length - len + 1);
          in.readFully(at, got, 0, len);
          counts.wrongBytes.addAndGet(wrong(got, len, f.seed, at, want));
          counts.bytesRead.addAndGet(len);
        }
      }
      counts.reads.incrementAndGet();
    } catch (IOException e) {
      if (!f.retired) { // deleted under the reader
        counts.readFailures.add("reading " + f.path, e);
      }
    }
  }

  private Written finished(SplittableRandom random) {
    for (int tries = 0; tries < 8 && !files.isEmpty(); tries++) {
      Written f = files.get(random.nextInt(files.size()));
      if (f.closed && !f.retired) {
        return f;
      }
    }
    return null;
  }

  /**
   * Follows the newest file still being written: its visible length as the stock client shows it
   * (never below what was hflushed, but it may go back from one open to the next) and as the
   * tested client's stream does (with Curtail's, never back), and that stream reading every byte
   * hflushed.
   */
  private void tail(FileSystem fs, DistributedFileSystem stock,
      SplittableRandom random) throws InterruptedException {
    Written f = null;
    for (int i = files.size() - 1; i >= 0 && f == null; i--) {
      Written w = files.get(i);
      f = w.closed || w.failed ? null : w;
    }
    if (f == null) {
      Thread.sleep(50);
      return;
    }
    byte[] got = new byte[MIB];
    byte[] want = new byte[MIB];
    long lastVisible = 0;
    long lastOwn = 0;
    while (running && !f.closed && !f.failed) {
      long flushed = f.durable; // hflushed before the opens below: HDFS makes it visible
      try {
        long visible;
        try (HdfsDataInputStream in = (HdfsDataInputStream) stock.open(f.path)) {
          visible = in.getVisibleLength();
        }
        if (visible < flushed) {
          counts.belowFlushed.add("tailing " + f.path, new IOException("visible length "
              + visible + " after hflush of " + flushed));
        }
        if (visible < lastVisible) {
          counts.wentBackAcrossOpens.incrementAndGet();
        }
        lastVisible = Math.max(lastVisible, visible);
        try (FSDataInputStream in = fs.open(f.path)) {
          long own = visibleLength(in);
          if (own < flushed) {
            counts.belowFlushed.add("tailing " + f.path, new IOException(client
                + "'s visible length " + own + " after hflush of " + flushed));
          }
          if (own < lastOwn) {
            counts.ownWentBack.add(String.format(Locale.ROOT, "tailing %s at %.2f min (%s)",
                f.path, (System.nanoTime() - began) / 60e9, java.time.LocalTime.now()),
                new IOException(client + "'s visible length "
                + own + " after an earlier open's " + lastOwn + " (hflushed " + flushed + ")"));
          }
          lastOwn = Math.max(lastOwn, own);
          for (long at = 0; at < flushed; ) {
            int len = (int) Math.min(got.length, flushed - at);
            in.readFully(at, got, 0, len);
            counts.wrongBytes.addAndGet(wrong(got, len, f.seed, at, want));
            at += len;
          }
        }
        counts.tailReads.incrementAndGet();
      } catch (IOException e) {
        if (!f.failed && !f.retired) {
          counts.tailFailures.add("tailing " + f.path, e);
        }
      }
      Thread.sleep(20 + random.nextInt(80));
    }
  }

  /** What {@code in}, a stream of a file being written, may read: stock's or Curtail's. */
  private static long visibleLength(FSDataInputStream in) {
    if (in instanceof HdfsDataInputStream) {
      return ((HdfsDataInputStream) in).getVisibleLength();
    }
    return ((CurtailInputStream) in.getWrappedStream()).getVisibleLength();
  }

  /** How many of {@code got[0, n)} differ from the seeded bytes at {@code at}. */
  private static long wrong(byte[] got, int n, long seed, long at, byte[] want) {
    SeededData.fill(seed, at, want, 0, n);
    long wrong = 0;
    for (int i = 0; i < n; i++) {
      wrong += got[i] != want[i] ? 1 : 0;
    }
    return wrong;
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

  /**
   * With every fault lifted: recovers the leases of files whose writing failed, reads every file
   * back with the stock client, waits for full replication, prints the table; 0 if all is well.
   */
  private int account(FaultyCluster cluster, Map<Kind, Integer> spells, double ranMinutes,
      long threadsBefore, long threadsAfter) throws IOException, InterruptedException {
    long lost = 0;
    long durable = 0;
    long verified = 0;
    try (DistributedFileSystem stock = cluster.stockFileSystem()) {
      for (Written f : files) {
        durable += f.durable;
        if (f.retired) {
          verified += f.length;
          continue;
        }
        if (!f.closed) {
          recoverLease(stock, f.path);
        }
        long intact = SeededData.intactPrefix(stock, f.path, f.seed);
        lost += Math.max(0, f.durable - intact);
        verified += intact;
      }
      int underReplicated = underReplicated(cluster, stock, TimeUnit.SECONDS.toNanos(120));
      List<String[]> rows = new ArrayList<>();
      rows.add(row("minutes run", String.format(Locale.ROOT, "%.1f", ranMinutes), ""));
      rows.add(row("fault spells", Integer.toString(spells.values().stream()
          .mapToInt(Integer::intValue).sum()), spells.toString()));
      rows.add(row("files written, closed", counts.filesWritten + " of " + files.size(),
          mib(counts.bytesWritten.get()) + " MiB"));
      rows.add(row("writes failed", counts.writeFailures.toString(), "their hflushed bytes"
          + " count as safe"));
      rows.add(row("reads (whole or 4 preads)", counts.reads.toString(),
          mib(counts.bytesRead.get()) + " MiB"));
      rows.add(row("reads failed", counts.readFailures.toString(), ""));
      rows.add(row("tailing reads", counts.tailReads.toString(), counts.tailFailures
          + " failed"));
      rows.add(row("bytes read back by stock", mib(verified) + " MiB", "of " + mib(durable)
          + " MiB hflushed or closed; " + mib(retiredBytes) + " MiB of them as files were"
          + " retired"));
      rows.add(row("client threads that died", counts.clientsDied.toString(), "must be 0",
          counts.clientsDied.get() == 0));
      rows.add(row("bytes lost", Long.toString(lost), "must be 0", lost == 0));
      rows.add(row("wrong bytes delivered", counts.wrongBytes.toString(), "must be 0",
          counts.wrongBytes.get() == 0));
      rows.add(row("visible length below what was hflushed", counts.belowFlushed.toString(),
          "must be 0", counts.belowFlushed.get() == 0));
      rows.add(row("visible length less than an earlier open's, stock's",
          counts.wentBackAcrossOpens.toString(), "as HDFS allows: each open asks one DataNode,"
          + " and a pipeline's DataNodes acknowledge in turn"));
      rows.add(row("visible length less than an earlier open's, " + client + "'s",
          counts.ownWentBack.toString(), client == Client.curtail ? "must be 0"
              : "the same stream as above", client == Client.stock || counts.ownWentBack.get() == 0));
      rows.add(row("blocks under-replicated after settling", Integer.toString(underReplicated),
          "must be 0", underReplicated == 0));
      rows.add(row("Curtail threads after close", threadsAfter + " (" + threadsBefore
          + " before)", "must be back", threadsAfter <= threadsBefore));
      print(rows);
      for (Tally t : counts.tallies()) {
        for (String example : t.examples) {
          stdout.println("  " + t.name + ", e.g. " + example);
        }
      }
      boolean ok = rows.stream().allMatch(r -> !r[3].equals("NO"));
      stdout.println(ok ? "soak: passed" : "soak: FAILED");
      return ok ? 0 : 1;
    }
  }

  private static void recoverLease(DistributedFileSystem stock, Path p)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!stock.recoverLease(p)) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the lease on " + p + " was not recovered within 60 s");
      }
      Thread.sleep(200);
    }
  }

  /** Blocks of the soak's files below full replication once none is, or {@code nanos} passed. */
  private int underReplicated(FaultyCluster cluster, DistributedFileSystem stock, long nanos)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + nanos;
    while (true) {
      int under = 0;
      for (Written f : files) {
        if (f.retired) {
          continue;
        }
        for (List<Integer> block : cluster.replicas(stock, f.path)) {
          under += block.size() < REPLICATION ? 1 : 0;
        }
      }
      if (under == 0 || System.nanoTime() > deadline) {
        return under;
      }
      Thread.sleep(1000);
    }
  }

  private static String[] row(String what, String value, String note) {
    return new String[] {what, value, note, ""};
  }

  private static String[] row(String what, String value, String note, boolean ok) {
    return new String[] {what, value, note, ok ? "yes" : "NO"};
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / (double) MIB);
  }

  private void print(List<String[]> rows) {
    stdout.println();
    stdout.println("| check | value | note | ok |");
    stdout.println("|---|---:|---|---|");
    for (String[] r : rows) {
      stdout.println("| " + String.join(" | ", r) + " |");
    }
  }
}
