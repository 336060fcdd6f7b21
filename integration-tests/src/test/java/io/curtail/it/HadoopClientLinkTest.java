package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.CurtailDistributedFileSystem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * A static link check of the client jar against every Hadoop client it supports: the shaded
 * client ({@code hadoop-client-api} and {@code hadoop-client-runtime}, what Spark and other
 * shaded applications put on the class path instead of {@code hadoop-hdfs-client}) of 3.3.4
 * (Spark 3.5's), 3.3.6, 3.4.1 and 3.4.2, and the unshaded 3.3.6 jars. Every class, method and
 * field of Hadoop's that Curtail's bytecode names must exist there with the same descriptor. A
 * method that takes or returns a type the shaded client relocates (Guava, protobuf), or one
 * added in a later Hadoop, would pass every test run on the build's own jars and fail only on
 * the cluster, with a {@code NoSuchMethodError}. Beyond the JDK and Hadoop, Curtail may name
 * only SLF4J (which every Hadoop client deployment carries) and the OpenTelemetry API
 * (optional, loaded only when the application has it).
 *
 * <p>The only exceptions are the members in {@link #PROBED}: newer Hadoop's, named by one class
 * that asks first, once, whether the running Hadoop has them. Each may be missing only in the
 * versions it names, only where that class names it; and it must really be missing there and
 * still be named, so the list cannot go stale.
 */
class HadoopClientLinkTest {
  private static final Path CLIENTS = Paths.get("target", "hadoop-clients");
  private static final List<String> JDK = List.of("java/", "javax/", "jdk/", "sun/", "com/sun/",
      "org/w3c/", "org/xml/", "org/ietf/");
  private static final List<String> BROUGHT_BY_THE_APPLICATION =
      List.of("org/slf4j/", "io/opentelemetry/");
  private static final String HADOOP_API = "io/curtail/client/compat/HadoopApi";

  /** Members Curtail calls only after a version probe, the versions that lack them, the prober. */
  private static final List<Probed> PROBED = List.of(
      new Probed("org/apache/hadoop/hdfs/protocol/ClientProtocol",
          "renewLease(Ljava/lang/String;Ljava/util/List;)V", "3.3.", HADOOP_API),
      new Probed("org/apache/hadoop/hdfs/client/impl/DfsClientConf",
          "getMaxPipelineRecoveryRetries()I", "3.3.", HADOOP_API));

  private static final String HDFS = "org/apache/hadoop/hdfs/";
  /**
   * Members Curtail reaches by reflection, so that no bytecode names them ({@code
   * write/striped/StripedStreams}: stock's striped stream built from a create's status, its
   * streamers watched and let go), each as owner and name + descriptor; a list of alternatives
   * where versions differ, one of which each version must have. Found missing, that class logs
   * why and Curtail writes erasure-coded files as stock does; this says so before a user does.
   */
  private static final List<List<String>> REFLECTED = List.of(
      List.of(HDFS + "DFSStripedOutputStream <init>(L" + HDFS + "DFSClient;Ljava/lang/String;"
          + "L" + HDFS + "protocol/HdfsFileStatus;Ljava/util/EnumSet;"
          + "Lorg/apache/hadoop/util/Progressable;Lorg/apache/hadoop/util/DataChecksum;"
          + "[Ljava/lang/String;)V"),
      List.of(HDFS + "DFSOutputStream start()V"),
      List.of(HDFS + "DFSClient beginFileLease(Ljava/lang/String;L" + HDFS
          + "DFSOutputStream;)V", HDFS + "DFSClient beginFileLease(JL" + HDFS
          + "DFSOutputStream;)V"),
      List.of(HDFS + "DFSStripedOutputStream getStripedDataStreamer(I)L" + HDFS
          + "StripedDataStreamer;"),
      List.of(HDFS + "DFSStripedOutputStream isClosed()Z"),
      List.of(HDFS + "StripedDataStreamer isHealthy()Z"),
      List.of(HDFS + "DataStreamer getLastQueuedSeqno()J"),
      List.of(HDFS + "DataStreamer getBytesCurBlock()J"),
      List.of(HDFS + "DataStreamer getBlock()L" + HDFS + "protocol/ExtendedBlock;"),
      List.of(HDFS + "DataStreamer getNodes()[L" + HDFS + "protocol/DatanodeInfo;"),
      List.of(HDFS + "DataStreamer getStage()L" + HDFS
          + "protocol/datatransfer/BlockConstructionStage;"),
      List.of(HDFS + "DataStreamer lastAckedSeqno:J"),
      List.of(HDFS + "DataStreamer s:Ljava/net/Socket;"));

  /** A member some Hadoop versions lack, named only by a class that probes for it. */
  private static final class Probed {
    final String owner;
    final String member;
    final String lackingVersions; // a version prefix
    final String prober;

    Probed(String owner, String member, String lackingVersions, String prober) {
      this.owner = owner;
      this.member = member;
      this.lackingVersions = lackingVersions;
      this.prober = prober;
    }

    boolean excuses(String version, Reference r) {
      return version.startsWith(lackingVersions) && r.owner.equals(owner)
          && member.equals(r.member) && r.from.equals(prober);
    }

    @Override
    public String toString() {
      return owner + "." + member + " (probed by " + prober + ", lacked by " + lackingVersions
          + "x)";
    }
  }

  /** A class of a Hadoop client: its supertypes and its members as name + descriptor. */
  private static final class Declared {
    final List<String> supertypes = new ArrayList<>();
    final Set<String> members = new HashSet<>();
  }

  /** A member of another class the client's bytecode names. */
  private static final class Reference {
    final String owner;
    final String member; // name + descriptor; null for the class alone
    final String from;

    Reference(String owner, String member, String from) {
      this.owner = owner;
      this.member = member;
      this.from = from;
    }
  }

  /**
   * @param version a directory of {@code target/hadoop-clients/}, named by the Hadoop version of
   *     its jars (the build copies them there)
   */
  @ParameterizedTest(name = "Hadoop {0}")
  @ValueSource(strings = {"3.3.4", "3.3.6", "3.4.1", "3.4.2", "3.3.6-unshaded"})
  void everyHadoopMemberTheClientNamesExistsInTheHadoopClient(String version) throws Exception {
    Path dir = CLIENTS.resolve(version);
    assertTrue(Files.isDirectory(dir), dir + " missing: the build copies Hadoop's jars there");
    Map<String, Declared> hadoopClient = new HashMap<>();
    int jars = 0;
    try (DirectoryStream<Path> in = Files.newDirectoryStream(dir, "*.jar")) {
      for (Path jar : in) {
        ClassFiles.forEach(jar, (name, c) -> declare(c, hadoopClient));
        jars++;
      }
    }
    assertTrue(jars >= 2, "only " + jars + " jars in " + dir);
    List<Reference> references = new ArrayList<>();
    Path client = Paths.get(CurtailDistributedFileSystem.class.getProtectionDomain()
        .getCodeSource().getLocation().toURI());
    int classes = ClassFiles.forEach(client, (name, in) -> collect(in, references));
    assertTrue(classes > 20, "only " + classes + " classes in " + client);

    Set<String> missing = new TreeSet<>();
    Set<Probed> excused = new HashSet<>();
    int hadoop = 0;
    for (Reference r : references) {
      if (startsWithAny(r.owner, JDK) || r.owner.startsWith("io/curtail/")) {
        continue;
      }
      if (startsWithAny(r.owner, BROUGHT_BY_THE_APPLICATION)) {
        continue;
      }
      hadoop++;
      if (!hadoopClient.containsKey(r.owner)) {
        missing.add(r.owner + " (named by " + r.from + ")");
        continue;
      }
      if (r.member == null || declares(hadoopClient, r.owner, r.member)) {
        continue;
      }
      Probed p = PROBED.stream().filter(e -> e.excuses(version, r)).findFirst().orElse(null);
      if (p != null) {
        excused.add(p);
      } else {
        missing.add(r.owner + "." + r.member + " (named by " + r.from + ")");
      }
    }
    assertTrue(hadoop > 500, "only " + hadoop + " references to Hadoop found");
    assertEquals(Set.of(), missing, "named by " + client + " but not in Hadoop " + version);
    for (Probed p : PROBED) {
      if (version.startsWith(p.lackingVersions)) {
        assertTrue(excused.contains(p), p + ": either Hadoop " + version
            + " has it after all or the prober no longer names it; correct PROBED");
      }
    }
  }

  /** Every member Curtail reaches by reflection is in every Hadoop client it supports. */
  @ParameterizedTest(name = "Hadoop {0}")
  @ValueSource(strings = {"3.3.4", "3.3.6", "3.4.1", "3.4.2", "3.3.6-unshaded"})
  void everyHadoopMemberTheClientReflectsOnExistsInTheHadoopClient(String version)
      throws Exception {
    Map<String, Declared> hadoopClient = new HashMap<>();
    try (DirectoryStream<Path> in = Files.newDirectoryStream(CLIENTS.resolve(version), "*.jar")) {
      for (Path jar : in) {
        ClassFiles.forEach(jar, (name, c) -> declare(c, hadoopClient));
      }
    }
    assertEquals("org/apache/hadoop/hdfs/DataStreamer",
        hadoopClient.get(HDFS + "StripedDataStreamer").supertypes.get(0),
        "the superclass StripedStreams reaches DataStreamer through");
    Set<String> missing = new TreeSet<>();
    for (List<String> alternatives : REFLECTED) {
      boolean found = false;
      for (String a : alternatives) {
        String[] ownerAndMember = a.split(" ");
        Declared d = hadoopClient.get(ownerAndMember[0]);
        found |= d != null && d.members.contains(ownerAndMember[1]);
      }
      if (!found) {
        missing.add(String.join(" or ", alternatives));
      }
    }
    assertEquals(Set.of(), missing, "reflected on by the client but not in Hadoop " + version);
  }

  private static boolean startsWithAny(String name, List<String> prefixes) {
    return prefixes.stream().anyMatch(name::startsWith);
  }

  /** Whether {@code owner} or a supertype declares {@code member}. */
  private static boolean declares(Map<String, Declared> hadoopClient, String owner, String member) {
    Declared d = hadoopClient.get(owner);
    if (d == null) {
      return startsWithAny(owner, JDK) && jdkDeclares(owner, member); // e.g. Object.toString
    }
    if (d.members.contains(member)) {
      return true;
    }
    for (String s : d.supertypes) {
      if (declares(hadoopClient, s, member)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the JDK's class {@code owner} or a supertype declares {@code member}. */
  private static boolean jdkDeclares(String owner, String member) {
    Class<?> c;
    try {
      c = Class.forName(owner.replace('/', '.'), false, ClassLoader.getPlatformClassLoader());
    } catch (ClassNotFoundException e) {
      return false;
    }
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      for (java.lang.reflect.Method m : k.getDeclaredMethods()) {
        if (member.equals(m.getName() + Type.getMethodDescriptor(m))) {
          return true;
        }
      }
      for (java.lang.reflect.Field f : k.getDeclaredFields()) {
        if (member.equals(f.getName() + ":" + Type.getDescriptor(f.getType()))) {
          return true;
        }
      }
      for (Class<?> i : k.getInterfaces()) {
        if (jdkDeclares(Type.getInternalName(i), member)) {
          return true;
        }
      }
    }
    return false;
  }

  private static void declare(InputStream in, Map<String, Declared> hadoopClient)
      throws IOException {
    new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
      Declared d;

      @Override
      public void visit(int version, int access, String name, String signature, String superName,
          String[] interfaces) {
        d = new Declared();
        hadoopClient.put(name, d);
        if (superName != null) {
          d.supertypes.add(superName);
        }
        d.supertypes.addAll(List.of(interfaces));
      }

      @Override
      public FieldVisitor visitField(int access, String name, String descriptor,
          String signature, Object value) {
        d.members.add(name + ":" + descriptor);
        return null;
      }

      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor,
          String signature, String[] exceptions) {
        d.members.add(name + descriptor);
        return null;
      }
    }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
  }

  /** Every class, field and method the class in {@code in} names, with the types in descriptors. */
  private static void collect(InputStream in, List<Reference> out) throws IOException {
    new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
      String from;

      void type(Type t) {
        while (t.getSort() == Type.ARRAY) {
          t = t.getElementType();
        }
        if (t.getSort() == Type.OBJECT) {
          out.add(new Reference(t.getInternalName(), null, from));
        } else if (t.getSort() == Type.METHOD) {
          type(t.getReturnType());
          for (Type a : t.getArgumentTypes()) {
            type(a);
          }
        }
      }

      @Override
      public void visit(int version, int access, String name, String signature, String superName,
          String[] interfaces) {
        from = name;
        if (superName != null) {
          out.add(new Reference(superName, null, from));
        }
        for (String i : interfaces) {
          out.add(new Reference(i, null, from));
        }
      }

      @Override
      public FieldVisitor visitField(int access, String name, String descriptor,
          String signature, Object value) {
        type(Type.getType(descriptor));
        return null;
      }

      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor,
          String signature, String[] exceptions) {
        type(Type.getMethodType(descriptor));
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitMethodInsn(int opcode, String owner, String name, String desc,
              boolean isInterface) {
            if (!owner.startsWith("[")) {
              out.add(new Reference(owner, name + desc, from));
            }
            type(Type.getMethodType(desc));
          }

          @Override
          public void visitFieldInsn(int opcode, String owner, String name, String desc) {
            out.add(new Reference(owner, name + ":" + desc, from));
            type(Type.getType(desc));
          }

          @Override
          public void visitTypeInsn(int opcode, String type) {
            type(Type.getObjectType(type));
          }

          @Override
          public void visitLdcInsn(Object value) {
            if (value instanceof Type) {
              type((Type) value);
            }
          }

          @Override
          public void visitInvokeDynamicInsn(String name, String desc, Handle bootstrap,
              Object... args) {
            type(Type.getMethodType(desc));
            for (Object a : args) {
              if (a instanceof Handle) {
                Handle h = (Handle) a;
                out.add(new Reference(h.getOwner(), h.getName() + h.getDesc(), from));
              }
            }
          }
        };
      }
    }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
  }
}
