package io.curtail.bench;

import io.curtail.bench.blame.BlameRecords;
import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.read.striped.StripedReads;
import io.curtail.client.write.striped.StripedWatch;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.SeededData;
import io.curtail.tools.blame.Incident;
import java.io.Closeable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSHedgedReadMetrics;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.io.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one mode through one round of one scenario: the clients concurrently, each doing its files
 * one after another, timing each whole file; then reads back every file written and compares it
 * byte for byte, with the fault undone.
 */
final class Runner implements Closeable {
  /** The round number warm-up batches run as (their files and seeds are their own). */
  static final int WARM_UP_ROUND = -2;
  private static final Logger LOG = LoggerFactory.getLogger(Runner.class);
  private static final AtomicInteger BATCHES = new AtomicInteger();
  private final Target target;
  private final Map<String, String> settings;
  private final long seed;
  private final long epochNanos;
  private final boolean warmKnowledge;
  /**
   * With warm knowledge, a file system per Curtail mode kept open from its first batch to the
   * end of the run: the runtime a mode's batches share is forgotten when the last file system
   * using it closes, as each batch's do.
   */
  private final Map<String, FileSystem> keepers = new HashMap<>();

  /**
   * @param settings extra client settings ({@code -D key=value}), applied under every mode
   * @param epochNanos {@code System.nanoTime()} when the benchmark started
   * @param warmKnowledge whether a Curtail mode keeps what it learnt of the DataNodes from one
   *     batch to its next (a long run, where stock-best's cluster keeps what it learns too), or
   *     starts every batch cold
   */
  Runner(Target target, Map<String, String> settings, long seed, long epochNanos,
      boolean warmKnowledge) {
    this.target = target;
    this.settings = settings;
    this.seed = seed;
    this.epochNanos = epochNanos;
    this.warmKnowledge = warmKnowledge;
  }

  /** {@code System.nanoTime()} when the benchmark started: what files' start times count from. */
  long epochNanos() {
    return epochNanos;
  }

  /** Where the files client {@code c} reads in scenario {@code s} live. */
  static Path readFile(Scenario s, int client, int file) {
    return new Path("/curtail-bench/" + s.name() + "/data/c" + client + "-f" + file);
  }

  /** The seed of a file's bytes: any file can be re-derived and verified from it. */
  long fileSeed(Scenario s, int round, int client, int file) {
    return seed * 1_000_003L + s.name().hashCode() * 10_007L + round * 1_009L + client * 101L
        + file;
  }

  /** Writes, healthy, the files the scenario's readers read on {@code c}; round -1 names them. */
  void prepare(Scenario s, Target.Cluster c) throws IOException {
    Workload w = s.workload();
    try (FileSystem fs = FileSystem.newInstance(c.uri(), stockConf(c))) {
      if (w.isEncrypted()) {
        encryptionZone(fs, readFile(s, 0, 0).getParent());
      }
      if (w.erasureCoding() != null) {
        // The scenario's root, so that the files its writers write are erasure-coded too.
        erasureCoded(fs, readFile(s, 0, 0).getParent().getParent(), w.erasureCoding());
      }
      for (int client = 0; client < w.clients(); client++) {
        if (w.op(client).writes()) {
          continue;
        }
        for (int f = 0; f < w.filesPerClient(); f++) {
          Op.WRITE.run(fs, readFile(s, client, f), fileSeed(s, -1, client, f), w.fileBytes(),
              w.shape());
        }
      }
    }
  }

  /** Makes {@code dir} an encryption zone of key {@link Workload#ENCRYPTION_KEY}. */
  private static void encryptionZone(FileSystem fs, Path dir) throws IOException {
    if (!(fs instanceof DistributedFileSystem)) {
      throw new IOException("an encrypted scenario needs HDFS to make " + dir + " an encryption"
          + " zone, and " + fs.getUri() + " is " + fs.getClass().getName());
    }
    fs.mkdirs(dir);
    try {
      ((DistributedFileSystem) fs).createEncryptionZone(dir, Workload.ENCRYPTION_KEY);
    } catch (IOException e) {
      throw new IOException("Could not make " + dir + " an encryption zone of key '"
          + Workload.ENCRYPTION_KEY + "': the cluster's key provider must hold that key (the"
          + " embedded clusters' does): " + e, e);
    }
  }

  /** Gives {@code dir} the erasure-coding policy {@code policy}, enabled first. */
  private static void erasureCoded(FileSystem fs, Path dir, String policy) throws IOException {
    if (!(fs instanceof DistributedFileSystem)) {
      throw new IOException("an erasure-coded scenario needs HDFS to give " + dir + " policy "
          + policy + ", and " + fs.getUri() + " is " + fs.getClass().getName());
    }
    DistributedFileSystem dfs = (DistributedFileSystem) fs;
    fs.mkdirs(dir);
    dfs.enableErasureCodingPolicy(policy);
    dfs.setErasureCodingPolicy(dir, policy);
  }

