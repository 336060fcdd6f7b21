package io.curtail.testcluster;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Reproducible file contents: the bytes of a file are a function of a seed and their offset, so a
 * reader can verify any file byte for byte without keeping a copy, and a mismatch names the offset.
 */
public final class SeededData {
  private static final int CHUNK = 64 * 1024;
  private static final VarHandle LITTLE_ENDIAN_LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private SeededData() {}

  /** The {@code length} bytes of the file with {@code seed}, from offset 0. */
  public static byte[] bytes(long seed, int length) {
    byte[] b = new byte[length];
    fill(seed, 0, b, 0, length);
    return b;
  }

  /** Fills {@code dst[off, off+len)} with the bytes at file offset {@code position}. */
  public static void fill(long seed, long position, byte[] dst, int off, int len) {
    // One 8-byte word per 8 file bytes, each a hash of the seed and the word's index, so any
    // range can be produced without generating what precedes it. Whole words are stored eight
    // bytes at a time: the benchmark checks every byte it reads in the files' own time, on the
    // cores the cluster and clients share.
    long base = seed * 0x9E3779B97F4A7C15L;
    int i = 0;
    for (; i < len && ((position + i) & 7) != 0; i++) {
      dst[off + i] = byteAt(base, position + i);
    }
    for (; i + 8 <= len; i += 8) {
      LITTLE_ENDIAN_LONGS.set(dst, off + i, mix(base + ((position + i) >>> 3)));
    }
    for (; i < len; i++) {
      dst[off + i] = byteAt(base, position + i);
    }
  }

  /** The byte at file offset {@code pos}: byte {@code pos % 8} of its word, least first. */
  private static byte byteAt(long base, long pos) {
    return (byte) (mix(base + (pos >>> 3)) >>> ((pos & 7) * 8));
  }

  /** SplitMix64's finaliser: a fast bijective mix of 64 bits. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Writes {@code length} seeded bytes to {@code out} in chunks. */
  public static void write(OutputStream out, long seed, long length) throws IOException {
    write(out, seed, 0, length);
  }

  /** Writes the seeded bytes at file offsets [{@code from}, {@code to}) to {@code out}. */
  public static void write(OutputStream out, long seed, long from, long to) throws IOException {
    byte[] buf = new byte[CHUNK];
    for (long at = from; at < to; ) {
      int n = (int) Math.min(CHUNK, to - at);
      fill(seed, at, buf, 0, n);
      out.write(buf, 0, n);
      at += n;
    }
  }

  /** Creates {@code path} holding {@code length} seeded bytes. */
  public static void create(FileSystem fs, Path path, long seed, long length) throws IOException {
    try (FSDataOutputStream out = fs.create(path, true)) {
      write(out, seed, length);
    }
  }

  /**
   * Reads {@code in} to its end and checks it holds exactly the {@code length} seeded bytes.
   *
   * @throws IOException naming the first offset that differs, or the length found
   */
  public static void verify(InputStream in, long seed, long length, String what)
      throws IOException {
    byte[] got = new byte[CHUNK];
    byte[] want = new byte[CHUNK];
    long done = 0;
    while (true) {
      int n = in.read(got, 0, CHUNK);
      if (n < 0) {
        break;
      }
      if (done + n > length) {
        throw new IOException(what + ": longer than the " + length + " bytes written");
      }
      check(got, n, seed, done, want, what);
      done += n;
    }
    if (done != length) {
      throw new EOFException(what + ": read " + done + " bytes, wrote " + length);
    }
  }

  /**
   * Checks that {@code got[0, n)} holds the seeded bytes at file offset {@code position};
   * {@code scratch} (at least {@code n} long) is overwritten.
   *
   * @throws IOException naming the first offset that differs
   */
  public static void check(byte[] got, int n, long seed, long position, byte[] scratch,
      String what) throws IOException {
    fill(seed, position, scratch, 0, n);
    int i = Arrays.mismatch(got, 0, n, scratch, 0, n);
    if (i >= 0) {
      throw new IOException(what + ": byte " + (position + i) + " is " + got[i] + ", wrote "
          + scratch[i]);
    }
  }

  /** Opens {@code path} and verifies it; returns the bytes verified. */
  public static long verify(FileSystem fs, Path path, long seed, long length) throws IOException {
    try (InputStream in = fs.open(path)) {
      verify(in, seed, length, path.toString());
    }
    return length;
  }

  /**
   * How many bytes from the start of {@code path} are the seeded ones: up to the first that
   * differs, or as far as it can be read (0 if it cannot be opened).
   */
  public static long intactPrefix(FileSystem fs, Path path, long seed) {
    byte[] got = new byte[CHUNK];
    byte[] want = new byte[CHUNK];
    long at = 0;
    try (InputStream in = fs.open(path)) {
      for (int n; (n = in.read(got)) > 0; ) {
        fill(seed, at, want, 0, n);
        int i = Arrays.mismatch(got, 0, n, want, 0, n);
        if (i >= 0) {
          return at + i;
        }
        at += n;
      }
    } catch (IOException e) {
      // what was read before the failure is what is intact
    }
    return at;
  }

  /**
   * Writes {@code length} seeded bytes to {@code path} through {@code fs}, with one replica asked
   * for on each of {@code cluster}'s {@code favoured} DataNodes (the NameNode places the rest),
   * and waits until the NameNode knows every replica, so a reader finds them all.
   */
  public static Path writeOn(FaultyCluster cluster, DistributedFileSystem fs, Path path,
      long seed, long length, short replication, int... favoured) throws IOException {
    InetSocketAddress[] nodes = new InetSocketAddress[favoured.length];
    for (int i = 0; i < favoured.length; i++) {
      nodes[i] = cluster.address(favoured[i]);
    }
    try (FSDataOutputStream out = fs.create(path, FsPermission.getFileDefault(), true, 4096,
        replication, fs.getDefaultBlockSize(path), null, favoured.length == 0 ? null : nodes)) {
      SeededData.write(out, seed, length);
    }
    if (length > 0) {
      cluster.awaitReplicas(fs, path, replication);
    }
    return path;
  }
}
