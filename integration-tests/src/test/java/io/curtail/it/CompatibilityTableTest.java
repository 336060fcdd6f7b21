package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The compatibility tables (the README's short one and docs/compatibility.md's full one) name, for
 * each row, the test that keeps it true: each of those tests (and modules) must exist, so a
 * renamed or deleted test cannot leave a row standing on nothing.
 */
class CompatibilityTableTest {
  private static final Path REPO = Paths.get("..").toAbsolutePath().normalize();
  private static final Pattern NAMED = Pattern.compile("`([A-Za-z0-9]+Test|[a-z0-9-]+)`");

  @ParameterizedTest
  @ValueSource(strings = {"README.md", "docs/compatibility.md"})
  void everyTestTheTableNamesExists(String page) throws IOException {
    String text = new String(Files.readAllBytes(REPO.resolve(page)), StandardCharsets.UTF_8);
    int from = text.indexOf("| what | Curtail | kept true by |");
    assertTrue(from >= 0, "the compatibility table is gone from " + page);
    int end = text.indexOf("\n\n", from);
    String table = text.substring(from, end < 0 ? text.length() : end);
    Set<String> tests;
    try (Stream<Path> files = Files.walk(REPO)) {
      tests = files.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith("Test.java"))
          .map(n -> n.substring(0, n.length() - ".java".length()))
          .collect(Collectors.toSet());
    }
    Set<String> missing = new TreeSet<>();
    int named = 0;
    for (String row : table.split("\n")) {
      String[] cells = row.split("\\|");
      if (cells.length < 4) {
        continue;
      }
      Matcher m = NAMED.matcher(cells[3]);
      while (m.find()) {
        String name = m.group(1);
        named++;
        boolean exists = name.endsWith("Test") ? tests.contains(name)
            : Files.isDirectory(REPO.resolve(name));
        if (!exists) {
          missing.add(name);
        }
      }
    }
    assertTrue(named > 10, "only " + named + " tests named in " + page + "'s table");
    assertEquals(Set.of(), missing, "named by " + page + "'s compatibility table but not found");
  }
}
