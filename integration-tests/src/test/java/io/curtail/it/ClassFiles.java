package io.curtail.it;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/** The class files of a jar or a class directory, for the tests that check bytecode. */
final class ClassFiles {
  private ClassFiles() {}

  /** What a test does with one class file. */
  interface Visitor {
    void visit(String name, InputStream in) throws IOException;
  }

  /**
   * Feeds every class of {@code where} (a jar, or a directory when run from an IDE) to
   * {@code visitor}; returns how many. Multi-release entries ({@code META-INF/versions/N}) are
   * meant for newer JVMs and skipped.
   */
  static int forEach(Path where, Visitor visitor) throws IOException {
    int n = 0;
    if (Files.isDirectory(where)) {
      try (Stream<Path> files = Files.walk(where)) {
        for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
          try (InputStream in = Files.newInputStream(p)) {
            visitor.visit(where.relativize(p).toString(), in);
            n++;
          }
        }
      }
      return n;
    }
    try (ZipFile jar = new ZipFile(where.toFile())) {
      for (ZipEntry e : Collections.list(jar.entries())) {
        if (e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/")) {
          try (InputStream in = jar.getInputStream(e)) {
            visitor.visit(e.getName(), in);
            n++;
          }
        }
      }
    }
    return n;
  }
}
