package io.curtail.client.write;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.EnumSet;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSOutputStream;
import org.apache.hadoop.hdfs.DFSStripedOutputStream;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.util.DataChecksum;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stock's striped output stream for an erasure-coded file Curtail has just created, so that the
 * file is created once: all of Curtail's reflection on stock's writer, in one place.
 *
 * <p>Why reflection. Whether a new file is erasure-coded is known only from the status its
 * {@code create} returns (a directory's policy is inherited, and asking for it first would cost
 * every create an RPC, which nearly always says "replicated"). Hadoop builds its striped stream
 * from that status through package-private members only: the stream's constructor, its
 * {@code start()} and {@code DFSClient.beginFileLease}, which registers it for lease renewal and
 * for closing with the client. The constructor and {@code start()} are the same in 3.3 and 3.4;
 * {@code beginFileLease} takes the file id in 3.3 and the stream's {@code getUniqKey()} in 3.4.
 * They are looked up once, on first use.
 *
 * <p>When missing (a Hadoop that changed them), {@link #available()} is false and
 * {@link WriteContext#create} does what it did before this class: it completes the empty file it
 * created and the caller creates it again with the stock stream, as stock would have created it.
 */
final class StripedStreams {
  private static final Logger LOG = LoggerFactory.getLogger(StripedStreams.class);
  private static final Members MEMBERS = Members.find();

  private StripedStreams() {
  }

  /** Whether stock's striped stream can be built here from a create's status. */
  static boolean available() {
    return MEMBERS != null;
  }

  /**
   * Stock's striped stream for {@code src}, just created as {@code stat} says, started and under
   * the client's lease renewal, as stock's {@code create} returns it.
   */
  static DFSOutputStream start(DFSClient client, String src, HdfsFileStatus stat,
      EnumSet<CreateFlag> flags, Progressable progress, DataChecksum checksum,
      String[] favoredNodes) throws IOException {
    Members m = MEMBERS;
    if (m == null) {
      throw new IllegalStateException("stock's striped stream cannot be built here");
    }
    DFSOutputStream out = (DFSOutputStream) invoke(() -> m.constructor.newInstance(client, src,
        stat, flags, progress, checksum, favoredNodes));
    invoke(() -> m.start.invoke(out));
    Object key = m.uniqKey != null ? invoke(() -> m.uniqKey.invoke(out)) : out.getFileId();
    invoke(() -> m.beginFileLease.invoke(client, key, out));
    return out;
  }

  /** A reflective call. */
  @FunctionalInterface
  private interface Call {
    Object run() throws ReflectiveOperationException;
  }

  /** Runs {@code call}, rethrowing what the member threw as it was thrown. */
  private static Object invoke(Call call) throws IOException {
    try {
      return call.run();
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new IOException("stock's striped stream failed", cause);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("stock's striped stream's members, found on start-up,"
          + " could not be used", e);
    }
  }

  /** The members used, as found in the Hadoop on the class path. */
  private static final class Members {
    final Constructor<? extends DFSOutputStream> constructor;
    final Method start;
    final Method beginFileLease;
    /** {@code getUniqKey()}, the lease key of 3.4; null where the file id is the key (3.3). */
    final Method uniqKey;

    private Members(Constructor<? extends DFSOutputStream> constructor, Method start,
        Method beginFileLease, Method uniqKey) {
      this.constructor = constructor;
      this.start = start;
      this.beginFileLease = beginFileLease;
      this.uniqKey = uniqKey;
    }

    /** The members, or null with why logged when one is missing. */
    static Members find() {
      try {
        Constructor<DFSStripedOutputStream> c = DFSStripedOutputStream.class
            .getDeclaredConstructor(DFSClient.class, String.class, HdfsFileStatus.class,
                EnumSet.class, Progressable.class, DataChecksum.class, String[].class);
        Method start = DFSOutputStream.class.getDeclaredMethod("start");
        Method uniqKey = null;
        Method lease;
        try {
          uniqKey = DFSOutputStream.class.getMethod("getUniqKey");
          lease = DFSClient.class.getDeclaredMethod("beginFileLease", String.class,
              DFSOutputStream.class);
        } catch (NoSuchMethodException e) {
          uniqKey = null;
          lease = DFSClient.class.getDeclaredMethod("beginFileLease", long.class,
              DFSOutputStream.class);
        }
        c.setAccessible(true);
        start.setAccessible(true);
        lease.setAccessible(true);
        return new Members(c, start, lease, uniqKey);
      } catch (ReflectiveOperationException | RuntimeException e) {
        LOG.warn("Stock's striped output stream cannot be built from a create's status in this"
            + " Hadoop; creates of erasure-coded files will complete the new empty file and"
            + " create it again with the stock stream", e);
        return null;
      }
    }
  }
}
