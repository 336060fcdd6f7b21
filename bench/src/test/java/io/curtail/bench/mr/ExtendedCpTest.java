package io.curtail.bench.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.SeededData;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;

/** The workload as a MapReduce job, run by Hadoop's LocalJobRunner against a real MiniDFSCluster. */
class ExtendedCpTest {
  @Test
  void writeThenReadWithOneMapPerClient() throws Exception {
    try (FaultyCluster cluster = FaultyCluster.builder().dataNodes(3).build()) {
      Configuration conf = cluster.conf();
      conf.set("fs.defaultFS", cluster.uri().toString());
      conf.set("mapreduce.framework.name", "local");
      conf.setInt("mapreduce.local.map.tasks.maximum", 2);
      String[] common = {"-clients", "3", "-files", "2", "-bytes", "300000", "-dir", "/ecp"};

      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertEquals(0, ToolRunner.run(conf, new ExtendedCp(new PrintStream(out, true, "UTF-8")),
          concat(new String[] {"-op", "write", "-mode", "stock"}, common)), out.toString("UTF-8"));
      assertTrue(out.toString("UTF-8").contains("6 files, 1800000 bytes, 1800000 verified"),
          out.toString("UTF-8"));

      out.reset();
      assertEquals(0, ToolRunner.run(conf, new ExtendedCp(new PrintStream(out, true, "UTF-8")),
          concat(new String[] {"-op", "pread", "-mode", "stock-hedged"}, common)),
          out.toString("UTF-8"));
      assertTrue(out.toString("UTF-8").contains("6 files, 1800000 bytes, 1800000 verified"),
          out.toString("UTF-8"));

      try (FileSystem fs = cluster.stockFileSystem()) {
        for (int c = 0; c < 3; c++) {
          for (int f = 0; f < 2; f++) {
            SeededData.verify(fs, ExtendedCp.dataFile(new Path("/ecp"), c, f),
                ExtendedCp.fileSeed(1, c, f), 300000);
          }
        }
      }
    }
  }

  @Test
  void badArgumentsGetUsage() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(2, ToolRunner.run(new Configuration(), new ExtendedCp(new PrintStream(out, true,
        "UTF-8")), new String[] {"-op", "copy", "-dir", "/x"}));
    assertTrue(out.toString("UTF-8").startsWith("ExtendedCP: -op must be write, read or pread,"
        + " was copy"), out.toString("UTF-8"));
  }

  private static String[] concat(String[] a, String[] b) {
    String[] r = new String[a.length + b.length];
    System.arraycopy(a, 0, r, 0, a.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}
