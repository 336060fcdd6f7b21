package io.curtail.hbase;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** One line of Curtail's per-block statistics ({@code curtail.stats.dir}), as far as read here. */
record StatsRecord(String file, boolean isBlock, String direction, String stream, long bytes) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Every record in the statistics files of {@code dir}. */
  static List<StatsRecord> in(Path dir) throws IOException {
    List<StatsRecord> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files.sorted()::iterator) {
        for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
          JsonNode r = JSON.readTree(line);
          out.add(new StatsRecord(r.get("file").asText(),
              r.get("level").asText().equals("block"), r.get("dir").asText(),
              r.get("stream").asText(), r.get("bytes").asLong()));
        }
      }
    }
    return out;
  }
}
