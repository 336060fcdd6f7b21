package io.curtail.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The per-block statistics records ({@code curtail.stats.dir}) the tests read back. */
final class StatsRecords {
  private static final ObjectMapper JSON = new ObjectMapper();

  private StatsRecords() {
  }

  /** Every record in the statistics files of {@code dir}, file by file in name order. */
  static List<JsonNode> in(Path dir) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files.sorted()::iterator) {
        for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
          out.add(JSON.readTree(line));
        }
      }
    }
    return out;
  }

  /** Whether {@code r} is the record of one block (not of a whole file) read or written. */
  static boolean ofBlock(JsonNode r, String direction) {
    return r.get("level").asText().equals("block") && r.get("dir").asText().equals(direction);
  }
}
