package io.curtail.client.stats;

import io.curtail.client.stream.CurtailDataInputStream;
import io.curtail.client.stream.CurtailDataOutputStream;
import io.curtail.client.stream.HdfsInput;
import io.curtail.client.stream.HdfsOutput;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;

/**
 * The streams a file system with statistics on hands out, each ending its file's record
 * ({@link StatsLog#file}) when closed: the whole file as the application waited for it, which
 * compares alike across cohorts whatever their streams time per block. Nothing is added to a read
 * or a write: the record is made on opening and ended on close. They are the HDFS stream types,
 * as stock's are, so applications that test for those keep what they offer.
 */
public final class RecordedStreams {
  private RecordedStreams() {
  }

  /**
   * {@code in}, in an {@link HdfsDataInputStream} that on close ends {@code record} with the
   * bytes {@code bytesRead} says were read.
   *
   * @param opened the stock stream the file was opened with (see {@link CurtailDataInputStream})
   * @param reading what reads: {@code in}, or a crypto stream around it
   */
  public static <R extends InputStream & Seekable & PositionedReadable> HdfsDataInputStream input(
      DFSInputStream opened, R reading, HdfsInput in, LongSupplier bytesRead,
      BlockRecord record) {
    return new CurtailDataInputStream(opened, reading, in) {
      private boolean recorded;

      @Override
      public void close() throws IOException {
        try {
          super.close();
        } finally {
          synchronized (this) {
            if (!recorded) {
              recorded = true;
              record.done(bytesRead.getAsLong(), System.nanoTime());
            }
          }
        }
      }
    };
  }

  /**
   * {@code out}, in an {@link HdfsDataOutputStream} at {@code startPosition} counting bytes in
   * {@code statistics} (null: counted already), that on close ends {@code record} with the bytes
   * written through it; a close that fails marks it failed.
   *
   * @param wrapped what bytes are written to: {@code out}, or a crypto stream around it
   */
  public static <S extends OutputStream & HdfsOutput> HdfsDataOutputStream output(
      OutputStream wrapped, S out, FileSystem.Statistics statistics, long startPosition,
      BlockRecord record) throws IOException {
    return new CurtailDataOutputStream(wrapped, out, statistics, startPosition) {
      private boolean recorded;

      @Override
      public void close() throws IOException {
        boolean ok = false;
        try {
          super.close();
          ok = true;
        } finally {
          synchronized (this) {
            if (!recorded) {
              recorded = true;
              if (!ok) {
                record.failed("close failed");
              }
              record.done(getPos() - startPosition, System.nanoTime());
            }
          }
        }
      }
    };
  }
}
