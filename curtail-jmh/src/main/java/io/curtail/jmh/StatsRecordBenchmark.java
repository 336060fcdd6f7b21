package io.curtail.jmh;

import io.curtail.client.stats.BlockRecord;
import io.curtail.client.stats.StatsLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one per-block statistics record ({@code curtail.stats.dir}) costs in CPU, all of it, on
 * one thread: the reader's part (the record made, its DataNodes set, done and offered to the
 * queue) and the writing thread's ({@link StatsLog#writeQueued}: taken from the queue, rendered as
 * JSON, written to the log's buffered file, rotated at its cap). Multiplied by the records a MiB
 * makes (one per block read or written, one per 4 KiB positional read at worst, one per file), it
 * is what statistics cost a scenario's CPU per MiB. The writing step is
 * reached through {@link StatsLog#openIdle}, a log the caller drains.
 *
 * <p>Run: {@code java -jar curtail-jmh/target/benchmarks.jar StatsRecord -prof gc}.
 */
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class StatsRecordBenchmark {
  private static final List<String> PIPELINE =
      List.of("10.20.30.41:9866", "10.20.30.42:9866", "10.20.30.43:9866");
  private static final String FILE = "/warehouse/sales/part-00017-4f6c.parquet";

  private Path dir;
  private StatsLog log;
  private long blockId = 1_073_741_825L;
  private long now = 1_000_000_000L;

  @Setup
  public void open() throws IOException {
    dir = Files.createTempDirectory("stats-record-bench");
    log = StatsLog.openIdle(dir, 1024); // its thread not started: the benchmark writes
  }

  @TearDown
  public void close() throws IOException {
    log.close();
    try (var files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.delete(f);
      }
    }
    Files.delete(dir);
  }

  /** One block read recorded, from its start to its line in the file. */
  @Benchmark
  public void blockRead() {
    now += 4_000_000;
    BlockRecord r = log.read(FILE, blockId++, now);
    r.dataNodes(PIPELINE);
    r.done(128L * 1024 * 1024, now + 350_000_000); // offers it to the queue
    log.writeQueued();
  }
}
