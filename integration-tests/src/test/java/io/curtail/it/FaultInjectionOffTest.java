package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.datanode.DataNodeSetup;
import io.curtail.datanode.hook.CurtailDataNodePlugin;
import io.curtail.testcluster.SeededData;
import java.io.File;
import java.lang.management.ManagementFactory;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DataNode that runs Curtail's plugin as a production one would, for its ack reports, with no
 * fault-injection setting: it reports as usual, but no JMX client (nor code in its JVM) can slow
 * its disk, and a fault asked for in its configuration is refused rather than quietly injected.
 */
class FaultInjectionOffTest {
  @TempDir
  File dir;

  @Test
  void aProductionDataNodeReportsButCannotBeSlowed() throws Exception {
    Configuration conf = DataNodeSetup.apply(new HdfsConfiguration());
    try (MiniDFSCluster c = new MiniDFSCluster.Builder(conf, dir).numDataNodes(1).build();
        DistributedFileSystem fs = c.getFileSystem()) {
      DataNode dn = c.getDataNodes().get(0);
      Path p = new Path("/off/file");
      SeededData.create(fs, p, 7, 1024 * 1024 + 3);
      SeededData.verify(fs, p, 7, 1024 * 1024 + 3);

      CurtailDataNodePlugin.reportsOf(dn); // the plugin runs
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> CurtailDataNodePlugin.faultsOf(dn));
      assertTrue(e.getMessage().startsWith("fault injection is off on DataNode"), e.getMessage());
      assertEquals(0, ManagementFactory.getPlatformMBeanServer().queryNames(
          new ObjectName("Hadoop:service=DataNode,name=CurtailFaults-*"), null).size());
      assertEquals(1, ManagementFactory.getPlatformMBeanServer().queryNames(
          new ObjectName("Hadoop:service=DataNode,name=CurtailReports-*"), null).size());
    }
  }
}
