package io.curtail.client.track;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyWindowTest {

  @Test
  void emptyWindowHasNoStats() {
    LatencyWindow w = new LatencyWindow();
    assertEquals(0, w.available(100));
    assertEquals(LatencyStats.EMPTY, w.stats(100, 0.95, new long[100]));
  }

  @Test
  void keepsTheMostRecentSamplesMostRecentFirst() {
    LatencyWindow w = new LatencyWindow();
    for (int i = 1; i <= LatencyWindow.CAPACITY + 10; i++) {
      w.record(i);
    }
    long[] dst = new long[3];
    assertEquals(3, w.copyLast(3, dst, 0));
    long last = LatencyWindow.CAPACITY + 10;
    assertArrayEquals(new long[] {last, last - 1, last - 2}, dst);
    assertEquals(LatencyWindow.CAPACITY, w.available(LatencyWindow.CAPACITY));
    assertEquals(LatencyWindow.CAPACITY + 10, w.totalRecorded());
  }

  @Test
  void theLastSampleOrNoneYet() {
    LatencyWindow w = new LatencyWindow(4);
    assertEquals(-1, w.last());
    for (int i = 1; i <= 6; i++) {
      w.record(i * 10L); // wraps around the capacity
      assertEquals(i * 10L, w.last());
    }
  }

  @Test
  void statsOverTheAskedWindowOnly() {
    LatencyWindow w = new LatencyWindow();
    for (int i = 0; i < 100; i++) {
      w.record(1_000_000); // old, slow
    }
    for (int i = 1; i <= 20; i++) {
      w.record(i * 1000L); // recent: 1..20 us
    }
    LatencyStats s = w.stats(20, 0.95, new long[20]);
    assertEquals(20, s.samples());
    assertEquals(19_000, s.percentileNanos()); // nearest rank: ceil(0.95*20)=19th
    assertEquals(10_500, s.meanNanos());
  }

  @Test
  void negativeSamplesCountAsZero() {
    LatencyWindow w = new LatencyWindow();
    w.record(-5);
    long[] dst = new long[1];
    w.copyLast(1, dst, 0);
    assertEquals(0, dst[0]);
  }

  @Test
  void copiesIntoPooledScratchAtAnOffset() {
    LatencyWindow a = new LatencyWindow();
    LatencyWindow b = new LatencyWindow();
    a.record(1);
    b.record(2);
    b.record(3);
    long[] pool = new long[4];
    int n = a.copyLast(2, pool, 0);
    n += b.copyLast(2, pool, n);
    assertEquals(3, n);
    assertArrayEquals(new long[] {1, 3, 2, 0}, pool);
  }

  @Test
  void rejectsWindowsItCannotServeAndScratchTooSmall() {
    LatencyWindow w = new LatencyWindow();
    w.record(1);
    w.record(2);
    assertThrows(IllegalArgumentException.class, () -> w.available(0));
    assertThrows(IllegalArgumentException.class, () -> w.available(LatencyWindow.CAPACITY + 1));
    assertThrows(IllegalArgumentException.class, () -> w.copyLast(2, new long[1], 0));
  }

  @Test
  void concurrentRecordersLoseNothingFromTheCount() throws InterruptedException {
    LatencyWindow w = new LatencyWindow();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread th = new Thread(() -> {
        for (int i = 0; i < 100_000; i++) {
          w.record(7);
        }
      });
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) {
      th.join();
    }
    assertEquals(400_000, w.totalRecorded());
    LatencyStats s = w.stats(LatencyWindow.CAPACITY, 0.5, new long[LatencyWindow.CAPACITY]);
    assertEquals(7, s.percentileNanos());
    assertEquals(7, s.meanNanos());
  }
}
