package io.curtail.client.read;

import io.curtail.client.conf.CurtailConfig;
import io.curtail.client.runtime.CurtailRuntime;
import io.curtail.client.runtime.NanoClock;
import io.curtail.client.runtime.Scheduler;
import io.curtail.client.track.NodeId;
import io.curtail.client.track.NodeTracker;
import io.curtail.client.wire.Abortable;
import io.curtail.client.wire.ConnectionPool;
import io.curtail.client.wire.PacketInput;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.net.SocketFactory;
import org.apache.hadoop.hdfs.protocol.datatransfer.PacketHeader;
import org.apache.hadoop.hdfs.protocol.datatransfer.PacketReceiver;
import org.apache.hadoop.util.DataChecksum;
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
 * One 64 KiB packet read off a channel into a direct buffer, decoded and its checksums verified:
 * as a stock block reader does it ({@code stock}: Hadoop's {@code PacketReceiver} and
 * {@code DataChecksum}), and as Curtail's reader does it ({@code curtail}: the connection's
 * {@link PacketInput}, with the race against a hedge, the packet timed and recorded for its
 * DataNode, the client's packet count and the hedge threshold looked up), in the steps
 * {@code BlockRead.nextPacket} takes. Among the client's tests, in this package, to reach them
 * without a jar that puts classes in the client's packages.
 *
 * <p>Run: see docs/benchmark.md, "Microbenchmarks (JMH)".
 */
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class ReadPacketBenchmark {
  private static final int DATA = 64 * 1024;
  private final DataChecksum sum = DataChecksum.newDataChecksum(DataChecksum.Type.CRC32C, 512);
  private final PacketReceiver receiver = new PacketReceiver(true);
  private final Abortable primary = () -> { };
  private ByteArrayInputStream wire;
  private ReadableByteChannel channel;
  private PacketInput packets;
  private ReadContext ctx;
  private NodeTracker tracker;
  private Race<Abortable> race;

  @Setup
  public void encodeOnePacket() {
    byte[] data = new byte[DATA];
    new Random(1).nextBytes(data);
    byte[] sums = new byte[DATA / 512 * sum.getChecksumSize()];
    sum.calculateChunkedSums(data, 0, DATA, sums, 0);
    byte[] header = new PacketHeader(4 + sums.length + DATA, 0, 1, false, DATA, false).getBytes();
    ByteBuffer packet = ByteBuffer.allocate(header.length + sums.length + DATA);
    packet.put(header).put(sums).put(data);
    wire = new ByteArrayInputStream(packet.array());
    channel = Channels.newChannel(wire);
    packets = new PacketInput(channel, wire);
    CurtailConfig config = CurtailConfig.defaults();
    ctx = new ReadContext(config, CurtailRuntime.create(NanoClock.SYSTEM, config),
        SocketFactory.getDefault(), new ConnectionPool(NanoClock.SYSTEM, 0, 1),
        Scheduler.daemon("jmh-watchdog"));
    tracker = ctx.runtime.registry().tracker(NodeId.of("10.0.0.1:9866"));
    ctx.thresholds.readsFrom(tracker);
  }

  @TearDown
  public void close() {
    ctx.close();
  }

  /** What a stock reader does with a packet. */
  @Benchmark
  public int stock() throws IOException {
    wire.reset();
    receiver.receiveNextPacket(channel);
    ByteBuffer data = receiver.getDataSlice();
    sum.verifyChunkedSums(data, receiver.getChecksumSlice(), "bench", 0);
    return data.remaining();
  }

  /** The same, with Curtail's per-packet bookkeeping around it. */
  @Benchmark
  public int curtail() throws IOException {
    long threshold = ctx.thresholds.nanos(tracker);
    long start = ctx.clock.nanoTime();
    if (race == null || !race.rearm(start, threshold, primary, 0, 0)) {
      race = new Race<>(start, threshold, primary, 0, 0);
    }
    wire.reset();
    packets.receive();
    packets.verify(sum, "bench", 0);
    ByteBuffer data = packets.data();
    long took = ctx.clock.nanoTime() - start;
    ctx.nextPacket();
    race.claimForPrimary();
    tracker.reads().record(took);
    return data.remaining();
  }
}
