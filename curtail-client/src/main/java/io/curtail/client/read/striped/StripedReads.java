package io.curtail.client.read.striped;

import io.curtail.client.read.CellReads;
import io.curtail.client.runtime.Scheduler;
import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.io.erasurecode.CodecUtil;
import org.apache.hadoop.io.erasurecode.ErasureCoderOptions;
import org.apache.hadoop.io.erasurecode.rawcoder.RawErasureDecoder;

/**
 * What a file system's striped reads share: the hook into Curtail's reader ({@link CellReads}),
 * one decoder per erasure-coding policy (the coder the cluster's policy names, made by Hadoop's
 * {@link CodecUtil} as stock's striped stream makes it), and what was read around slow cells.
 *
 * <p>Thread-safe. A decoder is not: each is used under its own lock; decoding a stripe takes a
 * few milliseconds, reading it tens.
 */
public final class StripedReads implements Closeable {
  private static final AtomicInteger CLIENTS = new AtomicInteger();
  final CellReads cells;
  /**
   * The threads cells, and the pieces of a positional read, are read on: one per cell in flight,
   * kept a minute after, as many as the reads in flight ask for (k + m per stripe at most).
   */
  final ExecutorService threads = Executors.newCachedThreadPool(
      Scheduler.daemonThreads("curtail-striped-" + CLIENTS.incrementAndGet()));
  private final Configuration conf;
  private final Map<String, RawErasureDecoder> decoders = new ConcurrentHashMap<>();
  private final LongAdder parityReads = new LongAdder();
  private final LongAdder parityBytes = new LongAdder();
  private final LongAdder readsAround = new LongAdder();
  private final LongAdder stripesDecoded = new LongAdder();
  private final LongAdder readsAroundDenied = new LongAdder();

  public StripedReads(CellReads cells, Configuration conf) {
    this.cells = cells;
    this.conf = conf;
  }

  /**
   * Curtail's stream of the erasure-coded file {@code metadata} was opened on, or null where it
   * keeps stock's: a file still being written, in an encryption zone, or whose blocks this Hadoop
   * hides.
   */
  public StripedInputStream open(DFSClient client, String file, DFSInputStream metadata,
      boolean verifyChecksum, FileSystem.Statistics statistics) throws IOException {
    LocatedBlocks blocks = CellReads.locatedBlocks(metadata);
    if (blocks == null || blocks.getErasureCodingPolicy() == null
        || CellReads.beingWritten(blocks) || metadata.getFileEncryptionInfo() != null) {
      return null;
    }
    return new StripedInputStream(this, client, file, metadata, blocks, verifyChecksum,
        statistics);
  }

  /** Decodes {@code inputs} (null where absent) into {@code outputs}, one per erased cell. */
  void decode(ErasureCodingPolicy policy, byte[][] inputs, int[] erased, byte[][] outputs)
      throws IOException {
    RawErasureDecoder d = decoders.computeIfAbsent(policy.getName(),
        n -> CodecUtil.createRawDecoder(conf, policy.getCodecName(),
            new ErasureCoderOptions(policy.getNumDataUnits(), policy.getNumParityUnits())));
    synchronized (d) {
      d.decode(inputs, erased, outputs);
    }
    stripesDecoded.increment();
  }

  void parityRead(long bytes) {
    parityReads.increment();
    parityBytes.add(bytes);
  }

  void readAround() {
    readsAround.increment();
  }

  void readAroundDenied() {
    readsAroundDenied.increment();
  }

  /** Stops the threads: cells still in flight fail. */
  @Override
  public void close() {
    threads.shutdownNow();
  }

  /** Parity cells read, whole. */
  public long parityReads() {
    return parityReads.sum();
  }

  /** Bytes of parity cells read, whole: what reading around slow DataNodes cost. */
  public long parityBytes() {
    return parityBytes.sum();
  }

  /** Cells read in place of late, slow or failed ones (parity, or data not asked for). */
  public long readsAround() {
    return readsAround.sum();
  }

  /** Reads around that the hedge budget, its bounds or a backoff refused. */
  public long readsAroundDenied() {
    return readsAroundDenied.sum();
  }

  /** Stripes whose asked-for cells were decoded from others. */
  public long stripesDecoded() {
    return stripesDecoded.sum();
  }
}
