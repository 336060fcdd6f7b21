package io.curtail.jmh;

import io.curtail.datanode.report.AckReports;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
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
 * What Curtail's DataNode plugin adds to each packet a DataNode receives, against the least a
 * DataNode does for one: the plugin's per-packet cost bounds its share of a DataNode's write
 * throughput (the issue asks for at least 98% of a DataNode without it), more precisely than an
 * end-to-end run on a shared machine can.
 *
 * <ul>
 *   <li>{@code packet} — the plugin's two hooks for one packet;
 *   <li>{@code checksum64k} — CRC32C over a 64 KiB packet (the JDK's intrinsic), which the last
 *       DataNode of a pipeline does for every packet;
 *   <li>{@code writeToBlockFile} — writing a 64 KiB packet to a block file in the page cache,
 *       which every DataNode does for every packet.
 * </ul>
 * Each baseline is only part of a DataNode's work per packet (it also reads the packet from one
 * socket and writes it to another, writes checksums, and flushes), so the plugin's cost as a
 * fraction of a baseline is an upper bound on its share of the DataNode's write throughput.
 * Run: {@code java -jar bench/target/benchmarks.jar AckReports}.
 */
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class AckReportsBenchmark {
  private static final String BLOCK = "BP-1-127.0.0.1-1:blk_1073741825_1001";
  private final AckReports reports = new AckReports(System::nanoTime);

  /** A packet's data, for the checksum baseline. */
  @State(Scope.Thread)
  public static class Packet {
    final byte[] data = new byte[64 * 1024];
    final CRC32C crc = new CRC32C();

    public Packet() {
      ThreadLocalRandom.current().nextBytes(data);
    }
  }

  /**
   * One packet through a middle DataNode: the receiver's hook before forwarding and the
   * responder's report on its ack. A DataNode makes them on two threads, which at its packet rate
   * (one per tens of microseconds) rarely contend; here one thread makes both, under the
   * receiver's name (which names the same block).
   */
  @Benchmark
  public int[] packet(Receiver r) {
    String name = r.name;
    reports.forwarding(name);
    r.replies[0] = 0;
    r.replies[1] = 0;
    r.replies[2] = 0;
    reports.report(name, r.replies);
    return r.replies;
  }

  /** The least a DataNode does with a packet's data: check its CRC32C. */
  @Benchmark
  public long checksum64k(Packet p) {
    p.crc.reset();
    p.crc.update(p.data, 0, p.data.length);
    return p.crc.getValue();
  }

  /**
   * The least a DataNode does with a packet's data besides: write it to its block file (here into
   * the page cache, cycling over a 64 MiB block as a DataNode's replica file grows).
   */
  @Benchmark
  public int writeToBlockFile(BlockFile f) throws IOException {
    f.data.clear();
    int n = f.channel.write(f.data, f.position);
    f.position = (f.position + n) % BlockFile.BLOCK_BYTES;
    return n;
  }

  /** A replica's file in the temporary directory. */
  @State(Scope.Thread)
  public static class BlockFile {
    static final long BLOCK_BYTES = 64L << 20;
    final ByteBuffer data = ByteBuffer.allocate(64 * 1024);
    Path path;
    FileChannel channel;
    long position;

    @Setup
    public void open() throws IOException {
      path = Files.createTempFile("curtail-jmh-block", ".data");
      channel = FileChannel.open(path, StandardOpenOption.WRITE);
    }

    @TearDown
    public void close() throws IOException {
      channel.close();
      Files.delete(path);
    }
  }

  /** A thread named as a DataNode names a block receiver. */
  @State(Scope.Thread)
  public static class Receiver {
    final String name = "DataXceiver for client DFSClient_1 at /127.0.0.1:50010 [Receiving block "
        + BLOCK + "]";
    final int[] replies = new int[3];
  }
}
