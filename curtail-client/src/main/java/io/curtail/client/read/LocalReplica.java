package io.curtail.client.read;

import io.curtail.client.track.NodeId;
import io.curtail.client.track.NodeTracker;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.BlockReader;
import org.apache.hadoop.hdfs.ClientContext;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.RemotePeerFactory;
import org.apache.hadoop.hdfs.client.impl.BlockReaderFactory;
import org.apache.hadoop.hdfs.client.impl.DfsClientConf.ShortCircuitConf;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.util.DirectBufferPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a range of a replica on this host from its block file, as stock does where short-circuit
 * reads are on: with Hadoop's own {@link BlockReaderFactory} and the client's
 * {@link ClientContext}, so the reader is stock's ({@code BlockReaderLocal} over the DataNode's
 * domain socket, or {@code BlockReaderLocalLegacy}), verifies checksums unless the stream was
 * opened without, as stock's does, and shares stock's caches of file descriptors and of what
 * failed. The DataNode serves none of the bytes.
 *
 * <p>Why a piece at a time: {@link BlockRead} times each piece as it times a packet, feeds it to
 * the DataNode's tracker and hedges a slow one to another replica; stock cannot, since its local
 * read has no deadline. A piece is what Hadoop's reader reads from the disk at once (its buffer,
 * {@code dfs.client.read.shortcircuit.buffer.size}, 1 MiB by default), read straight into a
 * pooled direct buffer: so a piece is one disk read, as each of stock's is, and the bytes are
 * copied no more often than stock copies them (from the file, then to the caller).
 *
 * <p>Where a piece is read. A piece already waiting on the disk cannot be called back (Linux
 * finishes a read of a regular file whatever the thread's interrupts), so a caller reading it
 * itself waits it out even after a hedge has delivered. So a piece of a DataNode whose last read
 * (this JVM's, of any kind) took the hedge floor or longer, or of one not read yet, is read on a
 * helper thread ({@link ReadContext#localPieces}) while the caller waits, and {@link #abort()}
 * ends the wait at once; the helper finishes the piece, then lets the reader and its buffer go.
 * Any other piece, nearly every one of a healthy host, is read on the caller's thread: handing a
 * piece over costs a thread's wake-up, milliseconds on a busy host, where a healthy piece takes
 * a few ({@code healthy-local} was 1.5× slower with every piece handed over).
 *
 * <p>When the block file cannot be read (short-circuit unavailable for this replica, the user not
 * allowed, the replica moved), the range is read over TCP by a {@link PacketReader} instead, as
 * stock falls back; Hadoop's factory is never allowed to open a TCP connection of its own.
 *
 * <p>Not thread-safe, except {@link #abort()}.
 */
final class LocalReplica extends ReplicaReader {
  private static final Logger LOG = LoggerFactory.getLogger(LocalReplica.class);
  /** The least buffer a piece is read into; pieces' buffers are powers of two from it. */
  private static final int MIN_PIECE_BYTES = 4096;
  /** Pieces' buffers, kept for the next reads as Hadoop's local readers keep theirs. */
  private static final DirectBufferPool BUFFERS = new DirectBufferPool();
  /**
   * Each local DataNode's address, resolved once (stock resolves it once per stream); bounded as
   * {@link NetworkDistances}. A remote one maps to {@link #REMOTE}.
   */
  private static final Map<String, InetSocketAddress> LOCAL = new ConcurrentHashMap<>();
  private static final InetSocketAddress REMOTE = InetSocketAddress.createUnresolved("remote", 1);
  private static final int MAX_NODES = 65_536;
  /**
   * Refuses the TCP connection Hadoop's factory falls back to when it cannot read the block file:
   * Curtail's own reader ({@link PacketReader}) takes over then.
   */
  private static final RemotePeerFactory NO_TCP = (addr, token, dn) -> {
    throw new IOException("no TCP reads through Hadoop's factory: Curtail reads " + dn
        + " over TCP itself");
  };

  private final ReadContext ctx;
  private final DFSClient client;
  private final Configuration conf;
  private final String file;
  private final LocatedBlock located;
  private final DatanodeInfo dataNode;
  private final boolean verifyChecksum;
  private final long end;
  private final CachingStrategy caching;
  private long position;
  /** Stock's reader of the block file, once opened. */
  private BlockReader local;
  /** The TCP reader the range fell back to, if the block file could not be read. */
  private volatile PacketReader tcp;
  /** Where pieces are read, from {@link #BUFFERS}; given back on close. */
  private ByteBuffer piece;
  private volatile long requestedNanos;
  private volatile boolean aborted;
  /** The DataNode's reads as the JVM knows them, looked up with the first piece. */
  private NodeTracker tracker;
  /** Done when the piece a helper reads, or read last, is; null if none was read aside. */
  private CompletableFuture<Void> aside;
  /** What the caller waits on for that piece: completed by the helper, or by {@link #abort}. */
  private volatile CompletableFuture<Integer> waiting;

  /** @param conf the file system's configuration, for RPCs to the DataNode */
  LocalReplica(ReadContext ctx, DFSClient client, Configuration conf, String file,
      LocatedBlock located,
      DatanodeInfo dataNode, long offset, long length, CachingStrategy caching,
      boolean verifyChecksum) {
    if (offset < 0 || length <= 0) {
      throw new IllegalArgumentException("need offset >= 0 and length > 0 to read "
          + located.getBlock() + ", got " + offset + " and " + length);
    }
    this.ctx = ctx;
    this.client = client;
    this.conf = conf;
    this.file = file;
    this.located = located;
    this.dataNode = dataNode;
    this.verifyChecksum = verifyChecksum;
    this.position = offset;
    this.end = offset + length;
    this.caching = caching;
  }

  /**
   * Whether stock's factory would read {@code dataNode}'s replicas from their files: short-circuit
   * reads on, the DataNode on this host, and the way configured not known to fail (legacy local
   * reads disabled after a failure; the domain socket unusable or never set up). Asked before
   * each read so that a client without short-circuit pays nothing, as stock's does.
   */
  static boolean worthTrying(DFSClient client, DatanodeInfo dataNode) {
    ShortCircuitConf sc = client.getConf().getShortCircuitConf();
    if (!sc.isShortCircuitLocalReads() || !isLocal(dataNode)) {
      return false;
    }
    ClientContext cc = client.getClientContext();
    if (cc.getUseLegacyBlockReaderLocal()) {
      return !cc.getDisableLegacyBlockReaderLocal();
    }
    try {
      return cc.getDomainSocketFactory().getPathInfo(localAddress(dataNode), sc).getPathState()
          .getUsableForShortCircuit();
    } catch (IOException e) {
      return false; // no usable socket path: stock reads over TCP too
    }
  }

  private static boolean isLocal(DatanodeInfo dn) {
    return localAddress(dn) != REMOTE;
  }

  /** {@code dn}'s address, resolved, if it is on this host; else {@link #REMOTE}. */
  private static InetSocketAddress localAddress(DatanodeInfo dn) {
    InetSocketAddress a = LOCAL.get(dn.getXferAddr());
    if (a == null) {
      a = NetUtils.createSocketAddr(dn.getXferAddr());
      try {
        a = DFSUtilClient.isLocalAddress(a) ? a : REMOTE;
      } catch (IOException e) {
        a = REMOTE; // an address that does not resolve is no local one
      }
      if (LOCAL.size() < MAX_NODES) {
        LOCAL.put(dn.getXferAddr(), a);
      }
    }
    return a;
  }

  /**
   * Stock's local reader of the range, or null if the block file cannot be read (then logged:
   * Hadoop logs why, once, where it disables a way of reading locally).
   */
  private BlockReader openLocal() {
    BlockReader r = null;
    try {
      r = new BlockReaderFactory(client.getConf())
          .setInetSocketAddress(localAddress(dataNode))
          .setRemotePeerFactory(NO_TCP)
          .setDatanodeInfo(dataNode)
          .setStorageType(storageType())
          .setFileName(file)
          .setBlock(located.getBlock())
          .setBlockToken(located.getBlockToken())
          .setStartOffset(position)
          .setVerifyChecksum(verifyChecksum)
          .setClientName(client.getClientName())
          .setLength(end - position)
          .setCachingStrategy(caching)
          .setAllowShortCircuitLocalReads(true)
          .setClientCacheContext(client.getClientContext())
          // None: the legacy reader takes the current user when it must ask the DataNode for
          // a block's path (once per block), sparing every read the look-up.
          .setUserGroupInformation(null)
          .setConfiguration(conf)
          .build();
    } catch (IOException e) {
      LOG.debug("No local read file={} block={} datanode={} reason={}", file,
          located.getBlock(), dataNode, e.toString());
      return null;
    }
    if (!r.isShortCircuit()) { // a pooled TCP connection of stock's: not what is wanted here
      closeQuietly(r);
      return null;
    }
    return r;
  }

  /** The storage the replica is on, as the NameNode listed it; stock's default if unlisted. */
  private StorageType storageType() {
    DatanodeInfo[] locs = located.getLocations();
    StorageType[] types = located.getStorageTypes();
    for (int i = 0; i < locs.length && types != null && i < types.length; i++) {
      if (locs[i].getXferAddr().equals(dataNode.getXferAddr())) {
        return types[i];
      }
    }
    return StorageType.DEFAULT;
  }

  @Override
  ByteBuffer next() throws IOException {
    PacketReader t = tcp;
    if (t != null) {
      return t.next();
    }
    if (aborted) {
      throw abortedException();
    }
    if (local == null) {
      requestedNanos = ctx.clock.nanoTime();
      local = openLocal();
      if (local == null) {
        return fallBack().next();
      }
    }
    if (position >= end) {
      return null;
    }
    if (piece == null) {
      piece = BUFFERS.getBuffer(pieceBytes(
          client.getConf().getShortCircuitConf().getShortCircuitBufferSize(), end - position));
    }
    piece.clear();
    piece.limit((int) Math.min(piece.capacity(), end - position));
    int n = lastReadQuick() ? local.read(piece) : readAside();
    if (n <= 0) { // only at the end of the file
      throw new IOException(dataNode + "'s block file of " + located.getBlock() + " ended at "
          + position + ", before " + end);
    }
    position += n;
    piece.flip();
    return piece;
  }

  /**
   * Whether the DataNode's last read (this JVM's: a piece, a packet or a start) took less than
   * {@code curtail.read.hedging.min.threshold.ms}, the least a read waits before it is hedged:
   * then a piece is read on the caller's thread, as a hedge of it is not expected.
   */
  private boolean lastReadQuick() {
    if (tracker == null) {
      tracker = ctx.runtime.registry().tracker(NodeId.of(dataNode.getXferAddr()));
    }
    long last = tracker.reads().last();
    return last >= 0 && last < ctx.config.minHedgeThresholdNanos();
  }

  /** Reads the piece on a helper thread and waits for it, until it is read or aborted. */
  private int readAside() throws IOException {
    BlockReader r = local;
    ByteBuffer p = piece;
    CompletableFuture<Integer> w = new CompletableFuture<>();
    CompletableFuture<Void> read = new CompletableFuture<>();
    waiting = w;
    if (aborted) { // abort() may have looked before waiting was set
      throw abortedException();
    }
    try {
      ctx.localPieces.execute(() -> {
        try {
          w.complete(r.read(p));
        } catch (IOException | RuntimeException e) {
          w.completeExceptionally(e);
        } finally {
          // Anything else goes on up the helper's thread; the caller is not left waiting.
          w.completeExceptionally(new IOException("reading " + located.getBlock() + " from "
              + dataNode + "'s block file ended without a result"));
          read.complete(null);
        }
      });
    } catch (RejectedExecutionException e) {
      throw new IOException("the file system reading " + file + " is closed", e);
    }
    aside = read;
    try {
      return w.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted reading " + located.getBlock() + " from "
          + dataNode + "'s block file");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException) {
        throw (IOException) e.getCause();
      }
      throw (RuntimeException) e.getCause();
    }
  }

  private IOException abortedException() {
    return new IOException("local read of " + located.getBlock() + " from " + dataNode
        + " aborted");
  }

  /**
   * The buffer size for pieces of a range of {@code range} bytes: the reader's own buffer size,
   * less for a shorter range, a power of two so that few sizes are pooled.
   */
  static int pieceBytes(int readerBuffer, long range) {
    long want = Math.max(MIN_PIECE_BYTES, Math.min(Math.max(readerBuffer, 1), range));
    return (int) Math.min(1 << 30, Long.highestOneBit(want - 1) << 1);
  }

  /** Reads the range over TCP from now on, as stock does when a local read is not to be had. */
  private PacketReader fallBack() {
    PacketReader t = PacketReader.create(ctx, client, file, located, dataNode, position,
        end - position, caching, verifyChecksum);
    tcp = t;
    if (aborted) {
      t.abort(); // abort() may have looked before tcp was set
    }
    return t;
  }

  @Override
  boolean finishRange(int timeoutMs) {
    PacketReader t = tcp;
    return t != null ? t.finishRange(timeoutMs) : position == end;
  }

  @Override
  long sinceRequest(long nowNanos, long fallbackNanos) {
    PacketReader t = tcp;
    if (t != null) {
      return t.sinceRequest(nowNanos, fallbackNanos);
    }
    long at = requestedNanos;
    return at == 0 ? fallbackNanos : nowNanos - at;
  }

  @Override
  boolean connected() {
    PacketReader t = tcp;
    return t != null ? t.connected() : local != null;
  }

  @Override
  long position() {
    PacketReader t = tcp;
    return t != null ? t.position() : position;
  }

  @Override
  DatanodeInfo dataNode() {
    return dataNode;
  }

  /** 0, the distance stock's local readers give, unless the range fell back to TCP. */
  @Override
  int networkDistance() {
    PacketReader t = tcp;
    return t != null ? t.networkDistance() : 0;
  }

  @Override
  boolean shortCircuit() {
    return tcp == null && local != null;
  }

  /**
   * Stops the range: the next piece fails, and so does the wait for one read aside; a piece the
   * caller reads itself finishes first (see above).
   */
  @Override
  public void abort() {
    aborted = true;
    CompletableFuture<Integer> w = waiting;
    if (w != null) {
      w.completeExceptionally(abortedException());
    }
    PacketReader t = tcp;
    if (t != null) {
      t.abort();
    }
  }

  @Override
  public void close() {
    PacketReader t = tcp;
    if (t != null) {
      t.close();
    }
    BlockReader r = local;
    ByteBuffer p = piece;
    local = null;
    piece = null;
    // The caller is done with the last piece once it closes; a helper may still be reading one.
    if (aside == null) {
      release(r, p);
    } else {
      aside.thenRun(() -> release(r, p));
    }
  }

  private void release(BlockReader r, ByteBuffer p) {
    if (r != null) {
      closeQuietly(r);
    }
    if (p != null) {
      BUFFERS.returnBuffer(p);
    }
  }

  private void closeQuietly(BlockReader r) {
    try {
      r.close();
    } catch (IOException e) {
      LOG.debug("Closing the local reader of block={} failed", located.getBlock(), e);
    }
  }

  @Override
  public String toString() {
    return "LocalReplica{" + located.getBlock() + "@" + dataNode + ", position=" + position()
        + ", end=" + end + '}';
  }
}
