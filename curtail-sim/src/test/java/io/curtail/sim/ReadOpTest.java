package io.curtail.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A Curtail stream's reads, end to end on the smallest cluster: one client on dn0's host (so
 * the NameNode lists dn0 first) reads a file's four 1 MiB ranges by positional reads while dn0
 * stalls for 1.5 s from the start.
 */
class ReadOpTest {
  private static final long MS = 1_000_000L;

  private static Metrics preadsOfAStalledFirstReplica(long seed) {
    Setup s = new Setup(3, 1, 1, 1, true, 1, Workload.preadFiles(1),
        FaultPlan.dn0(Fault.Kind.STALLS), Hardware.datacentre(), 10_000 * MS, 0, seed, 0);
    return new Simulation(s, Mode.CURTAIL, Policy.defaults()).run();
  }

  @Test
  void aHedgeThatOvertookARangeSendsTheNextElsewhere() {
    Metrics m = preadsOfAStalledFirstReplica(1);
    assertEquals(1, m.count(Metrics.Op.PREAD));
    // Range 1 begins on dn0, stalled; nothing is known, so its first packet waits the 500 ms
    // bootstrap (looked at again every 5 ms, as the JVM may learn meanwhile) and is hedged to
    // dn1, which wins: the rest of the range comes from dn1, and dn0 is read last for 16
    // packets. Range 2 begins 15 packets later, on dn1, not on the stalled dn0, where it
    // would wait the bootstrap again (a client that has read 16 packets of one other DataNode
    // is still cold). Range 3, 32 packets on, tries dn0 again (nothing judges it slow: one
    // start), now hedged at the 25 ms floor; range 4 goes to dn1 again.
    assertEquals(2, m.hedgesWon());
    double ms = m.quantileMs(Metrics.Op.PREAD, 1);
    assertTrue(ms > 525 && ms < 600, "one bootstrap wait, one at the floor: " + ms + " ms");
  }
}
