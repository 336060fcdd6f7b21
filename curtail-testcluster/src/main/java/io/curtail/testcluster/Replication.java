package io.curtail.testcluster;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Waits for a file's replicas on any cluster, a {@link FaultyCluster} or not (one of separate
 * processes, say): after a file is closed, the replicas beyond the first reach the NameNode with
 * the DataNodes' next block reports.
 */
public final class Replication {
  private Replication() {
  }

  /**
   * Waits until the NameNode lists {@code replicas} replicas of every block of {@code path}, at
   * most 30 s.
   */
  public static void await(FileSystem fs, Path path, int replicas) throws IOException {
    await(fs, path, replicas, Duration.ofSeconds(30));
  }

  /** {@link #await(FileSystem, Path, int)}, at most {@code patience}. */
  public static void await(FileSystem fs, Path path, int replicas, Duration patience)
      throws IOException {
    Await.until(patience, 50, () -> {
      List<Integer> counts = new ArrayList<>();
      for (BlockLocation b : fs.getFileBlockLocations(path, 0, fs.getFileStatus(path).getLen())) {
        counts.add(b.getNames().length);
      }
      return counts.stream().allMatch(n -> n >= replicas)
          ? null : path + " has not reached " + replicas + " replicas: " + counts + " per block";
    });
  }
}
