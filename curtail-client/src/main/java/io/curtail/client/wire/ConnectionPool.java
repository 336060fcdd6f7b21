package io.curtail.client.wire;

import io.curtail.client.runtime.NanoClock;
import io.curtail.client.runtime.Scheduler;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.net.Peer;

/**
 * Idle connections to DataNodes, kept for the next read. A DataNode that served a read to its end
 * and heard the client's status ({@code CHECKSUM_OK}, or {@code SUCCESS} from a reader that checks
 * no checksums) waits on the same connection for another operation
 * ({@code dfs.datanode.socket.reuse.keepalive}, 4 s by default), so the next read to it skips the
 * TCP connect, the SASL check and a DataNode thread's start: most of what a small positional read
 * costs. Bounded like stock's {@code PeerCache}: at most {@code capacity} connections
 * ({@code dfs.client.socketcache.capacity}), each dropped after {@code expiryNanos}
 * ({@code dfs.client.socketcache.expiryMsec}, below the DataNode's keepalive). Only a reader that
 * finished cleanly gives its connection back; one a hedge cut never does. Shared as stock's is
 * ({@link #shared}): stock clients of a JVM keep one {@code PeerCache} per client context, so a
 * file system made for each task (or each benchmark batch) finds the last one's connections; a
 * pool per file system would pay a TCP connect, a DataNode thread's start and the SASL check
 * again each time, and a new connection's receive window starts small. Like stock's cache, a
 * shared pool outlives the file systems that used it by {@code expiryNanos} (its connections
 * could not be used after that anyway), so a file system made just after finds them; then it is
 * closed. Thread-safe.
 */
public final class ConnectionPool implements AutoCloseable {
  /**
   * A connection as a reader holds it: the socket (to cut it at once), Hadoop's peer on it, and
   * the streams that outlive one read.
   */
  public static final class Connection {
    public final Socket socket;
    public final Peer peer;
    public final InputStream in;
    /** The same bytes as {@link #in}, as a channel (null where the peer has none). */
    public final ReadableByteChannel channel;
    /** Buffered for the small requests a reader sends; packets only come the other way. */
    public final DataOutputStream out;
    /** The packets coming in, into a buffer that serves every read on this connection. */
    public final PacketInput packets;
    private final String dataNode;
    private long idleSinceNanos;

    /** @param dataNode the DataNode's transfer address, which the pool files it under */
    public Connection(Socket socket, Peer peer, String dataNode) throws IOException {
      this.socket = socket;
      this.peer = peer;
      this.in = peer.getInputStream();
      this.channel = peer.getInputStreamChannel();
      this.out = new DataOutputStream(new BufferedOutputStream(peer.getOutputStream(),
          REQUEST_BUFFER_BYTES));
      this.packets = new PacketInput(channel, in);
      this.dataNode = dataNode;
    }

