package io.curtail.datanode;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
  void diskFaultFromKeys() {
    Configuration conf = new Configuration(false);
    assertNull(DataNodeKeys.diskFault(conf));
    conf.setLong(DataNodeKeys.DISK_SERVICE_MICROS, 2500);
    conf.setDouble(DataNodeKeys.DISK_UTILISATION, 0.5);
    conf.setBoolean(DataNodeKeys.DISK_READS, true);
    DiskFault f = DataNodeKeys.diskFault(conf);
    assertEquals(2_500_000, f.serviceNanos());
    assertEquals(0.5, f.utilisation());
    assertTrue(f.reads());
  }

  @Test
  void badKeysNameTheKey() {
    Configuration conf = new Configuration(false);
    conf.setLong(DataNodeKeys.DISK_SERVICE_MICROS, -1);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DataNodeKeys.diskFault(conf));
    assertTrue(e.getMessage().startsWith(DataNodeKeys.DISK_SERVICE_MICROS), e.getMessage());
    conf.setLong(DataNodeKeys.DISK_SERVICE_MICROS, 10);
    conf.setDouble(DataNodeKeys.DISK_UTILISATION, 1.0);
    e = assertThrows(IllegalArgumentException.class, () -> DataNodeKeys.diskFault(conf));
    assertTrue(e.getMessage().startsWith(DataNodeKeys.DISK_UTILISATION), e.getMessage());
  }
}
