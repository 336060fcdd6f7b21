package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.SeededData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;

/**
 * Applications hold many file systems they rarely use (HBase keeps several, a Spark driver one
 * per user): an idle Curtail file system must cost them what an idle stock one does. Each file
 * system here writes and reads a file, so every timer it has has run once, then all sit idle while
 * the kernel counts how often the client's threads (named {@code curtail-…}) woke.
 */
class IdleCostTest {
  private static final int FILE_SYSTEMS = 100;
  private static final long IDLE_MS = 2000;

  @Test
  void idleFileSystemsWakeNoThread() throws Exception {
    assumeTrue(Files.isDirectory(Paths.get("/proc/self/task")), "needs Linux's /proc");
    try (FaultyCluster c = FaultyCluster.builder().dataNodes(1).build()) {
      org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/idle/file");
      List<FileSystem> stock = new ArrayList<>();
      for (int i = 0; i < FILE_SYSTEMS; i++) {
        stock.add(FileSystem.newInstance(c.uri(), c.conf()));
      }
      SeededData.create(stock.get(0), p, 3, 70_000);
      for (FileSystem fs : stock) {
        SeededData.verify(fs, p, 3, 70_000);
      }
      long stockWakes = wakes("", IDLE_MS);
      for (FileSystem fs : stock) {
        fs.close();
      }

      List<CurtailDistributedFileSystem> curtail = new ArrayList<>();
      try {
        for (int i = 0; i < FILE_SYSTEMS; i++) {
          CurtailDistributedFileSystem fs = c.curtailFileSystem(Collections.emptyMap());
          curtail.add(fs);
          SeededData.create(fs, new org.apache.hadoop.fs.Path("/idle/" + i), i, 70_000);
          SeededData.verify(fs, new org.apache.hadoop.fs.Path("/idle/" + i), i, 70_000);
        }
        Thread.sleep(200); // let the last acks and closes settle
        long curtailThreadWakes = wakes("curtail-", IDLE_MS);
        long curtailWakes = wakes("", IDLE_MS);
        System.out.printf("idle %d file systems for %d ms: whole JVM woke %d times with stock's,"
            + " %d with Curtail's; Curtail's own threads %d%n", FILE_SYSTEMS, IDLE_MS,
            stockWakes, curtailWakes, curtailThreadWakes);
        assertEquals(0, curtailThreadWakes, "Curtail's threads woke while every stream was closed");
      } finally {
        for (FileSystem fs : curtail) {
          fs.close();
        }
      }
    }
  }

  /**
   * Context switches, voluntary and not, of this JVM's threads whose name starts with
   * {@code prefix} (the kernel keeps the first 15 characters), over {@code ms}.
   */
  private static long wakes(String prefix, long ms) throws IOException, InterruptedException {
    java.util.Map<String, Long> before = switches(prefix);
    Thread.sleep(ms);
    java.util.Map<String, Long> after = switches(prefix);
    long sum = 0;
    for (java.util.Map.Entry<String, Long> e : after.entrySet()) {
      Long was = before.get(e.getKey());
      if (was != null) { // a thread born during the window is not an idle thread's wake
        sum += e.getValue() - was;
      }
    }
    return sum;
  }

  private static java.util.Map<String, Long> switches(String prefix) throws IOException {
    java.util.Map<String, Long> out = new java.util.HashMap<>();
    try (Stream<Path> tasks = Files.list(Paths.get("/proc/self/task"))) {
      for (Path t : (Iterable<Path>) tasks::iterator) {
        try {
          String name = new String(Files.readAllBytes(t.resolve("comm"))).trim();
          if (!name.startsWith(prefix)) {
            continue;
          }
          long n = 0;
          for (String line : Files.readAllLines(t.resolve("status"))) {
            if (line.startsWith("voluntary_ctxt_switches:")
                || line.startsWith("nonvoluntary_ctxt_switches:")) {
              n += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
          }
          out.put(t.getFileName().toString(), n);
        } catch (IOException gone) {
          // the thread ended while we looked
        }
      }
    }
    return out;
  }
}