  /** Deletes everything the scenario left on {@code c}. */
  void cleanUp(Scenario s, Target.Cluster c) throws IOException {
    try (FileSystem fs = FileSystem.newInstance(c.uri(), stockConf(c))) {
      fs.delete(new Path("/curtail-bench/" + s.name()), true);
    }
  }

  /**
   * Runs {@code vs} through one round of {@code s} in one batch, a batch for each in their order.
   * One variant has the clients to itself. Several are interleaved ({@code --interleave}): each
   * client does each of its files once per variant, so that what drifts on the machine meets them
   * alike at the scale of one file. Which goes first rotates with the file, the client and the
   * round: the second to read a file finds the first's connections to its DataNodes pooled
   * (5% faster in an A/A run), and files differ, so an order fixed per file would favour one.
   * Interleaved variants share one cluster and its DataNodes' setup, in a scenario without a
   * fault ({@link Benchmark#checkInterleaved}); a variant's wall time is then its files' time per
   * client, and the process's CPU time and allocation, which they share, are unknown (-1); the
   * background load's bytes, shared too, are counted with none.
   */
  List<Batch> run(Scenario s, List<Variant> vs, int round)
      throws IOException, InterruptedException {
    Workload w = s.workload();
    int n = vs.size();
    Target.Cluster cluster = target.cluster(vs.get(0).mode);
    List<Path> outs = new ArrayList<>();
    List<List<FileSample>> samples = new ArrayList<>();
    List<List<Long>> opNanos = new ArrayList<>();
    List<FileSystem> fss = new ArrayList<>();
    long[] hedgesTried = new long[n];
    long[] hedgesWon = new long[n];
    long[] hedgedBytes = new long[n];
    long[] replacements = new long[n];
    long[] blocks = new long[n];
    DFSHedgedReadMetrics hedges = null;
    long wall;
    long cpu;
    long allocated;
    long background;
    long shortCircuit;
    long served;
    for (Variant v : vs) {
      outs.add(new Path("/curtail-bench/" + s.name() + "/" + v.label + "/r" + round));
      samples.add(Collections.synchronizedList(new ArrayList<>()));
      opNanos.add(Collections.synchronizedList(new ArrayList<>()));
    }
    Mode mode = vs.get(0).mode;
    List<java.nio.file.Path> blameDirs = new ArrayList<>();
    // The DataNodes each Curtail batch's runtime still avoids as slow when its clients are done.
    List<List<String>> avoidedAtEnd = new ArrayList<>();
    vs.forEach(v -> avoidedAtEnd.add(new ArrayList<>()));
    ExecutorService clients = Executors.newFixedThreadPool(w.clients());
    // A file system that fails to close is logged: what it wrote is verified below regardless.
    Closeable closeFileSystems =
        () -> IOUtils.cleanupWithLogger(LOG, fss.toArray(new Closeable[0]));
    try (closeFileSystems;
        Fault fault = mode.faulty() ? cluster.inject(s) : () -> { };
        Fault plain = mode.pluginOnDataNodes() ? () -> { } : cluster.withoutPlugin();
        BackgroundLoad load = BackgroundLoad.start(cluster.uri(), stockConf(cluster),
            w.backgroundStreams(), new Path(outs.get(0), "background"))) {
      for (Variant v : vs) {
        Configuration conf = batchConf(cluster, s, v, round);
        blameDirs.add(BlameRecords.direct(conf, round != WARM_UP_ROUND,
            new java.io.File(new java.io.File(v.options.statsDir).getParentFile(), "blame/"
                + s.name() + "/" + v.label + "-r" + round).toPath()));
        keepKnowledge(cluster, v, conf);
        FileSystem fs = FileSystem.newInstance(cluster.uri(), conf);
        fss.add(fs);
        if (!w.verifiesChecksums()) {
          fs.setVerifyChecksum(false); // as HBase reads its HFiles, under every mode
        }
        if (!(fs instanceof CurtailDistributedFileSystem) && fs instanceof DistributedFileSystem) {
          hedges = ((DistributedFileSystem) fs).getHedgedReadMetrics(); // JVM-wide: deltas
        }
      }
      long stockTried = hedges == null ? 0 : hedges.getHedgedReadOps();
      long stockWon = hedges == null ? 0 : hedges.getHedgedReadWins();
      List<Future<?>> done = new ArrayList<>();
      long shortCircuitStart = ReadCounts.shortCircuit();
      long servedStart = cluster.bytesServed();
      long start = System.nanoTime();
      long cpuStart = processCpuNanos();
      long allocatedStart = allocatedBytes();
      for (int c = 0; c < w.clients(); c++) {
        int client = c;
        done.add(clients.submit(() -> {
          runClient(fss, vs, cluster, s, round, client, outs, start, samples, opNanos);
          return null;
        }));
      }
      for (Future<?> f : done) {
        join(f);
      }
      wall = System.nanoTime() - start;
      cpu = processCpuNanos() - cpuStart;
      allocated = allocatedBytes() - allocatedStart;
      background = load.bytes();
      shortCircuit = ReadCounts.shortCircuit() - shortCircuitStart;
      served = servedStart < 0 ? -1 : cluster.bytesServed() - servedStart;
      for (int i = 0; i < n; i++) {
        FileSystem fs = fss.get(i);
        if (fs instanceof CurtailDistributedFileSystem) { // per client, new each batch
          CurtailDistributedFileSystem curtail = (CurtailDistributedFileSystem) fs;
          hedgesTried[i] = curtail.hedgesTried();
          hedgesWon[i] = curtail.hedgesWon();
          // Parity read around slow cells is what hedges are to replicated reads: bytes read
          // beyond what was delivered.
          StripedReads striped = curtail.stripedReads();
          hedgedBytes[i] = curtail.hedgedBytes() + (striped == null ? 0 : striped.parityBytes());
          if (striped != null && striped.readsAround() > 0) {
            LOG.info("Striped reads scenario={} parityReads={} parityBytes={} readsAround={}"
                + " denied={} stripesDecoded={}", s.name(), striped.parityReads(),
                striped.parityBytes(), striped.readsAround(), striped.readsAroundDenied(),
                striped.stripesDecoded());
          }
          // Erasure-coded writes: a streamer let go is a group's replacement by nobody.
          StripedWatch stripedWrites = curtail.stripedWrites();
          replacements[i] = curtail.replacements()
              + (stripedWrites == null ? 0 : stripedWrites.drops());
          blocks[i] = curtail.blocksWritten()
              + (stripedWrites == null ? 0 : stripedWrites.groups());
          if (curtail.runtime() != null) { // none in a cohort with every technique off
            for (DatanodeInfo d : curtail.runtime().slowNodes().avoided()) {
              avoidedAtEnd.get(i).add(d.getXferAddr());
            }
          }
        } else if (hedges != null) { // alone, or interleaved with no stock hedging at all
          hedgesTried[i] = hedges.getHedgedReadOps() - stockTried;
          hedgesWon[i] = hedges.getHedgedReadWins() - stockWon;
          hedgedBytes[i] = hedgesTried[i] == 0 ? 0 : -1; // stock does not count its hedges' bytes
        }
      }
    } finally {
      clients.shutdownNow();
      for (Variant v : vs) {
        v.mode.afterBatch();
      }
    }
    List<Batch> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long[] writtenAndVerified = verifyWrites(cluster, s, round, outs.get(i));
      long readVerified = 0;
      long busy = 0;
      for (FileSample f : samples.get(i)) {
        readVerified += Op.valueOf(f.op.toUpperCase(Locale.ROOT)).writes() ? 0 : f.bytes;
        busy += f.latencyNanos;
      }
      out.add(new Batch(new ArrayList<>(samples.get(i)), n == 1 ? wall : busy / w.clients(),
          n == 1 ? cpu : -1, writtenAndVerified[0], writtenAndVerified[1] + readVerified,
          hedgesTried[i], hedgesWon[i], replacements[i], blocks[i], n == 1 ? background : 0,
          new ArrayList<>(opNanos.get(i)), n == 1 ? allocated : -1, n == 1 ? shortCircuit : -1,
          n == 1 ? served : -1, hedgedBytes[i]));
      // A fault the benchmark did not inject itself (a running cluster's) has no known culprit:
      // its records stay for an operator's labels (stats --labels), unlabelled here.
      List<Incident> incidents = cluster.incidents();
      if (!s.hasFault() || !incidents.isEmpty()) {
        out.get(i).blame = BlameRecords.label(blameDirs.get(i), incidents);
        if (out.get(i).blame != null) {
          out.get(i).blame.avoidedAtEnd(avoidedAtEnd.get(i));
        }
      }
    }
    return out;
  }

  /** With warm knowledge, holds {@code v}'s runtime for the run ({@link #keepers}). */
  private void keepKnowledge(Target.Cluster cluster, Variant v, Configuration conf)
      throws IOException {
    if (!warmKnowledge || keepers.containsKey(v.label)
        || !CurtailDistributedFileSystem.class.getName().equals(conf.get("fs.hdfs.impl"))) {
      return;
    }
    Configuration keeper = new Configuration(conf);
    keeper.unset("curtail.stats.dir"); // it reads nothing, so it has nothing to record
    keepers.put(v.label, FileSystem.newInstance(cluster.uri(), keeper));
  }

  /** Lets the runtimes kept for the run go. */
  @Override
  public void close() {
    IOUtils.cleanupWithLogger(LOG, keepers.values().toArray(new Closeable[0]));
    keepers.clear();
  }

  /** The client configuration of {@code v}'s batch of {@code s} in {@code round}. */
  private Configuration batchConf(Target.Cluster cluster, Scenario s, Variant v, int round) {
    Configuration conf = cluster.conf();
    s.clientSettings().forEach(conf::set);
    settings.forEach(conf::set);
    v.mode.configure(conf, v.options);
    v.settings.forEach(conf::set);
    if (round == WARM_UP_ROUND) {
      conf.unset("curtail.stats.dir"); // statistics of measured batches only
    }
    // Every batch pays for detecting the fault itself: what earlier batches learnt of the
    // DataNodes is not its to use, so the two Curtail modes compare fairly. In a long run a
    // mode keeps its own knowledge, as stock-best's NameNode keeps what it learns.
    conf.set("curtail.knowledge.scope",
        warmKnowledge ? "run-" + v.label : "batch-" + BATCHES.incrementAndGet());
    return conf;
  }

  /** CPU time of this whole process so far; 0 where the JVM cannot tell. */
  private static long processCpuNanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean
        ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : 0;
  }

  /**
   * Bytes every thread of this process allocated so far, ended ones included (a DataNode ends a
   * thread per connection); 0 where the JVM cannot tell.
   */
  private static long allocatedBytes() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    if (!(bean instanceof com.sun.management.ThreadMXBean)) {
      return 0;
    }
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
    return threads.isThreadAllocatedMemorySupported()
        ? Math.max(0, threads.getTotalThreadAllocatedBytes()) : 0; // -1 when turned off
  }

  /**
   * Client {@code client}'s files, one after another: each as soon as the last ends, or in a
   * paced workload when it is due (timed from then, however late the client starts it). With
   * several variants, each file is done once by each, the order rotated every file.
   */
  private void runClient(List<FileSystem> fss, List<Variant> vs, Target.Cluster cluster,
      Scenario s, int round, int client, List<Path> outs, long batchStart,
      List<List<FileSample>> samples, List<List<Long>> opNanos)
      throws IOException, InterruptedException {
    Workload w = s.workload();
    Op op = w.op(client);
    int n = vs.size();
    for (int f = 0; f < w.filesPerClient(); f++) {
      for (int k = 0; k < n; k++) {
        int i = Math.floorMod(round + client + f + k, n);
        Path path = op.writes() ? new Path(outs.get(i), "c" + client + "-f" + f)
            : readFile(s, client, f);
        long fileSeed = fileSeed(s, op.writes() ? round : -1, client, f);
        long t0 = System.nanoTime();
        if (w.paced()) {
          long due = batchStart + w.dueNanos(client, f);
          TimeUnit.NANOSECONDS.sleep(due - t0);
          t0 = due;
        }
        long read = 0;
        if (op == Op.WRITE) {
          Op.write(fss.get(i), path, fileSeed, w.fileBytes(), w.shape(),
              cluster.pipeline(s, client * w.filesPerClient() + f));
        } else {
          read = op.run(fss.get(i), path, fileSeed, w.fileBytes(), w.shape(),
              opNanos.get(i)::add);
        }
        long t1 = System.nanoTime();
        samples.get(i).add(new FileSample(s.name(), vs.get(i).label, round, client, f,
            op.name().toLowerCase(Locale.ROOT), t0 - epochNanos, t1 - t0,
            op.writes() ? w.fileBytes() : read));
      }
    }
  }

  /** Reads back, with a stock client and no fault, every file the round wrote; then deletes them. */
  private long[] verifyWrites(Target.Cluster cluster, Scenario s, int round, Path out)
      throws IOException {
    Workload w = s.workload();
    long written = 0;
    long verified = 0;
    try (FileSystem fs = FileSystem.newInstance(cluster.uri(), stockConf(cluster))) {
      for (int c = 0; c < w.clients(); c++) {
        if (!w.op(c).writes()) {
          continue;
        }
        for (int f = 0; f < w.filesPerClient(); f++) {
          written += w.fileBytes();
          verified += SeededData.verify(fs, new Path(out, "c" + c + "-f" + f),
              fileSeed(s, round, c, f), w.fileBytes());
        }
      }
      fs.delete(out, true);
    }
    return new long[] {written, verified};
  }

  /** A stock client's configuration for {@code c}, for the benchmark's own reads and writes. */
  private Configuration stockConf(Target.Cluster c) {
    Configuration conf = c.conf();
    settings.forEach(conf::set);
    Mode.STOCK.configure(conf, null);
    return conf;
  }

  private static void join(Future<?> f) throws IOException, InterruptedException {
    try {
      f.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      throw new IOException(cause);
    }
  }
}
