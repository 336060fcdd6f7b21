package io.curtail.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Hadoop's read throttler at the benchmark's 2 MiB/s, worked by hand: a period of 500 ms lets
 * 1 MiB through, sixteen 64 KiB packets; the seventeenth waits for the next period.
 */
class ThrottleTest {
  private static final long PACKET = 64 * 1024;
  private static final long MS = 1_000_000L;

  @Test
  void aPeriodsShareGoesAtOnceAndTheNextPacketWaitsForTheNextPeriod() {
    Throttle t = new Throttle(2L << 20);
    for (int i = 0; i < 16; i++) {
      assertEquals(i * MS, t.admit(i * MS, PACKET), "packet " + i + " within the share");
    }
    assertEquals(500 * MS, t.admit(16 * MS, PACKET), "the 17th: at the period's end");
    for (int i = 1; i < 16; i++) {
      assertEquals(500 * MS, t.admit(500 * MS, PACKET), "the next period's share, at once");
    }
    assertEquals(1000 * MS, t.admit(501 * MS, PACKET), "spent again: the third period");
  }

  @Test
  void readersShareOneThrottle() {
    Throttle t = new Throttle(2L << 20);
    // Two streams of 8 packets each spend the share; either one's next packet waits.
    for (int i = 0; i < 8; i++) {
      t.admit(0, PACKET);
      t.admit(0, PACKET);
    }
    assertEquals(500 * MS, t.admit(10 * MS, PACKET));
  }

  @Test
  void anIdleThrottleStartsAFreshPeriod() {
    Throttle t = new Throttle(2L << 20);
    for (int i = 0; i < 16; i++) {
      t.admit(0, PACKET);
    }
    // Asked at 1.2 s, within three periods of the last start (0): the period ending at 0.5 s
    // is over, the next begins at 0.5 s with a new share, and the packet goes at once.
    assertEquals(1200 * MS, t.admit(1200 * MS, PACKET));
    for (int i = 0; i < 15; i++) {
      t.admit(1200 * MS, PACKET);
    }
    // Spent again in the period begun at 0.5 s. Asked at 1.6 s, past that period's end (1.0 s)
    // but within three periods of its start (2.0 s): the period moves on to 1.0 s with a new
    // share, and the packet goes at once.
    assertEquals(1600 * MS, t.admit(1600 * MS, PACKET));
    for (int i = 0; i < 15; i++) {
      t.admit(1600 * MS, PACKET);
    }
    // Asked at 9 s, long idle: a new period from 9 s, its whole share.
    for (int i = 0; i < 16; i++) {
      assertEquals(9000 * MS, t.admit(9000 * MS, PACKET));
    }
    assertEquals(9500 * MS, t.admit(9000 * MS, PACKET));
  }

  @Test
  void aRateMustBePositive() {
    assertThrows(IllegalArgumentException.class, () -> new Throttle(0));
  }
}
