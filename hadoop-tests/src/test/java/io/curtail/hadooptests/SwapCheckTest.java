package io.curtail.hadooptests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Test;

/**
 * A run is what it says: Hadoop's tests get their file system as this test does (a
 * {@code MiniDFSCluster} built from {@code new HdfsConfiguration()}, which loads the run's
 * hdfs-site.xml), so in the Curtail run they must get Curtail's file system and streams, and in
 * the stock run stock's. Without this a Curtail run that silently fell back to stock would pass
 * every test and prove nothing.
 */
class SwapCheckTest {
  private static final String MODE = System.getProperty("curtail.hadoop-tests.mode", "unset");

  @Test
  void hadoopsTestsGetTheFileSystemAndStreamsOfThisRun() throws IOException {
    boolean curtail = "curtail".equals(MODE);
    String fsClass = curtail ? "io.curtail.client.CurtailDistributedFileSystem"
        : "org.apache.hadoop.hdfs.DistributedFileSystem";
    HdfsConfiguration conf = new HdfsConfiguration();
    assertEquals(curtail ? fsClass : null, conf.get("fs.hdfs.impl"),
        "fs.hdfs.impl from the hdfs-site.xml of run " + MODE);
    // Hadoop's test hdfs-site.xml setting, carried by both runs: its tests write tiny blocks.
    assertEquals("0", conf.get("dfs.namenode.fs-limits.min-block-size"));

    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    try {
      FileSystem fs = cluster.getFileSystem();
      assertEquals(fsClass, fs.getClass().getName(), "the file system of run " + MODE);
      byte[] data = new byte[200_000];
      new Random(32).nextBytes(data);
      Path p = new Path("/swap-check");
      try (FSDataOutputStream out = fs.create(p)) {
        assertEquals(curtail, isCurtails(out.getWrappedStream()),
            "output stream " + out.getWrappedStream().getClass().getName() + " in run " + MODE);
        out.write(data);
      }
      byte[] back = new byte[data.length];
      try (FSDataInputStream in = fs.open(p)) {
        assertEquals(curtail, isCurtails(in.getWrappedStream()),
            "input stream " + in.getWrappedStream().getClass().getName() + " in run " + MODE);
        in.readFully(0, back);
        in.seek(data.length);
        assertEquals(-1, in.read(), "a read at the end");
      }
      assertArrayEquals(data, back, "what was written, read back");
    } finally {
      cluster.shutdown();
    }
  }

  private static boolean isCurtails(Object stream) {
    return stream.getClass().getName().startsWith("io.curtail.");
  }
}
