package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.read.CurtailInputStream;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.FaultyClusterExtension;
import io.curtail.testcluster.SeededData;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.ReadStatistics;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Legacy short-circuit reads on in the client, but a DataNode that lets nobody read its block
 * files ({@code dfs.block.local-path-access.user} unset): Hadoop's local reader is refused the
 * file's path, and the read must go over TCP through Curtail's own reader, as stock's falls back
 * to its TCP reader. A cluster of its own, as Hadoop keeps the DataNode's answer about paths per
 * JVM and DataNode port.
 */
class ShortCircuitFallbackTest {
  private static final long LENGTH = 2L * 1024 * 1024 + 777;
  @RegisterExtension
  static final FaultyClusterExtension CLUSTER = new FaultyClusterExtension(b -> b.dataNodes(1)
      .blockSize(1024 * 1024)
      .set("dfs.client.read.shortcircuit", "true")
      .set("dfs.client.use.legacy.blockreader.local", "true"));

  @Test
  void aBlockFileTheDataNodeWillNotNameIsReadOverTcp() throws Exception {
    FaultyCluster c = CLUSTER.cluster();
    Path p = new Path("/short-circuit/refused");
    SeededData.create(CLUSTER.stock(), p, 53, LENGTH);
    Map<String, String> settings = new HashMap<>();
    // A context of its own: one where a local read failed has legacy reads turned off.
    settings.put("dfs.client.context", "short-circuit-fallback-test");
    try (CurtailDistributedFileSystem fs = c.curtailFileSystem(settings);
        FSDataInputStream in = fs.open(p)) {
      assertTrue(in.getWrappedStream() instanceof CurtailInputStream);
      long servedBefore = c.bytesServed();
      SeededData.verify(in, 53, LENGTH, "a read whose local reader was refused");
      ReadStatistics stats = ((HdfsDataInputStream) in).getReadStatistics();
      assertEquals(0, stats.getTotalShortCircuitBytesRead());
      assertEquals(LENGTH, stats.getTotalBytesRead());
      long served = c.bytesServed() - servedBefore; // with the chunks' checksums it sent too
      assertTrue(served >= LENGTH, "the DataNode served " + served + " bytes of " + LENGTH);
    }
  }
}
