package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The modules as the README's Layout draws them and as the tree has them. A package lives in one
 * module: no jar puts classes in another's packages to reach what is package-private (a split
 * package, which also breaks sealed jars and Java modules). And the Layout has a line for every
 * module and every package in it, and none for what is gone.
 */
class LayoutTest {
  private static final Path REPO = Paths.get("..").toAbsolutePath().normalize();
  private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
  /** Packages in two modules on purpose, "module package", each with its reason. */
  private static final Map<String, String> SPLIT_ON_PURPOSE = Map.of(
      "integration-tests io/curtail/client/read",
      "HedgedBlockReadTest drives the package-private BlockRead on a FaultyCluster, which the"
          + " client's own tests cannot have (testcluster depends on the client); tests only");

  @Test
  void noPackageIsInTwoModules() throws IOException {
    Map<String, Set<String>> modulesOf = new TreeMap<>();
    for (String module : modules()) {
      for (String tree : new String[] {"main", "test"}) {
        for (String p : packages(REPO.resolve(module).resolve("src/" + tree + "/java"))) {
          modulesOf.computeIfAbsent(p, k -> new TreeSet<>()).add(module);
        }
      }
    }
    List<String> split = new ArrayList<>();
    modulesOf.forEach((p, in) -> {
      in.removeIf(m -> SPLIT_ON_PURPOSE.containsKey(m + " " + p));
      if (in.size() > 1) {
        split.add(p + " in " + in);
      }
    });
    assertEquals(List.of(), split, "packages split across modules");
  }

  @Test
  void theLayoutHasALineForEveryModuleAndPackageAndNoneForWhatIsGone() throws IOException {
    Map<String, Set<String>> drawn = layout();
    List<String> wrong = new ArrayList<>();
    for (String module : modules()) {
      Set<String> lines = drawn.get(module);
      if (lines == null) {
        wrong.add(module + "/: no line");
        continue;
      }
      Set<String> packages = relativePackages(module);
      for (String p : packages) {
        if (!lines.contains(p)) {
          wrong.add(module + "/" + p + "/: no line");
        }
      }
      for (String p : lines) {
        if (!packages.contains(p)) {
          wrong.add(module + "/" + p + "/: a line, but no such package");
        }
      }
    }
    for (String dir : drawn.keySet()) {
      if (!Files.isDirectory(REPO.resolve(dir))) {
        wrong.add(dir + "/: a line, but no such directory");
      }
    }
    assertEquals(List.of(), wrong, "the README's Layout and the tree differ");
  }

  /** Every module the parent pom names, its profiles' included. */
  private static List<String> modules() throws IOException {
    Matcher m = MODULE.matcher(read(REPO.resolve("pom.xml")));
    List<String> out = new ArrayList<>();
    while (m.find()) {
      out.add(m.group(1).trim());
    }
    assertTrue(out.size() > 5, "only " + out + " in the parent pom");
    return out;
  }

  /**
   * A module's packages below its root package (the longest common one), as "read/striped":
   * those of its main code, or of its tests if it has none.
   */
  private static Set<String> relativePackages(String module) throws IOException {
    Set<String> packages = packages(REPO.resolve(module).resolve("src/main/java"));
    if (packages.isEmpty()) {
      packages = packages(REPO.resolve(module).resolve("src/test/java"));
    }
    String root = null;
    for (String p : packages) {
      root = root == null ? p : commonPrefix(root, p);
    }
    Set<String> out = new TreeSet<>();
    for (String p : packages) {
      if (!p.equals(root)) {
        out.add(root.isEmpty() ? p : p.substring(root.length() + 1));
      }
    }
    return out;
  }

  private static String commonPrefix(String a, String b) {
    String[] x = a.split("/");
    String[] y = b.split("/");
    int n = 0;
    while (n < x.length && n < y.length && x[n].equals(y[n])) {
      n++;
    }
    return String.join("/", java.util.Arrays.asList(x).subList(0, n));
  }

  /** The directories under {@code sources} that hold Java files, as "io/curtail/client/read". */
  private static Set<String> packages(Path sources) throws IOException {
    if (!Files.isDirectory(sources)) {
      return new TreeSet<>();
    }
    try (Stream<Path> files = Files.walk(sources)) {
      return files.filter(f -> f.toString().endsWith(".java"))
          .map(f -> sources.relativize(f.getParent()).toString().replace('\\', '/'))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  /**
   * The Layout's code block: each top-level entry ("bench/") with the indented ones below it
   * ("soak/"), names without their slash.
   */
  private static Map<String, Set<String>> layout() throws IOException {
    String readme = read(REPO.resolve("README.md"));
    int from = readme.indexOf("\n## Layout");
    assertTrue(from >= 0, "the README has no Layout section");
    int open = readme.indexOf("```\n", from);
    String block = readme.substring(open + 4, readme.indexOf("```", open + 4));
    Map<String, Set<String>> out = new TreeMap<>();
    Set<String> current = null;
    for (String line : block.split("\n")) {
      Matcher top = Pattern.compile("^([^\\s/]+)/\\s").matcher(line);
      Matcher inner = Pattern.compile("^\\s+(\\S+)/\\s").matcher(line);
      if (top.find()) {
        current = new TreeSet<>();
        out.put(top.group(1), current);
      } else if (inner.find() && current != null) {
        current.add(inner.group(1));
      }
    }
    return out;
  }

  private static String read(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
  }
}
