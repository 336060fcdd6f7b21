package io.curtail.client.stats;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;

/**
 * The streams a file system with statistics on hands out, each ending its file's record
 * ({@link StatsLog#file}) when closed: the whole file as the application waited for it, which
 * compares alike across cohorts whatever their streams time per block. Nothing is added to a read
 * or a write: the record is made on opening and ended on close.
 */
public final class RecordedStreams {
  private RecordedStreams() {
  }

  /**
   * {@code in}, in a plain {@link FSDataInputStream} that on close ends {@code record} with the
   * bytes {@code bytesRead} says were read.
   */
  public static FSDataInputStream input(InputStream in, LongSupplier bytesRead,
      BlockRecord record) {
    return new FSDataInputStream(in) {
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
   * {@code out}, in a plain {@link FSDataOutputStream} at {@code startPosition} counting bytes in
   * {@code statistics} (null: counted already), that on close ends {@code record} with the bytes
   * written through it; a close that fails marks it failed.
   */
  public static FSDataOutputStream output(OutputStream out, FileSystem.Statistics statistics,
      long startPosition, BlockRecord record) throws IOException {
    return new FSDataOutputStream(out, statistics, startPosition) {
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
