package io.curtail.client.stats;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one per-block statistics record ({@code curtail.stats.dir}) costs in CPU, all of it: the
 * reader's part (the record made, its DataNodes set, done and offered to the queue) and the
 * writing thread's (taken from the queue, rendered as JSON, written to a buffered file writer;
 * the file's own system calls, one per 64 KiB of records, left out). Multiplied by the records a
 * MiB makes (one per block read or written, one per 4 KiB positional read at worst, one per file),
 * it is what statistics cost a scenario's CPU per MiB.
 *
 * <p>Run: {@code java -cp 'bench/target/benchmarks.jar:bench/target/lib/*' org.openjdk.jmh.Main
 * StatsRecord -prof gc}.
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

  private final ArrayBlockingQueue<BlockRecord> queue = new ArrayBlockingQueue<>(1024);
  private final Writer out = Writer.nullWriter();
  private final StringBuilder line = new StringBuilder(1024);
  private char[] chars = new char[1024];
  private long blockId = 1_073_741_825L;
  private long now = 1_000_000_000L;

  /** One block read recorded, from its start to its line in the file. */
  @Benchmark
  public BlockRecord blockRead() throws IOException {
    now += 4_000_000;
    BlockRecord r = BlockRecord.read(FILE, blockId++, now);
    r.dataNodes(PIPELINE);
    r.done(128L * 1024 * 1024, now + 350_000_000);
    queue.offer(r); // the reader's offer
    BlockRecord taken = queue.poll(); // the writing thread's take
    line.setLength(0); // as StatsLog writes it
    taken.toJson(line, "control", "worker-117.example.com",
        "DFSClient_NONMAPREDUCE_-1417171443_1").append('\n');
    line.getChars(0, line.length(), chars, 0);
    out.write(chars, 0, line.length());
    return taken;
  }
}
