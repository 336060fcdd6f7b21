package io.curtail.client.write;

import io.curtail.client.wire.Abortable;
import io.curtail.client.wire.DataNodeLink;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import javax.net.SocketFactory;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.net.Peer;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.BlockConstructionStage;
import org.apache.hadoop.hdfs.protocol.datatransfer.PipelineAck;
import org.apache.hadoop.hdfs.protocol.datatransfer.Sender;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.DataChecksum;

/**
 * The wire half of writing one block: a connection to the first DataNode of a pipeline, which
 * forwards to the others. {@link #open} sends Hadoop's {@code WRITE_BLOCK} request and reads the
 * DataNodes' answer; then packets go down with {@link #send} and acks come back with
 * {@link #readAck}. One thread sends and one reads acks; {@link #abort} works from any thread.
 */
final class Pipeline implements Closeable, Abortable {
  /** The most bytes a message's length prefix takes. */
  private static final int MAX_VARINT_BYTES = 5;
  /**
   * Asks {@code source} to copy its replica of {@code block} (as far as it has acknowledged it) to
   * the one DataNode in {@code target}: how a replacement DataNode catches up with a pipeline.
   * Fails if the copy takes longer than {@code timeoutMs}.
   */
  static void transfer(SocketFactory sockets, DFSClient client, DatanodeInfo source,
      ExtendedBlock block, Token<BlockTokenIdentifier> token, Targets target, int timeoutMs)
      throws IOException {
    Socket socket = sockets.createSocket();
    Peer peer;
    try {
      peer = DataNodeLink.connect(socket, client, token, source, timeoutMs);
    } catch (IOException e) {
      socket.close();
      throw new SourceUnreachableException("cannot reach " + source + ": " + e, e);
    }
    try (Socket s = socket; Peer p = peer) {
      peer.setWriteTimeout(timeoutMs);
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(peer.getOutputStream()));
      new Sender(out).transferBlock(block, token, client.getClientName(), target.nodes,
          target.storageTypes, target.storageIds);
      out.flush();
      DataNodeLink.response(peer.getInputStream(),
          "copying " + block + " from " + source + " to " + target);
    }
  }

  /** The replica a rebuild was to copy from could not be reached. */
  static final class SourceUnreachableException extends IOException {
    SourceUnreachableException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** A pipeline that could not be set up, and which of its DataNodes was to blame. */
  static final class SetupException extends IOException {
    final int badIndex;

    SetupException(String message, int badIndex, Throwable cause) {
      super(message, cause);
      this.badIndex = badIndex;
    }
  }

  /** Where a block's replicas are written: DataNodes in pipeline order, with their storages. */
  static final class Targets {
    final DatanodeInfo[] nodes;
    final StorageType[] storageTypes;
    final String[] storageIds;

    Targets(DatanodeInfo[] nodes, StorageType[] storageTypes, String[] storageIds) {
      if (nodes.length == 0 || storageTypes.length != nodes.length
          || storageIds.length != nodes.length) {
        throw new IllegalArgumentException("need one storage type and id per DataNode, got "
            + Arrays.toString(nodes) + ", " + Arrays.toString(storageTypes) + ", "
            + Arrays.toString(storageIds));
      }
      this.nodes = nodes;
      this.storageTypes = storageTypes;
      this.storageIds = storageIds;
    }

    /** Where the NameNode placed {@code located}'s replicas. */
    static Targets of(LocatedBlock located) {
      return new Targets(located.getLocations(), located.getStorageTypes(),
          located.getStorageIDs());
    }

    int size() {
      return nodes.length;
    }

    /** These targets without the one at {@code index}. */
    Targets without(int index) {
      return new Targets(drop(nodes, index, new DatanodeInfo[nodes.length - 1]),
          drop(storageTypes, index, new StorageType[nodes.length - 1]),
          drop(storageIds, index, new String[nodes.length - 1]));
    }

    private static <T> T[] drop(T[] from, int index, T[] to) {
      System.arraycopy(from, 0, to, 0, index);
      System.arraycopy(from, index + 1, to, index, from.length - index - 1);
      return to;
    }

    /** Position of the DataNode whose transfer address is {@code xferAddr}; -1 if none. */
    int indexOf(String xferAddr) {
      for (int i = 0; i < nodes.length; i++) {
        if (nodes[i].getXferAddr().equals(xferAddr)) {
          return i;
        }
      }
      return -1;
    }

    /** The DataNodes' transfer addresses, in order. */
    String[] addresses() {
      String[] out = new String[nodes.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = nodes[i].getXferAddr();
      }
      return out;
    }

    /**
     * Which DataNodes pin their replica: those among {@code favoredNodes} (null for none), as
     * stock clients do.
     */
    boolean[] pinned(String[] favoredNodes) {
      boolean[] pinned = new boolean[nodes.length];
      if (favoredNodes != null) {
        List<String> favored = Arrays.asList(favoredNodes);
        for (int i = 0; i < pinned.length; i++) {
          pinned[i] = favored.contains(nodes[i].getXferAddrWithHostname());
        }
      }
      return pinned;
    }

    @Override
    public String toString() {
      return Arrays.toString(nodes);
    }
  }

  final Targets targets;
  private final Socket socket;
  private final DataOutputStream out;
  private final InputStream in;
  private final Peer peer;
  private final PipelineAck ack = new PipelineAck();
  /** Names this pipeline's acks in an error, made into words only then. */
  private final Object acksName = new Object() {
    @Override
    public String toString() {
      return "ack from " + targets;
    }
  };

  private Pipeline(Targets targets, Socket socket, Peer peer) throws IOException {
    this.targets = targets;
    this.socket = socket;
    this.peer = peer;
    // Buffered: an ack is a few small reads, and its length is checked before it is parsed.
    this.in = new BufferedInputStream(peer.getInputStream(), 512);
    // Buffered for the small setup request; packets are larger and go straight through.
    this.out = new DataOutputStream(new BufferedOutputStream(peer.getOutputStream()));
  }

  /**
   * Sets up a pipeline for {@code block}.
   *
   * @param stage what the DataNodes are to do: create, append, or resume after recovery
   * @param bytesAcked bytes every DataNode acknowledged so far (replicas may hold more)
   * @param bytesSent bytes sent so far
   * @param newGenerationStamp the block's generation stamp once set up
   * @param pinned whether each DataNode should pin its replica (favoured nodes)
   * @throws SetupException naming the DataNode that failed
   */
  static Pipeline open(SocketFactory sockets, DFSClient client, Targets targets,
      ExtendedBlock block, Token<BlockTokenIdentifier> token, BlockConstructionStage stage,
      long bytesAcked, long bytesSent, long newGenerationStamp, DataChecksum checksum,
      boolean lazyPersist, boolean[] pinned) throws SetupException {
    Socket socket = null;
    Peer peer = null;
    try {
      socket = sockets.createSocket();
      int n = targets.size();
      peer = DataNodeLink.connect(socket, client, token, targets.nodes[0],
          readTimeout(client, n));
      peer.setWriteTimeout(writeTimeout(client, n));
      Pipeline pipeline = new Pipeline(targets, socket, peer);
      new Sender(pipeline.out).writeBlock(block, targets.storageTypes[0], token,
          client.getClientName(), targets.nodes, targets.storageTypes, null, stage, n,
          bytesAcked, bytesSent, newGenerationStamp, checksum,
          CachingStrategy.newDefaultStrategy(), lazyPersist, pinned[0], pinned,
          targets.storageIds[0], targets.storageIds);
      pipeline.out.flush();
      BlockOpResponseProto response =
          DataNodeLink.answer(pipeline.in, "the answer to writeBlock");
      String badLink = response.getFirstBadLink();
      if (response.getStatus() != Status.SUCCESS || !badLink.isEmpty()) {
        int bad = badLink.isEmpty() ? 0 : Math.max(0, targets.indexOf(badLink));
        throw new SetupException("DataNodes " + targets + " refused to write " + block
            + " (" + stage + "): " + response.getStatus() + " " + response.getMessage()
            + (badLink.isEmpty() ? "" : ", first bad link " + badLink), bad, null);
      }
      return pipeline;
    } catch (SetupException e) {
      closeQuietly(peer, socket);
      throw e;
    } catch (IOException e) {
      closeQuietly(peer, socket);
      throw new SetupException("could not set up a pipeline to " + targets + " for " + block
          + ": " + e, 0, e);
    }
  }

  /** How long to wait for an ack: the client's socket timeout, plus stock's extension per hop. */
  static int readTimeout(DFSClient client, int nodes) {
    return client.getConf().getSocketTimeout() + HdfsConstants.READ_TIMEOUT_EXTENSION * nodes;
  }

  static int writeTimeout(DFSClient client, int nodes) {
    return client.getConf().getDatanodeSocketWriteTimeout()
        + HdfsConstants.WRITE_TIMEOUT_EXTENSION * nodes;
  }

  void send(Packet packet) throws IOException {
    packet.writeTo(out);
    out.flush();
  }

  /** The next ack; its object is reused by the next call. */
  PipelineAck readAck() throws IOException {
    return readAck(in, ack, acksName);
  }

  /**
   * Reads the next ack from {@code in} (which supports mark) into {@code ack}: its length checked
   * first, as Hadoop's parsing takes any length (see {@link DataNodeLink#messageLength}).
   *
   * @throws IOException naming {@code what} if the ack is malformed or the connection ends
   */
  static PipelineAck readAck(InputStream in, PipelineAck ack, Object what) throws IOException {
    in.mark(MAX_VARINT_BYTES);
    DataNodeLink.messageLength(in, what);
    in.reset();
    try {
      ack.readFields(in);
    } catch (RuntimeException e) {
      throw DataNodeLink.malformed(what, e);
    }
    return ack;
  }

  /** Cuts the connection from any thread; a blocked send or ack read fails at once. */
  @Override
  public void abort() {
    try {
      socket.shutdownInput();
    } catch (IOException notConnected) {
      // nothing to wake
    }
    closeQuietly(peer, socket);
  }

  @Override
  public void close() {
    abort();
  }

  private static void closeQuietly(Peer peer, Socket socket) {
    try {
      if (peer != null) {
        peer.close();
      }
      if (socket != null) {
        socket.close();
      }
    } catch (IOException ignored) {
      // closing
    }
  }
}
