package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code docker/compose.yaml} and {@code docker/Dockerfile}, checked without a container engine
 * (none runs on the build machines): the compose file parses, every service is built from the
 * Dockerfile and runs the launcher {@code LocalClusterTest} runs, with the arguments its
 * {@code serve} takes (a DataNode number each, distinct, and the NameNode's host name), the
 * health check asks the port the launcher gives the NameNode's web server, every dependency is
 * a service of the file, and the benchmark points at the NameNode.
 */
class DockerFilesTest {
  private static final File DOCKER = new File("../docker");

  @Test
  @SuppressWarnings("unchecked")
  void composeFileRunsTheLauncherInEveryRole() throws Exception {
    Map<String, Object> compose;
    try (InputStream in = new FileInputStream(new File(DOCKER, "compose.yaml"))) {
      compose = new Yaml().load(in);
    }
    Map<String, Map<String, Object>> services =
        (Map<String, Map<String, Object>>) compose.get("services");
    assertEquals(Set.of("namenode", "datanode1", "datanode2", "datanode3", "bench"),
        services.keySet());

    String dockerfile = new String(Files.readAllBytes(new File(DOCKER, "Dockerfile").toPath()),
        StandardCharsets.UTF_8);
    assertTrue(dockerfile.contains("ENTRYPOINT [\"docker/local-cluster\"]"), dockerfile);
    assertTrue(new File(DOCKER, "local-cluster").canExecute(), "the launcher is executable");

    Set<String> dataNodes = new HashSet<>();
    for (Map.Entry<String, Map<String, Object>> e : services.entrySet()) {
      Map<String, Object> s = e.getValue();
      Map<String, Object> build = (Map<String, Object>) s.get("build");
      assertEquals("..", build.get("context"), e.getKey());
      assertEquals("docker/Dockerfile", build.get("dockerfile"), e.getKey());
      List<String> command = (List<String>) s.get("command");
      Object deps = s.getOrDefault("depends_on", List.of());
      for (Object dep : deps instanceof Map ? ((Map<String, ?>) deps).keySet() : (List<?>) deps) {
        assertTrue(services.containsKey(dep), e.getKey() + " depends on unknown " + dep);
      }
      if (e.getKey().equals("bench")) {
        assertEquals(List.of("java", "-jar", "bench/target/curtail-bench.jar"),
            s.get("entrypoint"));
        assertEquals("hdfs://namenode:19820", command.get(command.indexOf("--fs") + 1));
      } else if (e.getKey().equals("namenode")) {
        assertEquals(List.of("serve", "namenode"), command);
        assertEquals("namenode", s.get("hostname"));
        String check = String.join(" ", (List<String>) ((Map<String, Object>) s
            .get("healthcheck")).get("test"));
        assertTrue(check.contains("http://127.0.0.1:19870/jmx"), check); // 19820 + 50
      } else {
        assertEquals(List.of("serve", "datanode"), command.subList(0, 2), e.getKey());
        assertTrue(dataNodes.add(command.get(2)), "two DataNodes numbered " + command.get(2));
        assertTrue(command.get(2).matches("[1-9][0-9]*"), command.toString());
        assertEquals("namenode", command.get(3), e.getKey() + "'s NameNode");
        for (String setting : command.subList(4, command.size())) {
          assertTrue(setting.matches("[a-z][a-zA-Z0-9.]*=.+"), "a KEY=VALUE: " + setting);
        }
      }
    }
    assertEquals(3, dataNodes.size());
  }
}
