package io.curtail.client.write;

import io.curtail.client.wire.Abortable;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.protocol.datatransfer.PacketHeader;
import org.apache.hadoop.util.DataChecksum;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One 64 KiB packet written, up to the socket: the data copied into a packet buffer, its
 * checksums computed and its header laid out, as a stock writer does by default (a new buffer per
 * packet, {@code stock}); and through Curtail's writer ({@code curtail}: a {@code Packet} from
 * the stream's pool, its header written by {@code PacketFormat}, the {@code WriteQueue} from queued
 * to in flight to acknowledged, the packet given back). Among the client's tests, in this
 * package, to reach those classes without a jar that puts classes in the client's packages.
 *
 * <p>Run: see docs/benchmark.md, "Microbenchmarks (JMH)".
 */
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class WritePacketBenchmark {
  private static final int DATA = 64 * 1024;
  private static final int CHUNKS = DATA / 512;
  private final DataChecksum sum = DataChecksum.newDataChecksum(DataChecksum.Type.CRC32C, 512);
  private final byte[] data = new byte[DATA];
  private final PacketPool packets = new PacketPool(80);
  private final WriteQueue queue = new WriteQueue("/bench", System::nanoTime);
  private final Abortable pipeline = () -> { };
  private final Packet heartbeat = Packet.heartbeat(sum);
  private long seqno;

  @Setup
  public void start() throws IOException {
    new Random(1).nextBytes(data);
    queue.pipelineStarted(pipeline);
  }

  /** What a stock writer does with a packet's worth of data. */
  @Benchmark
  public byte[] stock() {
    int sums = CHUNKS * sum.getChecksumSize();
    byte[] buf = new byte[PacketHeader.PKT_MAX_HEADER_LEN + sums + DATA];
    int dataStart = PacketHeader.PKT_MAX_HEADER_LEN + sums;
    System.arraycopy(data, 0, buf, dataStart, DATA);
    sum.calculateChunkedSums(buf, dataStart, DATA, buf, PacketHeader.PKT_MAX_HEADER_LEN);
    byte[] header = new PacketHeader(4 + sums + DATA, 0, seqno++, false, DATA, false).getBytes();
    System.arraycopy(header, 0, buf, PacketHeader.PKT_MAX_HEADER_LEN - header.length,
        header.length);
    return buf;
  }

  /** Curtail's writer: the packet made, queued, sent, acknowledged and its buffer recycled. */
  @Benchmark
  public long curtail() throws IOException {
    Packet p = Packet.data(0, 1L << 30, CHUNKS, sum, packets);
    p.append(data, 0, DATA);
    p.seal(seqno++, sum);
    queue.enqueue(p, 80);
    queue.markSent(queue.nextToSend(Long.MAX_VALUE, heartbeat));
    queue.acked(p.seqno()).recycle();
    return p.end();
  }
}
