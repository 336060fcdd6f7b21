package io.curtail.client.wire;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A connect in progress is cut short by closing its socket from another thread, as a hedge that
 * won closes its primary's: on a channel's socket, as Hadoop's socket factory makes them.
 */
class DataNodeLinkTest {
  @Test
  void closingTheSocketEndsAConnectThatHangs() throws Exception {
    // A listener that never accepts, its backlog filled: the kernel drops further SYNs, so the
    // next connect hangs until its timeout.
    try (ServerSocket deaf = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      InetSocketAddress at = new InetSocketAddress(deaf.getInetAddress(), deaf.getLocalPort());
      List<Socket> filling = new ArrayList<>();
      try {
        Socket hanging = null;
        for (int i = 0; i < 8 && hanging == null; i++) { // until a connect does not complete
          Socket s = SocketChannel.open().socket();
          if (connectsWithin(s, at, 300)) {
            filling.add(s);
          } else {
            hanging = SocketChannel.open().socket();
          }
        }
        assertTrue(hanging != null, "the backlog never filled");
        Socket target = hanging;
        Thread closer = new Thread(() -> {
          sleep(200);
          try {
            target.close();
          } catch (IOException ignored) {
            // closing
          }
        });
        long start = System.nanoTime();
        closer.start();
        assertThrows(IOException.class, () -> DataNodeLink.connect(target, at, 30_000));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(ms < 5_000, "the connect ended " + ms + " ms after it began, closed at 200");
        closer.join();
      } finally {
        for (Socket s : filling) {
          s.close();
        }
      }
    }
  }

  private static boolean connectsWithin(Socket s, InetSocketAddress at, int ms) {
    try {
      s.connect(at, ms);
      return true;
    } catch (IOException e) {
      try {
        s.close();
      } catch (IOException ignored) {
        // closing
      }
      return false;
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
