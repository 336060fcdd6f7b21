package io.curtail.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The FIFO identity on hand-worked cases: departure = max(arrival, previous departure) + service. */
class FifoTest {
  @Test
  void oneServerQueuesWhatArrivesWhileBusy() {
    Fifo f = new Fifo();
    assertEquals(15, f.serve(10, 5), "idle: starts at once, 10 + 5");
    assertEquals(22, f.serve(12, 7), "arrives at 12 while busy until 15: 15 + 7");
    assertEquals(25, f.serve(22, 3), "arrives as the last leaves: 22 + 3");
    assertEquals(104, f.serve(100, 4), "idle again: 100 + 4");
    assertEquals(19, f.busyNanos());
    assertEquals(4, f.served());
    assertEquals(3, f.backlog(101), "at 101 a newcomer would wait until 104");
    assertEquals(0, f.backlog(104));
  }

  @Test
  void twoServersTakeWhicheverIsFreeFirst() {
    Fifo f = new Fifo(2);
    assertEquals(10, f.serve(0, 10), "server A: 0..10");
    assertEquals(4, f.serve(0, 4), "server B: 0..4");
    assertEquals(7, f.serve(1, 3), "B free first, at 4: 4..7");
    assertEquals(12, f.serve(2, 5), "B free at 7, before A at 10: 7..12");
    assertEquals(13, f.serve(2, 3), "A free at 10: 10..13");
  }

  @Test
  void aStallHoldsWhatHasNotStarted() {
    Fifo f = new Fifo();
    assertEquals(5, f.serve(0, 5));
    f.stallUntil(50);
    assertEquals(52, f.serve(10, 2), "arrives at 10 during the stall: starts at 50");
    f.stallUntil(40);
    assertEquals(54, f.serve(52, 2), "a stall already over changes nothing");
  }

  @Test
  void workInASlowSpellAdvancesAtItsSpeed() {
    Fifo f = new Fifo();
    f.slowIn(new long[] {10, 100}, new long[] {20, 110}, 0.5);
    assertEquals(4, f.serve(0, 4), "before the spell: 0..4");
    // 5 ns of work until the spell at 10, then 5 left at half speed: 10 ns, ending at 20.
    assertEquals(20, f.serve(5, 10));
    // All of it in the spell's second half would take 12 ns; 5 ns of work fit in 20..30? No:
    // the spell ended at 20, so from 20 at full speed: 20..26.
    assertEquals(26, f.serve(20, 6));
    // Across a whole spell: 70 ns of work until 100, the spell's 10 ns do 5, the last 5 after
    // it: 110..115.
    assertEquals(115, f.serve(30, 80));
  }

  @Test
  void aRequestStartingBeforeTheLastOneStillSeesItsSpell() {
    Fifo f = new Fifo(2);
    f.slowIn(new long[] {10}, new long[] {20}, 0.25);
    assertEquals(30, f.serve(25, 5), "server A, after the spell: 25..30");
    // Server B starts at 12, in the spell: 8 ns there do 2 ns of work, the other 2 after 20.
    assertEquals(22, f.serve(12, 4));
  }

  @Test
  void spellsMustBeInOrderAndApart() {
    Fifo f = new Fifo();
    assertThrows(IllegalArgumentException.class,
        () -> f.slowIn(new long[] {10, 15}, new long[] {20, 30}, 0.5));
    assertThrows(IllegalArgumentException.class,
        () -> f.slowIn(new long[] {10}, new long[] {20}, 0));
  }

  @Test
  void serviceTimesComeFromTheRatesAndOverheads() {
    // 64 KiB at 200 MB/s is 327,680 ns, plus 100,000 ns overhead; on the wire at 1.25 GB/s,
    // 52,428 ns plus 20,000.
    Hardware hw = new Hardware(200_000_000L, 100_000L, 1_250_000_000L, 20_000L, 50_000L, 0, 0, 0);
    assertEquals(427_680, hw.diskNanos(65_536));
    assertEquals(72_428, hw.netNanos(65_536));
  }

  @Test
  void aHealthyDataNodeReadsThenSends() {
    Hardware hw = new Hardware(200_000_000L, 100_000L, 1_250_000_000L, 20_000L, 50_000L, 0, 0, 0);
    DataNode dn = new DataNode(0, 0, hw, new long[1], null, 1);
    assertEquals(427_680 + 72_428, dn.read(0, 65_536), "disk 0..427,680, then the wire");
    // a second read at 0 waits for the disk (until 427,680), then for the wire (free at
    // 500,108 when its disk part ends at 855,360)
    assertEquals(855_360 + 72_428, dn.read(0, 65_536));
  }

  @Test
  void aSlowDiskIsAFifoAtTenMillisecondsAPacketFromItsOnset() {
    Hardware hw = new Hardware(200_000_000L, 100_000L, 1_250_000_000L, 20_000L, 50_000L, 0, 0, 0);
    DataNode dn = new DataNode(0, 0, hw, new long[1], null, 1);
    dn.fault(Fault.slowDisk(1_000, 1_000_000_000L));
    assertEquals(500_108, dn.write(0, 65_536), "before the onset: in at 72,428, written + 427,680");
    assertEquals(72_428, dn.lastReceived);
    assertEquals(10_500_108, dn.write(2_000, 65_536),
        "after it: in at 144,856 (the wire busy until 72,428), the disk free at 500,108, + 10 ms");
    assertEquals(144_856, dn.lastReceived);
    assertEquals(20_500_108, dn.write(3_000, 65_536), "and the next waits its turn: + 10 ms");
  }

  @Test
  void aThrottledDataNodeSendsAPeriodsShareThenWaits() {
    Hardware hw = new Hardware(200_000_000L, 100_000L, 1_250_000_000L, 20_000L, 50_000L, 0, 0, 0);
    DataNode dn = new DataNode(0, 0, hw, new long[1], null, 1);
    dn.fault(Fault.throttled(0, 10_000_000_000L));
    // At 2 MiB/s Hadoop's throttler lets 1 MiB (16 packets) through per 500 ms: the first
    // packet leaves as a healthy one would, disk 427,680 then wire 72,428.
    assertEquals(427_680 + 72_428, dn.read(0, 65_536));
    long last = 0;
    for (int i = 1; i < 16; i++) {
      last = dn.read(0, 65_536);
    }
    assertEquals(16 * 427_680 + 72_428, last, "the share's last: the disk's 16th turn, then out");
    // The 17th is read and sent on the wire by 17 x 427,680 + 72,428, then waits for the
    // throttle's next period, which began with its first packet at 500,108.
    assertEquals(500_108 + 500_000_000, dn.read(0, 65_536));
  }

  @Test
  void aStallingDiskStopsForItsStallThenServes() {
    Hardware hw = new Hardware(200_000_000L, 100_000L, 1_250_000_000L, 20_000L, 50_000L, 0, 0, 0);
    DataNode dn = new DataNode(0, 0, hw, new long[1], null, 1);
    dn.fault(Fault.stalls(0, 100_000_000_000L)); // 1.5 s every 4 s from 0
    assertEquals(1_500_000_000L + 427_680 + 72_428, dn.read(1_000_000_000L, 65_536),
        "asked 1 s into a stall: served when it ends at 1.5 s");
    assertEquals(2_000_000_000L + 427_680 + 72_428, dn.read(2_000_000_000L, 65_536),
        "between stalls: at once");
  }
}
