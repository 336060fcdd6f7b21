package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code docker/local-cluster}, the launcher users run, driven from a test: one cluster of its
 * own (a directory under {@code target/} and a NameNode port no other test uses), its processes
 * on this build's class path.
 */
final class LocalClusterLauncher {
  private static final File SCRIPT = new File("../docker/local-cluster");

  private final File dir;
  private final int nameNodePort;

  /** A cluster in a new directory {@code target/<name>-<nanos>}, its NameNode on {@code port}. */
  LocalClusterLauncher(String name, int nameNodePort) {
    this.dir = new File("target/" + name + "-" + System.nanoTime()).getAbsoluteFile();
    this.nameNodePort = nameNodePort;
  }

  /** Skips the test where the launcher cannot ask the NameNode whether it is up. */
  static void assumeCurl() {
    assumeTrue(new File("/usr/bin/curl").canExecute() || new File("/bin/curl").canExecute(),
        "the launcher asks the NameNode over HTTP with curl");
  }

  File dir() {
    return dir;
  }

  /** Runs the launcher with {@code args}; returns what it printed, failing on a non-zero exit. */
  String run(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", SCRIPT.getPath()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("CURTAIL_CLUSTER_DIR", dir.getPath());
    pb.environment().put("CURTAIL_NN_PORT", Integer.toString(nameNodePort));
    pb.environment().put("CURTAIL_CLASSPATH",
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    File out = new File(dir.getParentFile(), dir.getName() + ".out");
    Process p = pb.redirectOutput(out).start();
    assertTrue(p.waitFor(3, TimeUnit.MINUTES), "local-cluster " + args[0] + " hung");
    String printed = new String(Files.readAllBytes(out.toPath()), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), "local-cluster " + String.join(" ", args) + ":\n" + printed);
    return printed;
  }
}
