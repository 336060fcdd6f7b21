package io.curtail.client.write.striped;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.Socket;
import java.util.EnumSet;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSOutputStream;
import org.apache.hadoop.hdfs.DFSStripedOutputStream;
import org.apache.hadoop.hdfs.StripedDataStreamer;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.datatransfer.BlockConstructionStage;
import org.apache.hadoop.util.DataChecksum;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stock's striped output stream for an erasure-coded file Curtail has just created, so that the
 * file is created once, and a narrow view of its internal streamers, so that one falling behind
 * can be let go: all of Curtail's reflection on stock's striped writer, in one place.
 *
 * <p>Why reflection. Whether a new file is erasure-coded is known only from the status its
 * {@code create} returns (a directory's policy is inherited, and asking for it first would cost
 * every create an RPC, which nearly always says "replicated"). Hadoop builds its striped stream
 * from that status through package-private members only: the stream's constructor, its
 * {@code start()} and {@code DFSClient.beginFileLease}, which registers it for lease renewal and
 * for closing with the client. The constructor and {@code start()} are the same in 3.3 and 3.4;
 * {@code beginFileLease} takes the file id in 3.3 and the stream's {@code getUniqKey()} in 3.4.
 * Likewise the stream's streamers, their sequence numbers and their socket are package-private
 * or private, the same in 3.3 and 3.4. Everything is looked up once, on first use.
 *
 * <p>When missing (a Hadoop that changed them): without the building members,
 * {@link #available()} is false and {@code WriteContext.create} completes the empty file it
 * created and the caller creates it again with the stock stream, as stock would have created it;
 * without the streamers' members, {@link #watchable()} is false and erasure-coded files are
 * written by stock's stream unwatched, exactly as stock writes them.
 */
public final class StripedStreams {
  private static final Logger LOG = LoggerFactory.getLogger(StripedStreams.class);
  private static final Members MEMBERS = Members.find();
  private static final StreamerMembers STREAMERS = StreamerMembers.find();

  private StripedStreams() {
  }

  /** Whether stock's striped stream can be built here from a create's status. */
  public static boolean available() {
    return MEMBERS != null;
  }

  /** Whether the streamers of stock's striped streams can be watched and let go here. */
  public static boolean watchable() {
    return STREAMERS != null;
  }

  /**
   * Stock's striped stream for {@code src}, just created as {@code stat} says, started and under
   * the client's lease renewal, as stock's {@code create} returns it.
   */
  public static DFSOutputStream start(DFSClient client, String src, HdfsFileStatus stat,
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

  /** The streamers of {@code out}, a stock striped stream; only where {@link #watchable()}. */
  static Streamers streamers(DFSStripedOutputStream out) {
    if (STREAMERS == null) {
      throw new IllegalStateException("stock's striped streamers cannot be watched here");
    }
    return new Streamers(out, STREAMERS);
  }

  /**
   * What one internal streamer was doing when {@link Streamers#read} looked: filled in place, as
   * it is read for every streamer of every watched stream on every tick.
   */
  static final class StreamerState {
    /** The streamer object: stock replaces a failed one with a new one for the next group. */
    Object streamer;
    /** Neither closed nor failed. */
    boolean healthy;
    /** Its pipeline to its DataNode is set up and carrying data. */
    boolean streaming;
    /** Whether it has an internal block yet; then its id (striped ids are negative). */
    boolean hasBlock;
    long blockId;
    /** Bytes of its internal block its DataNode acknowledged, and the writer gave it. */
    long ackedBytes;
    long bytesCurBlock;
    /** The sequence number of the last packet queued and of the last acknowledged. */
    long queuedSeqno;
    long ackedSeqno;
    /** Its DataNode; null before its pipeline is set up. */
    DatanodeInfo dataNode;
  }

  /**
   * A view of one stock striped stream's streamers. Reads take no lock of stock's: the sequence
   * numbers are plain fields written by the streamer's threads and read here as they are (a long
   * read is not torn on the 64-bit JVMs Hadoop runs on; at worst a value is a tick old).
   */
  static final class Streamers {
    private final DFSStripedOutputStream out;
    private final StreamerMembers m;

    private Streamers(DFSStripedOutputStream out, StreamerMembers m) {
      this.out = out;
      this.m = m;
    }

    /** Whether the stream is closed (or every streamer stopped), as stock judges it. */
    boolean closed() throws ReflectiveOperationException {
      return (Boolean) m.isClosed.invoke(out);
    }

    /** Reads streamer {@code index} into {@code s}. */
    void read(int index, StreamerState s) throws ReflectiveOperationException {
      Object streamer = m.streamer.invoke(out, index);
      s.streamer = streamer;
      // Acknowledged first: what is queued only grows, so queued is then never below acked.
      s.ackedSeqno = m.lastAckedSeqno.getLong(streamer);
      s.queuedSeqno = (Long) m.lastQueuedSeqno.invoke(streamer);
      s.healthy = (Boolean) m.isHealthy.invoke(streamer);
      ExtendedBlock b = (ExtendedBlock) m.block.invoke(streamer);
      s.hasBlock = b != null;
      s.blockId = b == null ? 0 : b.getBlockId();
      s.ackedBytes = b == null ? 0 : b.getNumBytes();
      s.bytesCurBlock = (Long) m.bytesCurBlock.invoke(streamer);
      DatanodeInfo[] nodes = (DatanodeInfo[]) m.nodes.invoke(streamer);
      s.dataNode = nodes == null || nodes.length == 0 ? null : nodes[0];
      s.streaming = s.dataNode != null
          && m.stage.invoke(streamer) == BlockConstructionStage.DATA_STREAMING;
    }

    /**
     * Lets {@code streamer} go as if its DataNode had failed: closes its connection, so that its
     * own threads meet the error and stock's error handling does the rest (the streamer stops,
     * the writer bumps the group's generation stamp on the others and completes the group
     * without it). Only while it is still healthy and writing internal block {@code blockId}: a
     * streamer that moved on to the next group is left alone. Returns whether it was let go.
     */
    boolean letGo(Object streamer, long blockId) throws ReflectiveOperationException {
      if (!(Boolean) m.isHealthy.invoke(streamer) || !writes(streamer, blockId)) {
        return false;
      }
      ExtendedBlock b = (ExtendedBlock) m.block.invoke(streamer);
      if (b == null || b.getNumBytes() >= (Long) m.bytesCurBlock.invoke(streamer)) {
        return false; // its data all acknowledged since the look: see WatchedStream
      }
      // A streamer sets its next block before it connects for it, so a socket read between two
      // reads of the same block id is that block's (or null between blocks).
      Socket socket = (Socket) m.socket.get(streamer);
      if (socket == null || !writes(streamer, blockId)) {
        return false;
      }
      try {
        socket.close();
      } catch (IOException e) {
        LOG.debug("Closing the connection of a streamer let go block={}", blockId, e);
      }
      return true;
    }

    private boolean writes(Object streamer, long blockId) throws ReflectiveOperationException {
      ExtendedBlock b = (ExtendedBlock) m.block.invoke(streamer);
      return b != null && b.getBlockId() == blockId;
    }
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

  /** The members that build the stream, as found in the Hadoop on the class path. */
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

  /**
   * The members that watch and let go a streamer: on {@code DFSStripedOutputStream},
   * {@code getStripedDataStreamer(int)} and {@code isClosed()}; on {@code StripedDataStreamer},
   * {@code isHealthy()}; on its superclass {@code DataStreamer} (package-private, so reached
   * through it), {@code getLastQueuedSeqno()}, {@code getBytesCurBlock()}, {@code getBlock()},
   * {@code getNodes()}, {@code getStage()} and the fields {@code lastAckedSeqno} and {@code s}
   * (its socket).
   * {@code HadoopClientLinkTest} checks each is in every Hadoop client Curtail supports.
   */
  private static final class StreamerMembers {
    final Method streamer;
    final Method isClosed;
    final Method isHealthy;
    final Method lastQueuedSeqno;
    final Method bytesCurBlock;
    final Method block;
    final Method nodes;
    final Method stage;
    final Field lastAckedSeqno;
    final Field socket;

    private StreamerMembers(Class<?> dataStreamer) throws ReflectiveOperationException {
      streamer = accessible(DFSStripedOutputStream.class.getDeclaredMethod(
          "getStripedDataStreamer", int.class));
      isClosed = accessible(DFSStripedOutputStream.class.getDeclaredMethod("isClosed"));
      isHealthy = accessible(StripedDataStreamer.class.getDeclaredMethod("isHealthy"));
      lastQueuedSeqno = accessible(dataStreamer.getDeclaredMethod("getLastQueuedSeqno"));
      bytesCurBlock = accessible(dataStreamer.getDeclaredMethod("getBytesCurBlock"));
      block = accessible(dataStreamer.getDeclaredMethod("getBlock"));
      nodes = accessible(dataStreamer.getDeclaredMethod("getNodes"));
      stage = accessible(dataStreamer.getDeclaredMethod("getStage"));
      lastAckedSeqno = dataStreamer.getDeclaredField("lastAckedSeqno");
      socket = dataStreamer.getDeclaredField("s");
      if (lastAckedSeqno.getType() != long.class || socket.getType() != Socket.class
          || lastQueuedSeqno.getReturnType() != long.class
          || bytesCurBlock.getReturnType() != long.class
          || block.getReturnType() != ExtendedBlock.class
          || nodes.getReturnType() != DatanodeInfo[].class) {
        throw new NoSuchFieldException("a streamer member of another type than expected");
      }
      lastAckedSeqno.setAccessible(true);
      socket.setAccessible(true);
    }

    private static Method accessible(Method m) {
      m.setAccessible(true);
      return m;
    }

    /** The members, or null with why logged when one is missing. */
    static StreamerMembers find() {
      try {
        return new StreamerMembers(StripedDataStreamer.class.getSuperclass());
      } catch (ReflectiveOperationException | RuntimeException e) {
        LOG.warn("Stock's striped streamers cannot be watched in this Hadoop; erasure-coded"
            + " files will be written by stock's striped stream as stock writes them, waiting"
            + " for a slow DataNode", e);
        return null;
      }
    }
  }
}
