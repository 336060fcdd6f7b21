package io.curtail.client.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hdfs.net.Peer;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;

/** Idle connections: newest first, per DataNode, bounded in number and in age. */
class ConnectionPoolTest {
  private static final long EXPIRY = 3_000;
  private final AtomicLong now = new AtomicLong(1_000_000);
  private final ConnectionPool pool = new ConnectionPool(now::get, 2, EXPIRY);

  private static ConnectionPool.Connection connection(String dataNode) throws IOException {
    return new ConnectionPool.Connection(new Socket(), Mockito.mock(Peer.class), dataNode);
  }

  @Test
  void theNewestIdleConnectionToTheDataNodeAsked() throws IOException {
    ConnectionPool.Connection older = connection("dn1:9866");
    ConnectionPool.Connection newer = connection("dn1:9866");
    pool.give(older);
    now.addAndGet(10);
    pool.give(newer);
    assertNull(pool.take("dn2:9866"));
    assertSame(newer, pool.take("dn1:9866"));
    assertSame(older, pool.take("dn1:9866"));
    assertNull(pool.take("dn1:9866"));
  }

  @Test
  void expiredOneTickAfterItsTime() throws IOException {
    ConnectionPool.Connection c = connection("dn1:9866");
    pool.give(c);
    now.addAndGet(EXPIRY - 1);
    assertSame(c, pool.take("dn1:9866"), "one tick before expiry");
    pool.give(c);
    now.addAndGet(EXPIRY);
    assertNull(pool.take("dn1:9866"), "at expiry");
    assertEquals(0, pool.size(), "and closed");
    assertTrue(c.socket.isClosed());
  }

  @Test
  void sharedByFileSystemsOfOneContextAndKeptUntilItsConnectionsExpire() throws IOException {
    long expiry = TimeUnit.MINUTES.toNanos(1); // the closing timer never fires in this test
    ConnectionPool a = ConnectionPool.shared("ctx-test", now::get, 4, expiry);
    ConnectionPool b = ConnectionPool.shared("ctx-test", now::get, 4, expiry);
    ConnectionPool other = ConnectionPool.shared("ctx-other", now::get, 4, expiry);
    assertSame(a, b);
    assertTrue(a != other);
    ConnectionPool.Connection c = connection("dn1:9866");
    a.give(c);
    a.release(); // one file system closes: the next one finds the connection
    assertSame(c, b.take("dn1:9866"));
    b.give(c);
    b.release(); // the last: the pool waits for a file system made soon after, as stock's does
    ConnectionPool again = ConnectionPool.shared("ctx-test", now::get, 4, expiry);
    assertSame(a, again);
    assertSame(c, again.take("dn1:9866"));
    again.give(c);
    again.release();
    again.closeIfUnused(); // what the timer does once the connections expired
    assertTrue(c.socket.isClosed(), "closed once unused");
    ConnectionPool fresh = ConnectionPool.shared("ctx-test", now::get, 4, expiry);
    assertTrue(fresh != a, "and forgotten");
    fresh.release();
    fresh.closeIfUnused();
    other.release();
    other.closeIfUnused();
  }

  @Test
  void aPoolInUseIsNotClosedByTheTimerOfAnEarlierRelease() throws IOException {
    ConnectionPool a = ConnectionPool.shared("ctx-timer", now::get, 4, 1);
    a.release(); // its close is scheduled at once
    ConnectionPool b = ConnectionPool.shared("ctx-timer", now::get, 4, 1);
    ConnectionPool.Connection c = connection("dn1:9866");
    b.give(c);
    b.closeIfUnused();
    assertTrue(!c.socket.isClosed(), "in use again: kept");
    b.release(); // now the timer closes it; poll, as its thread may be mid-close
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!c.socket.isClosed() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertTrue(c.socket.isClosed(), "closed by the timer once unused");
  }

  @Test
  void beyondCapacityTheOldestIsClosed() throws IOException {
    ConnectionPool.Connection first = connection("dn1:9866");
    pool.give(first);
    pool.give(connection("dn2:9866"));
    pool.give(connection("dn3:9866"));
    assertEquals(2, pool.size());
    assertTrue(first.socket.isClosed());
    assertNull(pool.take("dn1:9866"));
  }

  @Test
  void closingClosesIdleOnesAndAnyGivenLater() throws IOException {
    ConnectionPool.Connection idle = connection("dn1:9866");
    pool.give(idle);
    pool.close();
    assertTrue(idle.socket.isClosed());
    ConnectionPool.Connection late = connection("dn1:9866");
    pool.give(late);
    assertTrue(late.socket.isClosed());
    assertNull(pool.take("dn1:9866"));
  }
}
