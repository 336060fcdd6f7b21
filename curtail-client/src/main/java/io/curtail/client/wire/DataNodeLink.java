package io.curtail.client.wire;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.net.Peer;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.datatransfer.DataTransferProtoUtil;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.token.Token;

/**
 * Opening a data-transfer connection to a DataNode, as every Curtail reader and writer does: TCP
 * connect with the client's timeout, then SASL or encryption where the cluster asks for it, through
 * Hadoop's {@code SaslDataTransferClient}. The one place that knows how.
 */
public final class DataNodeLink {
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
    NetUtils.connect(socket, address, timeoutMs);
    socket.setTcpNoDelay(client.getConf().getDataTransferTcpNoDelay());
    Peer peer = DFSUtilClient.peerFromSocketAndKey(client.getSaslDataTransferClient(), socket,
        client, token, dataNode, timeoutMs);
    peer.setReadTimeout(timeoutMs);
    return peer;
  }

  /**
   * Reads a DataNode's answer to an operation and fails, naming {@code what}, unless it succeeded.
   */
  public static BlockOpResponseProto response(InputStream in, String what) throws IOException {
    BlockOpResponseProto response = BlockOpResponseProto.parseFrom(PBHelperClient.vintPrefixed(in));
    DataTransferProtoUtil.checkBlockOpStatus(response, what);
    return response;
  }
}
