package io.curtail.datanode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.datanode.fault.DiskFault;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class DataNodeSetupTest {
  private static final String PLUGIN = "io.curtail.datanode.hook.CurtailDataNodePlugin";

  @Test
  void addsThePluginOnceKeepingOthers() {
    Configuration conf = new Configuration(false);
    conf.set("dfs.datanode.plugins", "com.example.Other");
    DataNodeSetup.apply(conf);
    DataNodeSetup.apply(conf);
    assertEquals("com.example.Other," + PLUGIN, conf.get("dfs.datanode.plugins"));
    assertEquals(PLUGIN, DataNodeSetup.apply(new Configuration(false)).get("dfs.datanode.plugins"));
  }

  @Test
  void faultInjectionIsOffUnlessTurnedOn() {
    Configuration conf = DataNodeSetup.apply(new Configuration(false));
    assertFalse(DataNodeKeys.faultInjection(conf));
    conf.setLong(DataNodeKeys.STALL_EVERY_MS, 4000);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DataNodeKeys.diskFault(conf));
    assertEquals(DataNodeKeys.STALL_EVERY_MS + " asks for a fault but "
        + DataNodeKeys.FAULT_INJECTION + " is false; set it to true to inject faults on this"
        + " DataNode", e.getMessage());
    assertTrue(DataNodeKeys.faultInjection(DataNodeSetup.withFaultInjection(conf)));
    assertEquals(PLUGIN, conf.get("dfs.datanode.plugins"));
  }

  @Test
  void diskFaultFromKeys() {
    Configuration conf = DataNodeSetup.withFaultInjection(new Configuration(false));
    assertNull(DataNodeKeys.diskFault(conf));
    conf.setLong(DataNodeKeys.DISK_SERVICE_MICROS, 2500);
    conf.setDouble(DataNodeKeys.DISK_UTILISATION, 0.5);
    conf.set(DataNodeKeys.DISK_ACCESSES, "writes, Reads");
    DiskFault f = DataNodeKeys.diskFault(conf);
    assertEquals(2_500_000, f.serviceNanos());
    assertEquals(0.5, f.utilisation());
    assertTrue(f.reads());
    assertTrue(f.slows(DiskFault.Access.WRITES));
    assertFalse(f.slows(DiskFault.Access.OPENS));
  }

  @Test
  void stallsFromKeys() {
    Configuration conf = DataNodeSetup.withFaultInjection(new Configuration(false));
    conf.setLong(DataNodeKeys.STALL_EVERY_MS, 4000);
    conf.setLong(DataNodeKeys.STALL_FOR_MS, 1500);
    DiskFault f = DataNodeKeys.diskFault(conf);
    assertTrue(f.stalls());
    assertEquals(1_500_000_000L, f.serviceNanos());
    assertTrue(f.slows(DiskFault.Access.OPENS) && f.reads() && f.slows(DiskFault.Access.WRITES));
    conf.set(DataNodeKeys.DISK_ACCESSES, "opens");
    assertFalse(DataNodeKeys.diskFault(conf).reads());
  }

  @Test
  void badKeysNameTheKey() {
    Configuration conf = DataNodeSetup.withFaultInjection(new Configuration(false));
    conf.setLong(DataNodeKeys.DISK_SERVICE_MICROS, -1);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DataNodeKeys.diskFault(conf));
    assertTrue(e.getMessage().startsWith(DataNodeKeys.DISK_SERVICE_MICROS), e.getMessage());
    conf.setLong(DataNodeKeys.DISK_SERVICE_MICROS, 10);
    conf.setDouble(DataNodeKeys.DISK_UTILISATION, 1.0);
    e = assertThrows(IllegalArgumentException.class, () -> DataNodeKeys.diskFault(conf));
    assertTrue(e.getMessage().startsWith(DataNodeKeys.DISK_UTILISATION), e.getMessage());
    conf.setDouble(DataNodeKeys.DISK_UTILISATION, 0);
    conf.set(DataNodeKeys.DISK_ACCESSES, "writes,seeks");
    e = assertThrows(IllegalArgumentException.class, () -> DataNodeKeys.diskFault(conf));
    assertTrue(e.getMessage().startsWith(DataNodeKeys.DISK_ACCESSES + "=writes,seeks: unknown"
        + " disk access 'seeks'"), e.getMessage());
    conf.unset(DataNodeKeys.DISK_ACCESSES);
    conf.setLong(DataNodeKeys.STALL_EVERY_MS, 1000);
    e = assertThrows(IllegalArgumentException.class, () -> DataNodeKeys.diskFault(conf));
    assertTrue(e.getMessage().contains("not both"), e.getMessage());
    conf.unset(DataNodeKeys.DISK_SERVICE_MICROS);
    conf.setLong(DataNodeKeys.STALL_FOR_MS, 2000);
    e = assertThrows(IllegalArgumentException.class, () -> DataNodeKeys.diskFault(conf));
    assertTrue(e.getMessage().startsWith(DataNodeKeys.STALL_FOR_MS + "=2000"), e.getMessage());
  }
}
