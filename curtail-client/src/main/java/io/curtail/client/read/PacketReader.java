package io.curtail.client.read;

import io.curtail.client.wire.Abortable;
import io.curtail.client.wire.DataNodeLink;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import javax.net.SocketFactory;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.net.Peer;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.DataTransferProtoUtil;
import org.apache.hadoop.hdfs.protocol.datatransfer.PacketHeader;
import org.apache.hadoop.hdfs.protocol.datatransfer.PacketReceiver;
import org.apache.hadoop.hdfs.protocol.datatransfer.Sender;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.ClientReadStatusProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.ReadOpChecksumInfoProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;
import org.apache.hadoop.util.DataChecksum;

/**
 * Reads a byte range of one block from one DataNode, a packet at a time, verifying every chunk's
 * checksum: the wire half of Curtail's reader, built on Hadoop's {@link Sender} and
 * {@link PacketReceiver}. It owns its socket so that a hedge that lost can be cut off at once
 * with {@link #abort()} from another thread; Hadoop's own block reader serialises {@code close}
 * behind a blocked {@code read}, which would leave a thread reading.
 *
 * <p>Not thread-safe, except {@link #abort()}. Connections are not pooled: a reader is opened
 * once per block range, not per packet.
 */
final class PacketReader implements Closeable, Abortable {
  private final DFSClient client;
  private final String file;
  private final LocatedBlock located;
  private final ExtendedBlock block;
  private final DatanodeInfo dataNode;
  private final Socket socket;
  private final PacketReceiver receiver = new PacketReceiver(false);
  private final long end;
  private Peer peer;
  private InputStream in;
  private DataOutputStream out;
  private DataChecksum checksum;
  private long position;
  private long lastSeqno = -1;
  private boolean finished;
  private volatile boolean aborted;

  private PacketReader(DFSClient client, String file, LocatedBlock located, DatanodeInfo dataNode,
      Socket socket, long offset, long length) {
    if (offset < 0 || length <= 0) {
      throw new IllegalArgumentException("need offset >= 0 and length > 0 to read "
          + located.getBlock() + ", got " + offset + " and " + length);
    }
    this.client = client;
    this.file = file;
    this.located = located;
    this.block = located.getBlock();
    this.dataNode = dataNode;
    this.socket = socket;
    this.position = offset;
    this.end = offset + length;
  }

  /**
   * A reader of {@code length} bytes of {@code block} from {@code offset} within it, not yet
   * connected: it can be aborted from now on, even while {@link #connect()} waits on the
   * DataNode (which answers a read only once it has opened the replica).
   */
  static PacketReader create(SocketFactory sockets, DFSClient client, String file,
      LocatedBlock block, DatanodeInfo dataNode, long offset, long length) throws IOException {
    return new PacketReader(client, file, block, dataNode, sockets.createSocket(), offset, length);
  }

  /** {@link #create} and {@link #connect}, for a reader no other thread needs to abort early. */
  static PacketReader open(SocketFactory sockets, DFSClient client, String file,
      LocatedBlock block, DatanodeInfo dataNode, long offset, long length) throws IOException {
    PacketReader r = create(sockets, client, file, block, dataNode, offset, length);
    r.connect();
    return r;
  }

  /**
   * Connects to the DataNode (with SASL where the cluster asks for it), asks for the range and
   * reads the DataNode's answer.
   */
  void connect() throws IOException {
    boolean ok = false;
    try {
      peer = DataNodeLink.connect(socket, client, located.getBlockToken(), dataNode,
          client.getConf().getSocketTimeout());
      in = peer.getInputStream();
      out = new DataOutputStream(new BufferedOutputStream(peer.getOutputStream()));
      long offset = position;
      new Sender(out).readBlock(block, located.getBlockToken(), client.getClientName(), offset,
          end - offset, true, CachingStrategy.newDefaultStrategy());
      out.flush();
      BlockOpResponseProto response =
          DataNodeLink.response(in, "reading " + block + " of " + file + " from " + dataNode);
      ReadOpChecksumInfoProto info = response.getReadOpChecksumInfo();
      checksum = DataTransferProtoUtil.fromProto(info.getChecksum());
      long firstChunk = info.getChunkOffset();
      if (firstChunk > offset || firstChunk < offset - checksum.getBytesPerChecksum()) {
        throw new IOException(dataNode + " answered a read of " + block + " at " + offset
            + " with a first chunk at " + firstChunk);
      }
      ok = true;
    } catch (IOException e) {
      throw aborted ? new IOException("read of " + block + " from " + dataNode + " aborted", e)
          : e;
    } finally {
      if (!ok) {
        close();
      }
    }
  }

  /**
   * The next bytes of the range, at {@link #position()} onwards: a slice of this reader's packet
   * buffer, valid until the next call. Null once the range is done.
   *
   * @throws org.apache.hadoop.fs.ChecksumException if the replica is corrupt
   * @throws IOException if the DataNode fails, answers out of protocol, or the reader was aborted
   */
  ByteBuffer next() throws IOException {
    while (!finished) {
      try {
        receiver.receiveNextPacket(in);
      } catch (IOException e) {
        throw aborted ? new IOException("read of " + block + " from " + dataNode + " aborted", e)
            : e;
      }
      PacketHeader header = receiver.getHeader();
      if (!header.sanityCheck(lastSeqno)) {
        throw new IOException(dataNode + " sent a malformed packet for " + block + ": " + header);
      }
      lastSeqno = header.getSeqno();
      if (header.isLastPacketInBlock() || header.getDataLen() == 0) {
        finish();
        break;
      }
      ByteBuffer data = receiver.getDataSlice();
      checksum.verifyChunkedSums(data, receiver.getChecksumSlice(), file,
          header.getOffsetInBlock());
      long packetStart = header.getOffsetInBlock();
      long packetEnd = packetStart + header.getDataLen();
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

  /** Offset in the block of the next byte {@link #next()} returns. */
  long position() {
    return position;
  }

  DatanodeInfo dataNode() {
    return dataNode;
  }

  /** Cuts the connection, from any thread; a {@link #connect} or {@link #next} fails at once. */
  @Override
  public void abort() {
    aborted = true;
    try {
      // Closing alone does not wake a reader parked in a selector (Hadoop's socket streams are
      // NIO) until data or the timeout comes; shutting input down does, with an end of stream.
      socket.shutdownInput();
    } catch (IOException notConnectedOrClosed) {
      // nothing to wake
    }
    try {
      Peer p = peer;
      if (p != null) {
        p.close();
      }
      socket.close();
    } catch (IOException ignored) {
      // closing a socket that fails to close leaves nothing to undo
    }
  }

  private void finish() throws IOException {
    finished = true;
    // Tells the DataNode the read went well, as stock clients do; it may then log less.
    ClientReadStatusProto.newBuilder().setStatus(Status.CHECKSUM_OK).build().writeDelimitedTo(out);
    out.flush();
  }

  @Override
  public void close() {
    receiver.close();
    abort();
  }

  @Override
  public String toString() {
    return "PacketReader{" + block + "@" + dataNode + ", position=" + position + ", end=" + end
        + '}';
  }
}