    /**
     * Closes the peer and its socket, quietly, and leaves the packet buffer to a new connection:
     * only its user may call this (or the pool, on an idle one), as nothing may read the buffer
     * after.
     */
    public void close() {
      packets.release();
      try {
        peer.close();
      } catch (IOException | RuntimeException ignored) {
        // closing
      }
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing
      }
    }
  }

  /** Room for a read request (a few hundred bytes with its block token) and the read's status. */
  private static final int REQUEST_BUFFER_BYTES = 1024;

  private static final Map<String, ConnectionPool> SHARED = new HashMap<>();
  /** Closes shared pools left unused; its one thread lives only while a close is pending. */
  private static final ScheduledThreadPoolExecutor CLOSER = closer();

  private static ScheduledThreadPoolExecutor closer() {
    ScheduledThreadPoolExecutor e =
        new ScheduledThreadPoolExecutor(0, Scheduler.daemonThreads("curtail-pool-closer"));
    e.setKeepAliveTime(1, TimeUnit.SECONDS); // not a wake-up every 10 ms while one is pending
    return e;
  }

  /** Its key in {@link #SHARED}, null for a pool of its own. */
  private final String key;
  /** File systems holding this pool; guarded by {@link #SHARED}. */
  private int users;
  private final NanoClock clock;
  private final int capacity;
  private final long expiryNanos;
  /** Idle connections, the oldest first. */
  private final ArrayDeque<Connection> idle = new ArrayDeque<>();
  private boolean closed;

  /** A pool of its own, shared with nobody: for tests and benchmarks. */
  public ConnectionPool(NanoClock clock, int capacity, long expiryNanos) {
    this(null, clock, capacity, expiryNanos);
  }

  private ConnectionPool(String key, NanoClock clock, int capacity, long expiryNanos) {
    this.key = key;
    this.clock = clock;
    this.capacity = capacity;
    this.expiryNanos = expiryNanos;
  }

  /**
   * The pool the file systems of this JVM share that were made with the same {@code context}
   * (the client context, with whatever else a pooled connection depends on: its socket factory,
   * data-transfer protection) and bounds; each call must be matched by a {@link #release}.
   */
  public static ConnectionPool shared(String context, NanoClock clock, int capacity,
      long expiryNanos) {
    String k = context + "|capacity=" + capacity + "|expiry=" + expiryNanos;
    synchronized (SHARED) {
      ConnectionPool p = SHARED.computeIfAbsent(k,
          x -> new ConnectionPool(x, clock, capacity, expiryNanos));
      p.users++;
      return p;
    }
  }

  /**
   * Gives back a pool from {@link #shared}. After the last user's release the pool is closed
   * once its connections expire, unless a new user came for it by then. A pool of its own is
   * closed at once.
   */
  public void release() {
    if (key != null) {
      synchronized (SHARED) {
        if (--users > 0) {
          return;
        }
      }
      CLOSER.schedule(this::closeIfUnused, expiryNanos, TimeUnit.NANOSECONDS);
      return;
    }
    close();
  }

  /** Closes and forgets a shared pool nobody uses; does nothing to one in use. */
  void closeIfUnused() {
    synchronized (SHARED) {
      if (users > 0) {
        return;
      }
      SHARED.remove(key, this);
    }
    close();
  }

  /** The most recently idle connection to {@code dataNode} (its transfer address), or null. */
  public Connection take(String dataNode) {
    Connection found = null;

    synchronized (this) {
      long now = clock.nanoTime();
      Iterator<Connection> newestFirst = idle.descendingIterator();
      while (newestFirst.hasNext()) {
        Connection c = newestFirst.next();
        if (now - c.idleSinceNanos >= expiryNanos) {
          break; // this one and every older one have expired
        }
        if (c.dataNode.equals(dataNode)) {
          newestFirst.remove();
          found = c;
          break;
        }
      }
    }
    dropExpired();
    return found;
  }

  /** Keeps {@code c} for the next read to its DataNode; the oldest goes if the pool is full. */
  public void give(Connection c) {
    Connection evicted = null;
    synchronized (this) {
      if (closed || capacity <= 0) {
        evicted = c;
      } else {
        c.idleSinceNanos = clock.nanoTime();
        idle.addLast(c);
        if (idle.size() > capacity) {
          evicted = idle.pollFirst();
        }
      }
    }
    if (evicted != null) {
      evicted.close();
    }
  }

  /** Idle connections now held. */
  public synchronized int size() {
    return idle.size();
  }

  private void dropExpired() {
    while (true) {
      Connection c;
      synchronized (this) {
        c = idle.peekFirst();
        if (c == null || clock.nanoTime() - c.idleSinceNanos < expiryNanos) {
          return;
        }
        idle.pollFirst();
      }
      c.close();
    }
  }

  /** Closes every idle connection; connections given back later are closed at once. */
  @Override
  public void close() {
    ArrayDeque<Connection> all;
    synchronized (this) {
      closed = true;
      all = new ArrayDeque<>(idle);
      idle.clear();
    }
    for (Connection c : all) {
      c.close();
    }
  }
}
