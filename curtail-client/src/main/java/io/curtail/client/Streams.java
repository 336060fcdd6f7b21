package io.curtail.client;

import io.curtail.client.read.CurtailInputStream;
import io.curtail.client.stats.MeasuredInputStream;
import io.curtail.client.stats.MeasuredOutputStream;
import io.curtail.client.stats.RecordedStreams;
import io.curtail.client.stats.StatsLog;
import io.curtail.client.stream.CurtailDataInputStream;
import io.curtail.client.stream.CurtailDataOutputStream;
import io.curtail.client.stream.Encryption;
import io.curtail.client.write.CurtailOutputStream;
import io.curtail.client.write.WriteContext;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoInputStream;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileEncryptionInfo;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options.ChecksumOpt;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DFSOutputStream;
import org.apache.hadoop.hdfs.DFSStripedInputStream;
import org.apache.hadoop.hdfs.DFSStripedOutputStream;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.util.Progressable;

/**
 * The streams a {@link CurtailDistributedFileSystem} hands out, Curtail's and stock's alike, and
 * which a create gets (made once, whatever the file): of
 * the HDFS types ({@link HdfsDataInputStream}, {@link HdfsDataOutputStream}) as stock's are, so
 * applications that test for them keep what they offer; encrypting and decrypting in encryption
 * zones; and with
 * statistics on, ending each file's record on close, stock's streams timed per block.
 */
final class Streams {
  private final DFSClient client;
  private final Configuration conf;
  private final FileSystem.Statistics statistics;
  /** Where per-file and per-block records go; null with statistics off. */
  private final StatsLog stats;

  Streams(DFSClient client, Configuration conf, FileSystem.Statistics statistics,
      StatsLog stats) {
    this.client = client;
    this.conf = conf;
    this.statistics = statistics;
    this.stats = stats;
  }

  /** The stock create to fall back on, with the flags to create with. */
  @FunctionalInterface
  interface StockCreate {
    FSDataOutputStream create(EnumSet<CreateFlag> flags) throws IOException;
  }

  /**
   * Creates {@code src} at the NameNode once and returns its stream, an
   * {@link HdfsDataOutputStream} as stock's is: Curtail's, encrypting for a file in an encryption
   * zone; stock's striped one for an erasure-coded file. Only where this Hadoop does not let
   * Curtail build stock's striped stream is the new, empty file completed and created again by
   * {@code stock}, replacing it.
   */
  FSDataOutputStream createOnce(WriteContext writes, String src, FsPermission permission,
      EnumSet<CreateFlag> flags, boolean createParent, short replication, long blockSize,
      Progressable progress, ChecksumOpt checksumOpt, InetSocketAddress[] favoredNodes,
      long opened, StockCreate stock) throws IOException {
    HdfsFileStatus stat =
        writes.createFile(src, permission, flags, createParent, replication, blockSize);
    if (stat.getErasureCodingPolicy() != null) {
      DFSOutputStream striped =
          writes.striped(src, stat, flags, progress, checksumOpt, favoredNodes);
      if (striped == null) {
        EnumSet<CreateFlag> again = EnumSet.copyOf(flags);
        again.add(CreateFlag.OVERWRITE);
        return stock.create(again);
      }
      return striped(striped);
    }
    CurtailOutputStream out =
        writes.stream(src, stat, flags, progress, checksumOpt, favoredNodes);
    return curtail(out, stat.getFileEncryptionInfo(), src, 0, opened);
  }

  /**
   * Curtail's input stream of {@code src}, opened with the stock stream {@code metadata}:
   * decrypting for a file in an encryption zone, as stock wraps its own.
   */
  HdfsDataInputStream curtail(DFSInputStream metadata, CurtailInputStream in, String src,
      long openedNanos) throws IOException {
    FileEncryptionInfo encryption = metadata.getFileEncryptionInfo();
    if (encryption == null) {
      return stats == null ? new CurtailDataInputStream(metadata, in)
          : RecordedStreams.input(metadata, in, in, in::bytesRead,
              stats.file(false, "curtail", src, openedNanos));
    }
    CryptoInputStream decrypting = Encryption.decrypting(client, conf, encryption, in);
    return stats == null ? new CurtailDataInputStream(metadata, decrypting, in)
        : RecordedStreams.input(metadata, decrypting, in, in::bytesRead,
            stats.file(false, "curtail", src, openedNanos));
  }

  /**
   * A stock input stream, timed per block when statistics are on ({@link MeasuredInputStream}).
   * Erasure-coded and encrypted files keep stock's stream untimed.
   */
  FSDataInputStream stock(FSDataInputStream in, String src, long openedNanos) {
    if (stats == null || !(in.getWrappedStream() instanceof DFSInputStream)
        || in.getWrappedStream() instanceof DFSStripedInputStream) {
      return in;
    }
    DFSInputStream stock = (DFSInputStream) in.getWrappedStream();
    MeasuredInputStream measured = new MeasuredInputStream(stock, stats, src);
    return RecordedStreams.input(stock, measured, measured, measured::bytesRead,
        stats.file(false, "stock", src, openedNanos));
  }

  /**
   * A stock output stream, timed per block when statistics are on
   * ({@link MeasuredOutputStream}). Erasure-coded files keep stock's stream untimed.
   */
  FSDataOutputStream stock(FSDataOutputStream out, String src, long blockSize, long openedNanos)
      throws IOException {
    if (stats == null || out.getWrappedStream() instanceof DFSStripedOutputStream
        || !(out instanceof HdfsDataOutputStream)) {
      return out;
    }
    // The stock stream counts the bytes in this file system's statistics already.
    MeasuredOutputStream measured =
        new MeasuredOutputStream((HdfsDataOutputStream) out, client, stats, src, blockSize);
    return RecordedStreams.output(measured, measured, null, out.getPos(),
        stats.file(true, "stock", src, openedNanos));
  }

  /**
   * Curtail's output stream, encrypting with {@code encryption} (null: a file outside encryption
   * zones). Closed if encrypting fails, as stock closes its stream then.
   */
  HdfsDataOutputStream curtail(CurtailOutputStream out, FileEncryptionInfo encryption,
      String src, long startPosition, long openedNanos) throws IOException {
    OutputStream wrapped = out;
    if (encryption != null) {
      try {
        wrapped = Encryption.encrypting(client, conf, encryption, out, startPosition);
      } catch (IOException | RuntimeException e) {
        closeAfter(out, e);
        throw e;
      }
    }
    return stats == null ? new CurtailDataOutputStream(wrapped, out, statistics, startPosition)
        : RecordedStreams.output(wrapped, out, statistics, startPosition,
            stats.file(true, "curtail", src, openedNanos));
  }

  /**
   * Stock's striped stream of a file Curtail created, as stock wraps it (a crypto stream in an
   * encryption zone); closed if that fails.
   */
  HdfsDataOutputStream striped(DFSOutputStream out) throws IOException {
    try {
      return client.createWrappedOutputStream(out, statistics);
    } catch (IOException | RuntimeException e) {
      closeAfter(out, e);
      throw e;
    }
  }

  private static void closeAfter(Closeable c, Exception failure) {
    try {
      c.close();
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e);
    }
  }
}
