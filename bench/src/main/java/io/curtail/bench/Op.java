package io.curtail.bench;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.Random;
import java.util.function.LongConsumer;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * What one client does to one whole file; the other side of the copy is memory (as in the paper's
 * ExtendedCP, §6.1). Reads verify every byte as they go; writes are verified after the run.
 */
public enum Op {
  /** Create the file and write it sequentially from memory. */
  WRITE {
    @Override
    public long run(FileSystem fs, Path path, long seed, long length, Shape shape,
        LongConsumer opNanos) throws IOException {
      return write(fs, path, seed, length, shape, null);
    }
  },
  /** Create the file and write it with an {@code hflush} every {@link #HFLUSH_BYTES}: a WAL. */
  WRITE_HFLUSH {
    @Override
    public long run(FileSystem fs, Path path, long seed, long length, Shape shape,
        LongConsumer opNanos) throws IOException {
      byte[] chunk = new byte[HFLUSH_BYTES];
      try (FSDataOutputStream out = fs.create(path, true, IO_BUFFER, shape.replication(),
          shape.blockSize())) {
        for (long pos = 0; pos < length; pos += HFLUSH_BYTES) {
          int n = (int) Math.min(HFLUSH_BYTES, length - pos);
          SeededData.fill(seed, pos, chunk, 0, n);
          long start = System.nanoTime();
          out.write(chunk, 0, n);
          out.hflush();
          opNanos.accept(System.nanoTime() - start);
        }
      }
      return 0;
    }
  },
  /** Read the file sequentially to its end. */
  READ {
    @Override
    public long run(FileSystem fs, Path path, long seed, long length, Shape shape,
        LongConsumer opNanos) throws IOException {
      try (FSDataInputStream in = fs.open(path, IO_BUFFER)) {
        SeededData.verify(in, seed, length, path.toString());
        ReadCounts.add(in);
      }
      return length;
    }
  },
  /** Read the whole file with positional reads ({@code pread}) of {@link #PREAD_BYTES} each. */
  PREAD {
    @Override
    public long run(FileSystem fs, Path path, long seed, long length, Shape shape,
        LongConsumer opNanos) throws IOException {
      return preads(fs, path, seed, length, PREAD_BYTES, length / PREAD_BYTES, false, opNanos);
    }
  },
  /**
   * Read the file front to back in pieces of {@link #PIECE_BYTES}, seeking forward past a gap of
   * up to {@link #MAX_GAP_BYTES} (drawn from the file's seed) after each: a columnar reader (ORC,
   * Parquet) taking only the columns it needs. Each seek and read's time goes to
   * {@code opNanos}.
   */
  SEEK_READ {
    @Override
    public long run(FileSystem fs, Path path, long seed, long length, Shape shape,
        LongConsumer opNanos) throws IOException {
      byte[] got = new byte[PIECE_BYTES];
      byte[] want = new byte[PIECE_BYTES];
      Random gaps = new Random(seed);
      long total = 0;
      try (FSDataInputStream in = fs.open(path, IO_BUFFER)) {
        for (long pos = 0; pos < length; pos += gaps.nextInt(MAX_GAP_BYTES + 1)) {
          int n = (int) Math.min(PIECE_BYTES, length - pos);
          long start = System.nanoTime();
          in.seek(pos);
          in.readFully(got, 0, n);
          opNanos.accept(System.nanoTime() - start);
          SeededData.check(got, n, seed, pos, want, path.toString());
          pos += n;
          total += n;
        }
        ReadCounts.add(in);
      }
      return total;
    }
  },
  /** {@link #RANDOM_READS} positional reads of 4 KiB at random offsets: HBase, Parquet footers. */
  PREAD_4K(4 * 1024),
  /** {@link #RANDOM_READS} positional reads of 64 KiB at random offsets. */
  PREAD_64K(64 * 1024);

  /** Bytes of each random-offset positional read; 0 for the other ops. */
  private final int randomReadBytes;

  Op() {
    this(0);
  }

  Op(int randomReadBytes) {
    this.randomReadBytes = randomReadBytes;
  }

