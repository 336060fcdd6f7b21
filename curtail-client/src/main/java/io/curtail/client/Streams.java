package io.curtail.client;

import io.curtail.client.read.CurtailInputStream;
import io.curtail.client.stats.MeasuredInputStream;
import io.curtail.client.stats.MeasuredOutputStream;
import io.curtail.client.stats.RecordedStreams;
import io.curtail.client.stats.StatsLog;
import io.curtail.client.stream.CurtailDataInputStream;
import io.curtail.client.stream.CurtailDataOutputStream;
import io.curtail.client.write.CurtailOutputStream;
import io.curtail.client.write.Encryption;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileEncryptionInfo;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DFSOutputStream;
import org.apache.hadoop.hdfs.DFSStripedInputStream;
import org.apache.hadoop.hdfs.DFSStripedOutputStream;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;

/**
 * The streams a {@link CurtailDistributedFileSystem} hands out, Curtail's and stock's alike: of
 * the HDFS types ({@link HdfsDataInputStream}, {@link HdfsDataOutputStream}) as stock's are, so
 * applications that test for them keep what they offer; encrypting in encryption zones; and with
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

  /** Curtail's input stream of {@code src}, opened with the stock stream {@code metadata}. */
  HdfsDataInputStream curtail(DFSInputStream metadata, CurtailInputStream in, String src,
      long openedNanos) {
    return stats == null ? new CurtailDataInputStream(metadata, in)
        : RecordedStreams.input(metadata, in, in::bytesRead,
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
    return RecordedStreams.input(stock, measured, measured::bytesRead,
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
