package io.curtail.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.curtail.bench.blame.Blame;
import io.curtail.bench.blame.Incident;
import io.curtail.client.CurtailDistributedFileSystem;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;

/**
 * The per-block statistics of one Curtail batch, written to a directory of their own and
 * labelled, once its file systems are closed, against the faults injected meanwhile
 * ({@link Blame}). The statistics are written off the data path, so a batch measured with them
 * costs what one without does (what {@code curtail-stats} against {@code curtail} shows).
 */
final class BlameRecords {
  private BlameRecords() {
  }

  /**
   * Sends the statistics of a batch configured by {@code conf} to a new directory, returned, if
   * it is Curtail's, {@code measured}, and writes none elsewhere; else null.
   */
  static Path direct(Configuration conf, boolean measured) throws IOException {
    if (!measured || conf.get("curtail.stats.dir") != null
        || !CurtailDistributedFileSystem.class.getName().equals(conf.get("fs.hdfs.impl"))) {
      return null;
    }
    Path dir = Files.createTempDirectory("curtail-blame-");
    conf.set("curtail.stats.dir", dir.toString());
    return dir;
  }

  /** The records in {@code dir} labelled against {@code incidents}; then deletes it. */
  static Blame label(Path dir, List<Incident> incidents) throws IOException {
    if (dir == null) {
      return null;
    }
    Blame blame = new Blame(incidents);
    ObjectMapper json = new ObjectMapper();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files.sorted()::iterator) {
        try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (!line.isEmpty()) {
              blame.add(json.readTree(line));
            }
          }
        }
        Files.delete(f);
      }
    }
    Files.delete(dir);
    return blame;
  }
}
