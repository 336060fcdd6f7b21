package io.curtail.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/**
 * The soak command, briefly: a third of a minute of rotating faults (this seed's schedule kills
 * a DataNode and restarts it) under writers, readers and a tailer, then the account of every byte.
 */
class SoakTest {
  @Test
  void aShortSoakAccountsForEveryByteAndPasses() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(new String[] {"soak", "--minutes", "0.34", "--fault-seconds", "4",
        "--keep", "20", "--seed", "2"}, new PrintStream(out, true, "UTF-8"),
        new PrintStream(err, true, "UTF-8"), false);
    String stdout = out.toString("UTF-8");
    assertEquals(0, code, stdout + err.toString("UTF-8"));
    assertTrue(stdout.contains("KILLED on dn"), stdout);
    assertTrue(stdout.contains("| bytes lost | 0 | must be 0 | yes |"), stdout);
    assertTrue(stdout.contains("soak: passed"), stdout);
    // the client's decisions labelled against the spells the cluster noted
    assertTrue(stdout.contains("| soak | repl | precision |"), stdout);
    assertTrue(stdout.contains("| curtail | "), stdout);
  }
}
