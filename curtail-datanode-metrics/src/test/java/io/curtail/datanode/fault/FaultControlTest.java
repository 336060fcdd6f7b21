package io.curtail.datanode.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The command-line fault controls against a fault bean registered as the plugin registers it,
 * in this JVM's MBean server (the attach step is the JDK's; the launcher test runs it for real).
 */
class FaultControlTest {
  private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
  private final DataNodeFaults faults = new DataNodeFaults("127.0.0.1:1", System::nanoTime,
      (f, on) -> { });
  private ObjectName name;

  @BeforeEach
  void register() throws Exception {
    name = new ObjectName("Hadoop:service=DataNode,name=CurtailFaults-1");
    server.registerMBean(faults, name);
  }

  @AfterEach
  void unregister() throws Exception {
    server.unregisterMBean(name);
  }

  @Test
  void eachOperationReachesTheDataNodesFaults() throws Exception {
    assertEquals("none", FaultControl.control(server, "show"));
    FaultControl.control(server, "slowOpens", "40000");
    assertEquals(40_000, faults.getDiskServiceMicros());
    FaultControl.control(server, "stall", "4000", "1500");
    assertEquals(1500, faults.getStallMillis());
    FaultControl.control(server, "slowDisk", "10000", "0", "true");
    assertEquals(10_000, faults.getDiskServiceMicros());
    assertTrue(faults.isDiskSlowingReads());
    assertTrue(FaultControl.control(server, "fill").endsWith(", disk full"));
    FaultControl.control(server, "slowNic", "2000000");
    assertEquals(2_000_000, faults.net().bytesPerSecond());
    FaultControl.control(server, "delayLink", "10.0.0.3:9866", "20000");
    assertEquals("10.0.0.3:9866", faults.net().peer());
    assertEquals(20_000_000, faults.net().perPacketNanos());
    FaultControl.control(server, "starveCpu", "5000", "0.5");
    assertEquals(5_000_000, faults.cpu().meanNanos());
    assertTrue(FaultControl.control(server, "flap", "2000", "3000").endsWith(
        "Flapping{slowMs=2000, healthyMs=3000}"));
    assertEquals("none", FaultControl.control(server, "heal"));
  }

  @Test
  void badInputIsNamed() {
    assertMessage("unknown operation 'slow'", "slow");
    assertMessage("slowOpens takes 1 argument(s), got 0", "slowOpens");
    assertMessage("SERVICE_US must be a whole number above 0, was 'ten'", "slowOpens", "ten");
    assertMessage("UTILISATION (the disk's background load) must be in [0, 1), was '1'",
        "slowDisk", "10", "1", "true");
    assertMessage("READS must be true or false, was 'yes'", "slowDisk", "10", "0", "yes");
    assertMessage("FOR_MS must be a whole number above 0, was '-1'", "stall", "4000", "-1");
    assertMessage("PEER must be the peer DataNode's transfer address ip:port", "slowLink", "dn1",
        "1000");
    assertMessage("JITTER (the spread of each delay around the mean) must be in [0, 1], was '2'",
        "starveCpu", "1000", "2");
    assertEquals("none", faults.getDiskFault(), "nothing injected by bad input");
  }

  private void assertMessage(String expected, String... args) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FaultControl.control(server, args));
    assertTrue(e.getMessage().startsWith(expected), e.getMessage());
  }
}
