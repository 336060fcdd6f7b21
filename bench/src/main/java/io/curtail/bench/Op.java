package io.curtail.bench;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.EnumSet;
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
    public long run(FileSystem fs, Path path, long seed, long length, Workload w)
        throws IOException {
      return write(fs, path, seed, length, w, null);
    }
  },
  /** Read the file sequentially to its end. */
  READ {
    @Override
    public long run(FileSystem fs, Path path, long seed, long length, Workload w)
        throws IOException {
      try (InputStream in = fs.open(path, IO_BUFFER)) {
        SeededData.verify(in, seed, length, path.toString());
      }
      return length;
    }
  },
  /** Read the file with positional reads ({@code pread}) of {@link #PREAD_BYTES} each. */
  PREAD {
    @Override
    public long run(FileSystem fs, Path path, long seed, long length, Workload w)
        throws IOException {
      byte[] got = new byte[PREAD_BYTES];
      byte[] want = new byte[PREAD_BYTES];
      try (FSDataInputStream in = fs.open(path, IO_BUFFER)) {
        for (long pos = 0; pos < length; pos += PREAD_BYTES) {
          int n = (int) Math.min(PREAD_BYTES, length - pos);
          in.readFully(pos, got, 0, n);
          SeededData.check(got, n, seed, pos, want, path.toString());
        }
      }
      return length;
    }
  };

  /** Bytes per positional read: a typical columnar-format range read. */
  public static final int PREAD_BYTES = 1 << 20;
  private static final int IO_BUFFER = 64 * 1024;

  /**
   * Writes a file through {@code pipeline}, in that order (favoured nodes with client locality
   * ignored), or where the NameNode places it if null; returns 0.
   */
  public static long write(FileSystem fs, Path path, long seed, long length, Workload w,
      InetSocketAddress[] pipeline) throws IOException {
    try (FSDataOutputStream out = create(fs, path, w, pipeline)) {
      SeededData.write(out, seed, length);
    }
    return 0;
  }

  private static FSDataOutputStream create(FileSystem fs, Path path, Workload w,
      InetSocketAddress[] pipeline) throws IOException {
    if (pipeline == null) {
      return fs.create(path, true, IO_BUFFER, w.replication(), w.blockSize());
    }
    if (fs instanceof CurtailDistributedFileSystem) {
      return ((CurtailDistributedFileSystem) fs).create(path, null, EnumSet.of(CreateFlag.CREATE,
          CreateFlag.OVERWRITE, CreateFlag.IGNORE_CLIENT_LOCALITY), IO_BUFFER, w.replication(),
          w.blockSize(), null, null, pipeline);
    }
    if (fs instanceof DistributedFileSystem) {
      return ((DistributedFileSystem) fs).createFile(path).overwrite(true).recursive()
          .bufferSize(IO_BUFFER).replication(w.replication()).blockSize(w.blockSize())
          .favoredNodes(pipeline).ignoreClientLocality().build();
    }
    throw new IllegalArgumentException("placing a pipeline needs HDFS, not " + fs.getUri());
  }

  /** Runs the op on one file; returns the bytes it verified (0 for writes). */
  public abstract long run(FileSystem fs, Path path, long seed, long length, Workload w)
      throws IOException;

  boolean writes() {
    return this == WRITE;
  }
}
