package io.curtail.compat33;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.client.write.CurtailOutputStream;
import io.curtail.testcluster.SeededData;
import java.io.File;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file Curtail holds open on a Hadoop 3.3.6 class path keeps its lease past the NameNode's soft
 * limit: only a renewal stops another client from taking it. On 3.3 the renewal met a 3.4-only
 * {@code renewLease} and died (#32): a file held open for 70 s lost its lease to another client's
 * append. A plain 3.3.6 MiniDFSCluster, its soft limit shortened, and the writer's RPC timeout
 * too, so that it renews as often as stock's would then.
 */
class LeaseOnHadoop33Test {
  /**
   * With RPCs timing out after 10 s, Curtail renews every 5 s (half of it, as stock's renewer),
   * so a renewed lease is never older than that: a soft limit above it expires only where nothing
   * renews.
   */
  private static final int RPC_TIMEOUT_MS = 10_000;
  private static final long SOFT_LIMIT_MS = 8_000;
  private static final long HARD_LIMIT_MS = 600_000; // the NameNode's monitor stays out of it
  /** Past the soft limit, whenever in the renewal period the file was opened. */
  private static final long HELD_OPEN_MS = 12_000;
  private static final int MIB = 1024 * 1024;

  @Test
  @Timeout(90)
  void aFileHeldOpenPastTheSoftLimitKeepsItsLease(@TempDir File dir) throws Exception {
    Configuration conf = new Configuration();
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, dir).numDataNodes(3).build();
    try {
      cluster.waitActive();
      cluster.setLeasePeriod(SOFT_LIMIT_MS, HARD_LIMIT_MS);
      Configuration curtail = new Configuration(cluster.getConfiguration(0));
      curtail.set("fs.hdfs.impl", CurtailDistributedFileSystem.class.getName());
      curtail.setInt("ipc.client.rpc-timeout.ms", RPC_TIMEOUT_MS);
      Configuration stock = new Configuration(cluster.getConfiguration(0));
      stock.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
      try (FileSystem fs = FileSystem.newInstance(cluster.getURI(), curtail);
          FileSystem other = FileSystem.newInstance(cluster.getURI(), stock)) {
        Path p = new Path("/held-open");
        FSDataOutputStream out = fs.create(p, (short) 3);
        assertTrue(out.getWrappedStream() instanceof CurtailOutputStream, "Curtail's own stream");
        SeededData.write(out, 4, MIB);
        out.hflush();
        Thread.sleep(HELD_OPEN_MS);

        // Within the soft limit the NameNode refuses; past it, it would take the lease from the
        // writer (a RecoveryInProgressException, or the append let through), and the writer's
        // close would then fail.
        IOException refused = assertThrows(IOException.class, () -> other.append(p).close(),
            "another client's append of a file whose lease was kept");
        assertEquals(AlreadyBeingCreatedException.class.getName(),
            refused instanceof RemoteException ? ((RemoteException) refused).getClassName()
                : refused.getClass().getName(), "the lease still held: " + refused);

        byte[] rest = new byte[MIB];
        SeededData.fill(4, MIB, rest, 0, rest.length);
        out.write(rest);
        out.close();
        assertEquals(2 * MIB, other.getFileStatus(p).getLen(), "length of " + p);
        SeededData.verify(other, p, 4, 2 * MIB);
      }
    } finally {
      cluster.shutdown();
    }
  }
}
