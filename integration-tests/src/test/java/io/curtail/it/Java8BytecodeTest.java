package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import io.curtail.datanode.hook.CurtailDataNodePlugin;
import io.curtail.wire.AckReport;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The jars users load (client, wire, DataNode plugin) are Java 8 bytecode, whatever JDK built
 * them: Hadoop 3.3 and 3.4 clients run on Java 8, and a class compiled for a later Java fails
 * there only when first loaded, on the cluster. Checks every class of those jars (or class
 * directories, run from an IDE) without a JVM 8, which this build does not have.
 *
 * <p>That the jars name no JDK class or member missing from Java 8 is not checked here: javac's
 * {@code --release 8} (the three modules' {@code maven.compiler.release}) already compiles them
 * against Java 8's own API, so such a use fails the build. What the version alone cannot tell is
 * whether {@code --release} or only {@code -target 8} made them; the second links
 * {@code ByteBuffer.flip()} and its kin to the covariant overrides Java 9 added, which Java 8
 * lacks ({@code NoSuchMethodError} at the first packet). So the second test looks for those.
 */
class Java8BytecodeTest {
  /** Class file major version of Java 8. */
  private static final int JAVA_8 = 52;
  private static final Class<?>[] JARS = {CurtailDistributedFileSystem.class,
      CurtailDataNodePlugin.class, AckReport.class};
  /** Buffer's methods that Java 9 overrode in every buffer class with a covariant return. */
  private static final List<String> BUFFER_METHODS =
      List.of("position", "limit", "mark", "reset", "clear", "flip", "rewind");

  @Test
  void clientWireAndPluginClassesAreJava8() throws Exception {
    for (Class<?> entry : JARS) {
      Path where = where(entry);
      List<String> newer = new ArrayList<>();
      int classes = ClassFiles.forEach(where, (name, in) -> {
        int major = majorVersion(in);
        if (major > JAVA_8) {
          newer.add(name + " (" + major + ")");
        }
      });
      assertTrue(classes > 0, "no classes found in " + where);
      assertEquals(List.of(), newer, "classes newer than Java 8 (" + JAVA_8 + ") in " + where);
    }
  }

  @Test
  void bufferCallsLinkOnJava8() throws Exception {
    for (Class<?> entry : JARS) {
      Path where = where(entry);
      List<String> covariant = new ArrayList<>();
      ClassFiles.forEach(where, (name, in) -> new ClassReader(in).accept(new ClassVisitor(
          Opcodes.ASM9) {
        @Override
        public MethodVisitor visitMethod(int access, String method, String descriptor,
            String signature, String[] exceptions) {
          return new MethodVisitor(Opcodes.ASM9) {
            @Override
            public void visitMethodInsn(int opcode, String owner, String called, String desc,
                boolean itf) {
              // On Java 8 only java.nio.Buffer declares these, returning Buffer.
              if (owner.startsWith("java/nio/") && owner.endsWith("Buffer")
                  && !owner.equals("java/nio/Buffer") && desc.endsWith(")L" + owner + ";")
                  && BUFFER_METHODS.contains(called)) {
                covariant.add(name + " calls " + owner + "." + called + desc);
              }
            }
          };
        }
      }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES));
      assertEquals(List.of(), covariant, "calls that link only on Java 9+ in " + where);
    }
  }

  private static Path where(Class<?> entry) throws Exception {
    return Paths.get(entry.getProtectionDomain().getCodeSource().getLocation().toURI());
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
