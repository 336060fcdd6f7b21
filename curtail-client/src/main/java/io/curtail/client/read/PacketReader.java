package io.curtail.client.read;

import io.curtail.client.runtime.NanoClock;
import io.curtail.client.wire.ConnectionPool;
import io.curtail.client.wire.DataNodeLink;
import io.curtail.client.wire.PacketFormat;
import io.curtail.client.wire.PacketInput;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.SocketFactory;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.net.Peer;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.DataTransferProtoUtil;
import org.apache.hadoop.hdfs.protocol.datatransfer.Sender;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.ClientReadStatusProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.ReadOpChecksumInfoProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;
import org.apache.hadoop.util.DataChecksum;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a byte range of one block from one DataNode, a packet at a time, verifying every chunk's
 * checksum unless told not to: the wire half of Curtail's reader, built on Hadoop's
 * {@link Sender} and the connection's {@link PacketInput}. It owns its connection so that a hedge
 * that lost can be cut off at once with {@link #abort()} from another thread; Hadoop's own block
 * reader serialises {@code close} behind a blocked {@code read}, which would leave a thread
 * reading.
 *
 * <p>Connections come from, and go back to, the client's {@link ConnectionPool}: a reader that
 * delivered its whole range and told the DataNode so ({@link #finishRange}) gives its connection
 * back on {@link #close()}; one that failed or was aborted closes it. A pooled connection that
 * turns out stale (the DataNode closed it) is replaced by a fresh one, and says nothing of the
 * DataNode.
 *
 * <p>Not thread-safe, except {@link #abort()}: exactly one of {@code abort} and {@code close}
 * decides the connection's fate.
 */
final class PacketReader extends ReplicaReader {
  private static final Logger LOG = LoggerFactory.getLogger(PacketReader.class);

  /** Who decided what happens to the connection: nobody yet, the reader, or an abort. */
  private enum Fate { OPEN, RELEASED, ABORTED }

  private final DFSClient client;
  private final NanoClock clock;
  private final SocketFactory sockets;
  private final ConnectionPool pool;
  private final NetworkDistances distances;
  private final String file;
  private final LocatedBlock located;
  private final ExtendedBlock block;
  private final DatanodeInfo dataNode;
  private final long end;
  private final CachingStrategy caching;
  /**
   * Whether the DataNode sends checksums and this reader verifies them. Without, as stock's
   * reader does for a stream with verification off, the DataNode sends none (it reads no
   * checksum file) and the read ends with {@code SUCCESS}, not {@code CHECKSUM_OK}, which would
   * tell the DataNode that every chunk was checked.
   */
  private final boolean verifyChecksum;
  /** The network distance to the DataNode, worked out when first asked; -1 until then. */
  private int distance = -1;
  private final AtomicReference<Fate> fate = new AtomicReference<>(Fate.OPEN);
  /** Published as soon as they exist, so that {@link #abort()} can cut them from any thread. */
  private volatile Socket socket;
  private volatile Peer peer;
  /** The connection, once this reader has one. */
  private ConnectionPool.Connection conn;
  private DataChecksum checksum;
  private long position;
  private long lastSeqno = -1;
  /** When the read was asked of the DataNode; 0 until then. */
  private volatile long requestedNanos;
  private boolean finished;
  /** A read failed: the connection is in an unknown state and is never reused. */
  private boolean broken;

  private PacketReader(ReadContext ctx, DFSClient client, String file, LocatedBlock located,
      DatanodeInfo dataNode, long offset, long length, CachingStrategy caching,
      boolean verifyChecksum) {
    if (offset < 0 || length <= 0) {
      throw new IllegalArgumentException("need offset >= 0 and length > 0 to read "
          + located.getBlock() + ", got " + offset + " and " + length);
    }
    this.client = client;
    this.clock = ctx.clock;
    this.sockets = ctx.sockets;
    this.pool = ctx.connections;
    this.distances = ctx.distances;
    this.file = file;
    this.located = located;
    this.block = located.getBlock();
    this.dataNode = dataNode;
    this.position = offset;
    this.end = offset + length;
    this.caching = caching;
    this.verifyChecksum = verifyChecksum;
  }

  /**
   * A reader of {@code length} bytes of {@code block} from {@code offset} within it, not yet
   * connected (its first {@link #next()} connects): it can be aborted from now on, even while it
   * waits on the DataNode to connect or to answer (which it does once it opened the replica).
   * The DataNode reads the replica with {@code caching}'s readahead and drop-behind, and sends
   * checksums, which the reader verifies, if {@code verifyChecksum}.
   */
  static PacketReader create(ReadContext ctx, DFSClient client, String file, LocatedBlock block,
      DatanodeInfo dataNode, long offset, long length, CachingStrategy caching,
      boolean verifyChecksum) {
    return new PacketReader(ctx, client, file, block, dataNode, offset, length, caching,
        verifyChecksum);
  }

  /**
   * Asks the DataNode for the range and reads its answer, on a pooled connection if there is one,
   * else on a new one (TCP, then SASL where the cluster asks for it).
   */
  private void connect() throws IOException {
    if (fate.get() != Fate.OPEN) {
      throw new IOException("read of " + block + " from " + dataNode + " closed");
    }
    boolean ok = false;
    try {
      ConnectionPool.Connection pooled = pool.take(dataNode.getXferAddr());
      if (pooled != null) {
        use(pooled.socket, pooled.peer);
        conn = pooled;
        try {
          request();
          ok = true;
          return;
        } catch (NoAnswerException e) {
          LOG.debug("Pooled connection stale datanode={} reason={}", dataNode, e.getMessage());
          conn = null;
          pooled.close();
        }
      }
      Socket fresh = sockets.createSocket();
      use(fresh, null);
      Peer p = DataNodeLink.connect(fresh, client, located.getBlockToken(), dataNode,
          client.getConf().getSocketTimeout());
      use(fresh, p);
      conn = new ConnectionPool.Connection(fresh, p, dataNode.getXferAddr());
      request();
      ok = true;
    } catch (IOException e) {
      throw fate.get() == Fate.ABORTED
          ? new IOException("read of " + block + " from " + dataNode + " aborted", e) : e;
    } finally {
      if (!ok) {
        broken = true;
        close();
      }
    }
  }

  /** Takes {@code s} and {@code p} as this reader's connection, unless it was aborted already. */
  private void use(Socket s, Peer p) throws IOException {
    socket = s;
    peer = p;
    if (fate.get() == Fate.ABORTED) { // abort() may have missed them: cut them here
      closeQuietly(p, s);
      throw new IOException("read of " + block + " from " + dataNode + " aborted");
    }
  }

  /** Sends {@code READ_BLOCK} for the range and reads the DataNode's answer. */
  private void request() throws IOException {
    conn.peer.setReadTimeout(client.getConf().getSocketTimeout());
    BlockOpResponseProto response;
    try {
      requestedNanos = clock.nanoTime();
      new Sender(conn.out).readBlock(block, located.getBlockToken(), client.getClientName(),
          position, end - position, verifyChecksum, caching);
      conn.out.flush();
      response = DataNodeLink.answer(conn.in, "the answer to readBlock");
    } catch (IOException e) {
      throw new NoAnswerException(e); // no answer: the DataNode said nothing of the read
    }
    if (response.getStatus() != Status.SUCCESS) { // the message only then: a read's hot path
      DataTransferProtoUtil.checkBlockOpStatus(response,
          "reading " + block + " of " + file + " from " + dataNode);
    }
    ReadOpChecksumInfoProto info = response.getReadOpChecksumInfo();
    checksum = DataTransferProtoUtil.fromProto(info.getChecksum());
    long firstChunk = info.getChunkOffset();
    if (firstChunk > position || firstChunk < position - checksum.getBytesPerChecksum()) {
      throw new IOException(dataNode + " answered a read of " + block + " at " + position
          + " with a first chunk at " + firstChunk);
    }
  }

  /**
   * A request that got no answer at all: on a pooled connection, a sign the DataNode closed it
   * while it was idle, which says nothing of the read.
   */
  private static final class NoAnswerException extends IOException {
    NoAnswerException(IOException cause) {
      super(cause.toString(), cause);
    }
  }

  /**
   * The next bytes of the range, at {@link #position()} onwards: a slice of this reader's packet
   * buffer, valid until the next call. Null once the range is done. The first call connects
   * (see {@link #connect}).
   *
   * @throws org.apache.hadoop.fs.ChecksumException if the replica is corrupt
   * @throws IOException if the DataNode fails, answers out of protocol, or the reader was aborted
   */
  ByteBuffer next() throws IOException {
    if (conn == null) {
      connect(); // the first packet's time includes the connection and the DataNode's answer
    }
    boolean ok = false;
    try {
      ByteBuffer data = nextPacket();
      ok = true;
      return data;
    } finally {
      broken |= !ok;
    }
  }

  private ByteBuffer nextPacket() throws IOException {
    while (!finished) {
      PacketInput in = conn.packets;
      try {
        in.receive();
      } catch (IOException e) {
        throw fate.get() == Fate.ABORTED
            ? new IOException("read of " + block + " from " + dataNode + " aborted", e) : e;
      }
      PacketFormat.Header header = in.header();
      if (header.seqno() != lastSeqno + 1 || header.lastInBlock() && header.dataLen() != 0) {
        throw new IOException(dataNode + " sent a malformed packet for " + block + " after seqno "
            + lastSeqno + ": " + header);
      }
      lastSeqno = header.seqno();
      if (header.lastInBlock() || header.dataLen() == 0) {
        finish();
        break;
      }
      ByteBuffer data = in.data();
      if (verifyChecksum) {
        in.verify(checksum, file, header.offsetInBlock());
      }
      long packetStart = header.offsetInBlock();
      long packetEnd = packetStart + header.dataLen();
      if (packetStart > position || packetEnd <= position) {
        throw new IOException(dataNode + " sent bytes [" + packetStart + ", " + packetEnd
            + ") of " + block + " when the next needed is " + position);
      }
      data.position(data.position() + (int) (position - packetStart));
      data.limit(data.limit() - (int) Math.max(0, packetEnd - end));
      position += data.remaining();
      return data;
    }
    return null;
  }

  /**
   * After the range's last byte was delivered: reads the DataNode's trailing empty packet, waiting
   * at most {@code timeoutMs}, and tells the DataNode the read went well, so that the connection
   * can serve another read. Returns whether it could; if not, the connection is only closed (the
   * data delivered stands).
   */
  boolean finishRange(int timeoutMs) {
    if (!finished && !broken && position == end) {
      try {
        conn.peer.setReadTimeout(Math.max(1, timeoutMs));
        if (next() != null) {
          broken = true; // more data than asked for: not a connection to trust again
        }
      } catch (IOException e) {
        LOG.debug("No trailing packet datanode={} block={} reason={}", dataNode, block,
            e.toString());
      }
    }
    return finished && !broken;
  }

  /**
   * How long ago the read was asked of the DataNode, {@code fallback} ago if it was not yet: the
   * DataNode's part of a start (opening the replica, the first packet), without the connection,
   * whose cost depends on whether a pooled one was at hand, not on the DataNode.
   */
  long sinceRequest(long nowNanos, long fallbackNanos) {
    long at = requestedNanos;
    return at == 0 ? fallbackNanos : nowNanos - at;
  }

  /** Whether this reader has connected: its next packet is not the read's first. */
  boolean connected() {
    return conn != null;
  }

  /** Offset in the block of the next byte {@link #next()} returns. */
  long position() {
    return position;
  }

  DatanodeInfo dataNode() {
    return dataNode;
  }

  /**
   * The network distance from this client to the DataNode, as stock's block readers count it for
   * the file system's statistics: 0 on the same host, 2 in the same rack, and so on.
   */
  int networkDistance() {
    if (distance < 0) {
      distance = distances.of(client, dataNode);
    }
    return distance;
  }

  /**
   * Cuts the connection, from any thread; a {@link #connect} or {@link #next} fails at once. Does
   * nothing once the reader closed.
   */
  @Override
  public void abort() {
    if (!fate.compareAndSet(Fate.OPEN, Fate.ABORTED)) {
      return;
    }
    Socket s = socket;
    if (s != null) {
      try {
        // Closing alone does not wake a reader parked in a selector (Hadoop's socket streams are
        // NIO) until data or the timeout comes; shutting input down does, with an end of stream.
        s.shutdownInput();
      } catch (IOException notConnectedOrClosed) {
        // nothing to wake
      }
    }
    // The socket only: closing the peer here would dispose an encrypted peer's SASL context
    // under a thread still reading through it, which then fails with an IllegalStateException
    // rather than the IOException a cut connection gives. The owner's close() closes the peer.
    closeQuietly(null, s);
  }

  private void finish() throws IOException {
    finished = true;
    // Tells the DataNode the read went well, as stock clients do: it then waits for another
    // operation on this connection instead of closing it.
    ClientReadStatusProto.newBuilder()
        .setStatus(verifyChecksum ? Status.CHECKSUM_OK : Status.SUCCESS).build()
        .writeDelimitedTo(conn.out);
    conn.out.flush();
  }

  /**
   * Gives the connection back to the pool if the whole range was read and acknowledged
   * ({@link #finishRange}), else closes it; after an abort, closes the peer abort() left.
   */
  @Override
  public void close() {
    if (!fate.compareAndSet(Fate.OPEN, Fate.RELEASED)) {
      if (fate.get() == Fate.ABORTED) {
        closeConnection(); // what abort() left: nobody reads through it now
      }
      return;
    }
    if (finished && !broken) {
      pool.give(conn);
    } else {
      closeConnection();
    }
  }

  private void closeConnection() {
    if (conn != null) {
      conn.close();
    } else {
      closeQuietly(peer, socket);
    }
  }

  private static void closeQuietly(Peer p, Socket s) {
    try {
      if (p != null) {
        p.close();
      }
    } catch (IOException | RuntimeException ignored) {
      // closing
    }
    try {
      if (s != null) {
        s.close();
      }
    } catch (IOException ignored) {
      // closing
    }
  }

  @Override
  public String toString() {
    return "PacketReader{" + block + "@" + dataNode + ", position=" + position + ", end=" + end
        + '}';
  }
}
