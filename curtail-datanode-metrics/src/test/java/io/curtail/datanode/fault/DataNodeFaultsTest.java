package io.curtail.datanode.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Which of a DataNode's hooks each fault slows: counted, with delays of a nanosecond on a clock
 * that moves a nanosecond each time it is read (so a wait ends at once) and as the test says.
 */
class DataNodeFaultsTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final List<Boolean> intercepted = new ArrayList<>();
  private final DataNodeFaults faults = new DataNodeFaults("127.0.0.1:1", now::incrementAndGet,
      (f, on) -> intercepted.add(on));

  @Test
  void aLinkSlowsForwardingToItsPeerOnlyAndNoReads() {
    faults.slowNet(NetFault.link("127.0.0.1:2", Duration.ofNanos(1)));
    faults.awaitForward("127.0.0.1:3");
    faults.awaitSend(65536);
    assertEquals(0, faults.getDelayedForwards() + faults.getDelayedSends());
    faults.awaitForward("127.0.0.1:2");
    assertEquals(1, faults.getDelayedForwards());
    assertTrue(intercepted.isEmpty(), "reads not intercepted for a link between DataNodes");
  }

  @Test
  void aNicSlowsForwardingToAnyPeerAndReads() {
    faults.slowNet(NetFault.nic(Duration.ofNanos(1)));
    faults.awaitForward("127.0.0.1:2");
    faults.awaitForward("127.0.0.1:3");
    faults.awaitSend(65536);
    assertEquals(2, faults.getDelayedForwards());
    assertEquals(1, faults.getDelayedSends());
    assertEquals(0, faults.getStarvedSteps() + faults.getDelayedWrites());
    faults.heal();
    assertEquals(List.of(true, false), intercepted);
  }

  @Test
  void aStarvedCpuSlowsEveryStepButNotTheNetwork() {
    faults.starveCpu(CpuStarvation.of(Duration.ofNanos(1), 0));
    faults.awaitCpu();
    faults.awaitSend(65536);
    faults.awaitForward("127.0.0.1:2");
    assertEquals(2, faults.getStarvedSteps());
    assertEquals(0, faults.getDelayedForwards() + faults.getDelayedSends());
    assertEquals("CpuStarvation{meanUs=0, jitter=0.0}", faults.getFaults());
  }

  @Test
  void flappingTurnsEveryFaultOnAndOffTogether() {
    faults.flap(Flapping.of(Duration.ofSeconds(2), Duration.ofSeconds(2)));
    faults.slowNet(NetFault.nic(Duration.ofNanos(1)));
    faults.starveCpu(CpuStarvation.of(Duration.ofNanos(1), 0));
    faults.awaitForward("127.0.0.1:2");
    faults.awaitCpu();
    now.addAndGet(2_000_000_000L); // the healthy spell
    faults.awaitForward("127.0.0.1:2");
    faults.awaitCpu();
    assertEquals(1, faults.getDelayedForwards());
    assertEquals(1, faults.getStarvedSteps());
    now.addAndGet(2_000_000_000L); // slow again
    faults.awaitForward("127.0.0.1:2");
    assertEquals(2, faults.getDelayedForwards());
    faults.heal();
    assertEquals("none", faults.getFaults());
    assertFalse(faults.flapping() != null);
  }
}
