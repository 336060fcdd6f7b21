package io.curtail.bench.blame;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.testcluster.FaultyCluster;
import io.curtail.testcluster.InjectedFaults;
import io.curtail.tools.blame.Blame;
import io.curtail.tools.blame.Incident;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;

/**
 * The per-block statistics of one Curtail batch, written to a directory of their own and
 * labelled, once its file systems are closed, against the faults injected meanwhile
 * ({@link Blame}). The directory keeps them, with the incidents as a labels file
 * ({@code incidents.txt}), so that {@code stats DIR --labels DIR/incidents.txt} gives the same
 * row and the records can be looked into. The statistics are written off the data path, so a batch measured with them
 * costs what one without does (what {@code curtail-stats} against {@code curtail} shows).
 */
public final class BlameRecords {
  private BlameRecords() {
  }

  /**
   * Sends the statistics of a batch configured by {@code conf} to {@code dir} (made), returned,
   * if it is Curtail's, {@code measured}, and writes none elsewhere; else null.
   */
  public static Path direct(Configuration conf, boolean measured, Path dir) throws IOException {
    if (!measured || conf.get("curtail.stats.dir") != null
        || !CurtailDistributedFileSystem.class.getName().equals(conf.get("fs.hdfs.impl"))) {
      return null;
    }
    Files.createDirectories(dir);
    conf.set("curtail.stats.dir", dir.toString());
    return dir;
  }

  /** Deletes {@code dir}, the statistics and incidents {@link #label} left in it. */
  public static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.delete(f);
      }
    }
    Files.delete(dir);
  }

  /**
   * Every fault injected on {@code cluster} so far, as incidents to label decisions against. A
   * fault on a DataNode that flaps is an incident in each slow spell only
   * ({@link Incident#spells}): a replacement of it in a healthy spell took out a DataNode that
   * was not slow then, and is counted wrong.
   */
  public static List<Incident> incidents(FaultyCluster cluster) {
    List<InjectedFaults.Entry> all = cluster.injected();
    long now = System.currentTimeMillis(); // the spells of a flapping still on: up to now
    List<Incident> out = new ArrayList<>();
    for (InjectedFaults.Entry e : all) {
      if (e.flapping()) {
        continue; // not a fault: when the others act
      }
      Incident steady = new Incident(e.dataNodes(), e.fromMillis(), e.toMillis(), e.sendsOnly());
      InjectedFaults.Entry flap = null;
      for (InjectedFaults.Entry f : all) {
        if (f.flapping() && f.dataNodes().equals(e.dataNodes()) && steady.overlaps(f.fromMillis(),
            f.toMillis())) {
          flap = f;
        }
      }
      if (flap == null) {
        out.add(steady);
      } else {
        out.addAll(steady.spells(flap.fromMillis(), Math.min(flap.toMillis(), now),
            flap.slowMillis(), flap.healthyMillis()));
      }
    }
    return out;
  }

  /**
   * The records in {@code dir} labelled against {@code incidents}, which are written beside them
   * ({@code incidents.txt}); null for no directory.
   */
  public static Blame label(Path dir, List<Incident> incidents) throws IOException {
    if (dir == null) {
      return null;
    }
    Blame blame = new Blame(incidents);
    ObjectMapper json = new ObjectMapper();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".jsonl"))
          .sorted()::iterator) {
        try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (!line.isEmpty()) {
              blame.add(json.readTree(line));
            }
          }
        }
      }
    }
    List<String> labels = new ArrayList<>();
    labels.add("# the faults injected on the cluster until this batch ended");
    incidents.forEach(i -> labels.add(i.toLabel()));
    Files.write(dir.resolve("incidents.txt"), labels, StandardCharsets.UTF_8);
    return blame;
  }
}
