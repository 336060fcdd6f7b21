package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.datanode.hook.CurtailDataNodePlugin;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The jars users load are Java 11 bytecode, whatever JDK built them: clusters run Java 11, and a
 * class compiled for 17 fails there only when first loaded, on the cluster. Checks every class of
 * the client and DataNode plugin jars (or class directories, run from an IDE) without a JVM 11.
 */
class Java11BytecodeTest {
  /** Class file major version of Java 11. */
  private static final int JAVA_11 = 55;

  @Test
  void clientAndPluginClassesAreJava11() throws Exception {
    for (Class<?> entry : new Class<?>[] {CurtailDistributedFileSystem.class,
        CurtailDataNodePlugin.class}) {
      Path where = Paths.get(entry.getProtectionDomain().getCodeSource().getLocation().toURI());
      List<String> newer = new ArrayList<>();
      int classes = ClassFiles.forEach(where, (name, in) -> {
        int major = majorVersion(in);
        if (major > JAVA_11) {
          newer.add(name + " (" + major + ")");
        }
      });
      assertTrue(classes > 20, "only " + classes + " classes found in " + where);
      assertEquals(List.of(), newer, "classes newer than Java 11 in " + where);
    }
  }

  /** The major version of a class file: after the magic number and the minor version. */
  private static int majorVersion(InputStream in) throws IOException {
    DataInputStream data = new DataInputStream(in);
    if (data.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    data.readUnsignedShort();
    return data.readUnsignedShort();
  }
}
