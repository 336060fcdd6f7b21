package io.curtail.bench;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.testcluster.Fault;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSHedgedReadMetrics;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Runs one mode through one round of one scenario: the clients concurrently, each doing its files
 * one after another, timing each whole file; then reads back every file written and compares it
 * byte for byte, with the fault undone.
 */
final class Runner {
  private static final AtomicInteger BATCHES = new AtomicInteger();
  private final Target target;
  private final Mode.Options options;
  private final Map<String, String> settings;
  private final long seed;
  private final long epochNanos;

  /**
   * @param settings extra client settings ({@code -D key=value}), applied under every mode
   * @param epochNanos {@code System.nanoTime()} when the benchmark started
   */
  Runner(Target target, Mode.Options options, Map<String, String> settings, long seed,
      long epochNanos) {
    this.target = target;
    this.options = options;
    this.settings = settings;
    this.seed = seed;
    this.epochNanos = epochNanos;
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

  /** Writes, healthy, the files the scenario's readers read; round -1 names them. */
  void prepare(Scenario s) throws IOException {
    Workload w = s.workload();
    try (FileSystem fs = FileSystem.newInstance(target.uri(), conf(Mode.STOCK))) {
      for (int c = 0; c < w.clients(); c++) {
        if (w.op(c).writes()) {
          continue;
        }
        for (int f = 0; f < w.filesPerClient(); f++) {
          Op.WRITE.run(fs, readFile(s, c, f), fileSeed(s, -1, c, f), w.fileBytes(), w);
        }
      }
    }
  }

  /** Deletes everything the scenario left. */
  void cleanUp(Scenario s) throws IOException {
    try (FileSystem fs = FileSystem.newInstance(target.uri(), conf(Mode.STOCK))) {
      fs.delete(new Path("/curtail-bench/" + s.name()), true);
    }
  }

  Batch run(Scenario s, Mode mode, int round) throws IOException, InterruptedException {
    Workload w = s.workload();
    Path out = new Path("/curtail-bench/" + s.name() + "/" + mode.label() + "/r" + round);
    List<FileSample> samples = Collections.synchronizedList(new ArrayList<>());
    List<Long> opNanos = Collections.synchronizedList(new ArrayList<>());
    DFSHedgedReadMetrics hedges = null;
    long hedgesTried = 0;
    long hedgesWon = 0;
    long replacements = 0;
    long blocks = 0;
    long wall;
    long cpu;
    long allocated;
    long background;
    ExecutorService clients = Executors.newFixedThreadPool(w.clients());
    Configuration batchConf = conf(mode);
    // Every batch pays for detecting the fault itself: what earlier batches learnt of the
    // DataNodes is not its to use, so the two Curtail modes compare fairly.
    batchConf.set("curtail.knowledge.scope", "batch-" + BATCHES.incrementAndGet());
    try (FileSystem fs = FileSystem.newInstance(target.uri(), batchConf);
        Fault fault = mode.faulty() ? target.inject(s) : () -> { };
        Fault plain = mode.pluginOnDataNodes() ? () -> { } : target.withoutPlugin();
        BackgroundLoad load = BackgroundLoad.start(target.uri(), conf(Mode.STOCK),
            w.backgroundStreams(), new Path(out, "background"))) {
      if (!(fs instanceof CurtailDistributedFileSystem) && fs instanceof DistributedFileSystem) {
        hedges = ((DistributedFileSystem) fs).getHedgedReadMetrics(); // JVM-wide: take deltas
        hedgesTried = hedges.getHedgedReadOps();
        hedgesWon = hedges.getHedgedReadWins();
      }
      List<Future<?>> done = new ArrayList<>();
      long start = System.nanoTime();
      long cpuStart = processCpuNanos();
      long allocatedStart = allocatedBytes();
      for (int c = 0; c < w.clients(); c++) {
        int client = c;
        done.add(clients.submit(() -> {
          runClient(fs, s, mode, round, client, out, samples, opNanos::add);
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
      if (hedges != null) {
        hedgesTried = hedges.getHedgedReadOps() - hedgesTried;
        hedgesWon = hedges.getHedgedReadWins() - hedgesWon;
      } else if (fs instanceof CurtailDistributedFileSystem) { // per client, new each batch
        hedgesTried = ((CurtailDistributedFileSystem) fs).hedgesTried();
        hedgesWon = ((CurtailDistributedFileSystem) fs).hedgesWon();
        replacements = ((CurtailDistributedFileSystem) fs).replacements();
        blocks = ((CurtailDistributedFileSystem) fs).blocksWritten();
      }
    } finally {
      clients.shutdownNow();
      mode.afterBatch();
    }
    long[] writtenAndVerified = verifyWrites(s, round, out);
    long readVerified = 0;
    for (FileSample f : samples) {
      readVerified += Op.valueOf(f.op.toUpperCase(Locale.ROOT)).writes() ? 0 : f.bytes;
    }
    return new Batch(new ArrayList<>(samples), wall, cpu, writtenAndVerified[0],
        writtenAndVerified[1] + readVerified, hedgesTried, hedgesWon, replacements, blocks,
        background, new ArrayList<>(opNanos), allocated);
  }

  /** CPU time of this whole process so far; 0 where the JVM cannot tell. */
  private static long processCpuNanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean
        ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : 0;
  }

  /**
   * Bytes every thread of this process allocated so far, ended ones included (a DataNode ends a
   * thread per connection): {@code getTotalThreadAllocatedBytes}, which JDK 14 added, called
   * reflectively since the jar is built for Java 11; 0 where the JVM cannot tell.
   */
  private static long allocatedBytes() {
    try {
      Object total = com.sun.management.ThreadMXBean.class
          .getMethod("getTotalThreadAllocatedBytes").invoke(ManagementFactory.getThreadMXBean());
      return Math.max(0, (Long) total);
    } catch (ReflectiveOperationException | RuntimeException notThisJvm) {
      return 0;
    }
  }

  private void runClient(FileSystem fs, Scenario s, Mode mode, int round, int client, Path out,
      List<FileSample> samples, LongConsumer opNanos) throws IOException {
    Workload w = s.workload();
    Op op = w.op(client);
    for (int f = 0; f < w.filesPerClient(); f++) {
      Path path = op.writes() ? new Path(out, "c" + client + "-f" + f) : readFile(s, client, f);
      long fileSeed = fileSeed(s, op.writes() ? round : -1, client, f);
      long t0 = System.nanoTime();
      if (op == Op.WRITE) {
        Op.write(fs, path, fileSeed, w.fileBytes(), w,
            target.pipeline(s, client * w.filesPerClient() + f));
      } else {
        op.run(fs, path, fileSeed, w.fileBytes(), w, opNanos);
      }
      long t1 = System.nanoTime();
      samples.add(new FileSample(s.name(), mode.label(), round, client, f,
          op.name().toLowerCase(Locale.ROOT), t0 - epochNanos, t1 - t0,
          op.bytesMoved(w.fileBytes())));
    }
  }

  /** Reads back, with a stock client and no fault, every file the round wrote; then deletes them. */
  private long[] verifyWrites(Scenario s, int round, Path out) throws IOException {
    Workload w = s.workload();
    long written = 0;
    long verified = 0;
    try (FileSystem fs = FileSystem.newInstance(target.uri(), conf(Mode.STOCK))) {
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

  private Configuration conf(Mode mode) {
    Configuration conf = target.conf();
    settings.forEach(conf::set);
    mode.configure(conf, options);
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
