package io.curtail.client.wire;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.net.Peer;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.datatransfer.DataTransferProtoUtil;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.net.ConnectTimeoutException;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.LimitInputStream;

/**
 * Opening a data-transfer connection to a DataNode, as every Curtail reader and writer does: TCP
 * connect with the client's timeout, then SASL or encryption where the cluster asks for it, through
 * Hadoop's {@code SaslDataTransferClient}. The one place that knows how.
 */
public final class DataNodeLink {
  /** A DataNode's answer or ack is at most a few hundred bytes; a longer one is malformed. */
  private static final int MAX_MESSAGE_BYTES = 1 << 20;

  private DataNodeLink() {
  }

  /**
   * Connects {@code socket} (already created, so another thread may close it to abort) to
   * {@code dataNode} and negotiates data-transfer protection.
   *
   * @param timeoutMs connect and read timeout
   */
  public static Peer connect(Socket socket, DFSClient client, Token<BlockTokenIdentifier> token,
      DatanodeInfo dataNode, int timeoutMs) throws IOException {
    InetSocketAddress address = NetUtils.createSocketAddr(
        dataNode.getXferAddr(client.getConf().isConnectToDnViaHostname()));
    connect(socket, address, timeoutMs);
    socket.setTcpNoDelay(client.getConf().getDataTransferTcpNoDelay());
    Peer peer = DFSUtilClient.peerFromSocketAndKey(client.getSaslDataTransferClient(), socket,
        client, token, dataNode, timeoutMs);
    peer.setReadTimeout(timeoutMs);
    return peer;
  }

  /**
   * A TCP connect that closing {@code socket} from another thread cuts short, as a hedge that
   * won closes its primary's: the socket's own timed connect, which the JDK wakes when the
   * channel closes. Hadoop's {@code NetUtils.connect} waits for a channel's connect in a selector
   * of its own, which a close does not wake: a read whose connect was slow and then overtaken
   * waited out the whole timeout, 60 s, after its hedge had delivered. Refuses, as that does, a
   * connection to itself (a port on this host with no DataNode behind it).
   */
  static void connect(Socket socket, InetSocketAddress address, int timeoutMs)
      throws IOException {
    if (address.isUnresolved()) {
      throw new UnknownHostException(address.getHostName());
    }
    try {
      socket.connect(address, timeoutMs);
    } catch (SocketTimeoutException e) {
      throw new ConnectTimeoutException(timeoutMs + " millis timeout connecting to " + address);
    }
    if (socket.getLocalPort() == socket.getPort()
        && socket.getLocalAddress().equals(socket.getInetAddress())) {
      socket.close();
      throw new ConnectException("Connecting to " + address + " reached this socket itself: no"
          + " DataNode listens there");
    }
  }

  /**
   * Reads a DataNode's answer to an operation and fails, naming {@code what}, unless it succeeded.
   */
  public static BlockOpResponseProto response(InputStream in, String what) throws IOException {
    BlockOpResponseProto response = answer(in, "the answer to " + what);
    DataTransferProtoUtil.checkBlockOpStatus(response, what);
    return response;
  }

  /**
   * Reads a DataNode's answer to an operation, whatever its status, for callers that read more of
   * it than success or failure.
   *
   * @param answer names the answer for an error, e.g. "the answer to readBlock"
   */
  public static BlockOpResponseProto answer(InputStream in, String answer) throws IOException {
    try {
      return BlockOpResponseProto.parseFrom(new LimitInputStream(in, messageLength(in, answer)));
    } catch (RuntimeException e) {
      throw malformed(answer, e);
    }
  }

  /**
   * The error for a DataNode's message that Hadoop's protobuf parser failed on with an unchecked
   * exception, as it does on some malformed bytes (an {@code ArrayIndexOutOfBoundsException} in
   * its varint decoding, found by fuzzing acks): malformed input from a DataNode is an
   * {@link IOException}, which the caller's recovery handles, never a crash.
   */
  public static IOException malformed(Object what, RuntimeException cause) {
    return new IOException("Malformed " + what + ": " + cause, cause);
  }

  /**
   * Reads the length that prefixes a protobuf message from a DataNode (a varint), refusing one
   * that is malformed: Hadoop's {@code PBHelperClient.vintPrefixed} lets a negative length through
   * to an {@code IllegalArgumentException} (found by fuzzing, in answers and in acks alike).
   *
   * @param what what the message answers, for the error
   * @throws IOException naming {@code what} if the connection ends or the length is malformed
   */
  public static int messageLength(InputStream in, Object what) throws IOException {
    long length = 0;
    for (int shift = 0; ; shift += 7) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("Unexpected EOF while reading " + what);
      }
      length |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
      if (shift >= 28) {
        throw new IOException("Malformed " + what + ": its length runs past 5 bytes");
      }
    }
    if (length > MAX_MESSAGE_BYTES) {
      throw new IOException("Malformed " + what + ": " + length + " bytes long (at most "
          + MAX_MESSAGE_BYTES + ")");
    }
    return (int) length;
  }
}