  /** Bytes per whole-file positional read: a typical columnar-format range read. */
  public static final int PREAD_BYTES = 1 << 20;
  /** Positional reads per file for the random-offset ops. */
  public static final int RANDOM_READS = 128;
  /** Bytes of each piece {@link #SEEK_READ} reads. */
  public static final int PIECE_BYTES = 16 * 1024;
  /**
   * The largest gap {@link #SEEK_READ} seeks past: twice the 128 KiB below which stock reads
   * through rather than reconnecting, so about half its seeks do each.
   */
  public static final int MAX_GAP_BYTES = 256 * 1024;
  /** Bytes between two {@code hflush} calls of {@link #WRITE_HFLUSH}. */
  public static final int HFLUSH_BYTES = 8 * 1024;
  private static final int IO_BUFFER = 64 * 1024;

  /**
   * {@code count} positional reads of {@code size} bytes, at offsets from the file's start in
   * order, or at random offsets (drawn from the file's seed, so every mode reads the same ones);
   * each read's time goes to {@code opNanos} and its bytes are checked. Returns bytes read.
   */
  private static long preads(FileSystem fs, Path path, long seed, long length, int size,
      long count, boolean random, LongConsumer opNanos) throws IOException {
    byte[] got = new byte[size];
    byte[] want = new byte[size];
    Random offsets = new Random(seed);
    long total = 0;
    try (FSDataInputStream in = fs.open(path, IO_BUFFER)) {
      for (long i = 0; i < count || (!random && i * size < length); i++) {
        long pos = random ? (long) (offsets.nextDouble() * (length - size)) : i * size;
        int n = (int) Math.min(size, length - pos);
        long start = System.nanoTime();
        in.readFully(pos, got, 0, n);
        opNanos.accept(System.nanoTime() - start);
        SeededData.check(got, n, seed, pos, want, path.toString());
        total += n;
      }
      ReadCounts.add(in);
    }
    return total;
  }

  /**
   * Writes a file through {@code pipeline}, in that order (favoured nodes with client locality
   * ignored), or where the NameNode places it if null; returns 0.
   */
  public static long write(FileSystem fs, Path path, long seed, long length, Shape shape,
      InetSocketAddress[] pipeline) throws IOException {
    try (FSDataOutputStream out = create(fs, path, shape, pipeline)) {
      SeededData.write(out, seed, length);
    }
    return 0;
  }

  private static FSDataOutputStream create(FileSystem fs, Path path, Shape shape,
      InetSocketAddress[] pipeline) throws IOException {
    if (pipeline == null) {
      return fs.create(path, true, IO_BUFFER, shape.replication(), shape.blockSize());
    }
    if (fs instanceof CurtailDistributedFileSystem) {
      return ((CurtailDistributedFileSystem) fs).create(path, null, EnumSet.of(CreateFlag.CREATE,
          CreateFlag.OVERWRITE, CreateFlag.IGNORE_CLIENT_LOCALITY), IO_BUFFER, shape.replication(),
          shape.blockSize(), null, null, pipeline);
    }
    if (fs instanceof DistributedFileSystem) {
      return ((DistributedFileSystem) fs).createFile(path).overwrite(true).recursive()
          .bufferSize(IO_BUFFER).replication(shape.replication()).blockSize(shape.blockSize())
          .favoredNodes(pipeline).ignoreClientLocality().build();
    }
    throw new IllegalArgumentException("placing a pipeline needs HDFS, not " + fs.getUri());
  }

  /**
   * Runs the op on one file of {@code length} bytes; returns the bytes it read and verified (0
   * for writes, which are verified after the run). Ops made of many small operations (small
   * reads, hflushes) give each one's time to {@code opNanos}. The random-offset reads are this
   * default; every other op overrides it.
   */
  public long run(FileSystem fs, Path path, long seed, long length, Shape shape,
      LongConsumer opNanos) throws IOException {
    return preads(fs, path, seed, length, randomReadBytes, RANDOM_READS, true, opNanos);
  }

  /** {@link #run} without per-operation times. */
  public long run(FileSystem fs, Path path, long seed, long length, Shape shape)
      throws IOException {
    return run(fs, path, seed, length, shape, nanos -> { });
  }

  boolean writes() {
    return this == WRITE || this == WRITE_HFLUSH;
  }

  /** Whether the op reads with positional reads (which stock's hedged reads cover). */
  boolean positional() {
    return this == PREAD || this == PREAD_4K || this == PREAD_64K;
  }

  /** How the files an op writes are laid out: their replication and block size. */
  public record Shape(short replication, long blockSize) { }
}
