package io.curtail.client.wire;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.UndeclaredThrowableException;
import java.nio.ByteBuffer;
import java.util.zip.Checksum;

/**
 * The JDK's own CRC32C ({@code java.util.zip.CRC32C}, Java 9+, an intrinsic), reached through a
 * handle found once, as the jar is Java 8 bytecode: on Java 8 {@link #AVAILABLE} is false and
 * callers verify with Hadoop's {@code DataChecksum}, which then uses Hadoop's native CRC32C or
 * its pure-Java one, as a stock reader on Java 8 does. The handle is a constant: compiled, a
 * call costs what a direct call to {@code CRC32C.update(ByteBuffer)} does, and allocates nothing.
 */
final class JdkCrc32c {
  private static final Constructor<? extends Checksum> NEW;
  /** {@code update(ByteBuffer)} of the JDK's class, typed {@code (Checksum, ByteBuffer)void}. */
  private static final MethodHandle UPDATE;
  /** Whether this JVM has the JDK's CRC32C. */
  static final boolean AVAILABLE;

  static {
    Constructor<? extends Checksum> create = null;
    MethodHandle update = null;
    try {
      Class<? extends Checksum> type =
          Class.forName("java.util.zip.CRC32C").asSubclass(Checksum.class);
      create = type.getConstructor();
      update = MethodHandles.publicLookup()
          .findVirtual(type, "update", MethodType.methodType(void.class, ByteBuffer.class))
          .asType(MethodType.methodType(void.class, Checksum.class, ByteBuffer.class));
    } catch (ReflectiveOperationException e) {
      // Java 8: no such class; UPDATE stays null
    }
    NEW = create;
    UPDATE = update;
    AVAILABLE = update != null;
  }

  private JdkCrc32c() {
  }

  /** A new JDK CRC32C; only where {@link #AVAILABLE}. */
  static Checksum create() {
    try {
      return NEW.newInstance();
    } catch (ReflectiveOperationException e) { // its public constructor was found above
      throw new IllegalStateException("Cannot create java.util.zip.CRC32C", e);
    }
  }

  /**
   * The CRC32C of {@code chunk}'s remaining bytes, computed by {@code sum} (from
   * {@link #create}), which it resets first; the chunk's position ends at its limit.
   */
  static int of(Checksum sum, ByteBuffer chunk) {
    sum.reset();
    try {
      UPDATE.invokeExact(sum, chunk);
    } catch (Throwable t) {
      throw unchecked(t); // javac makes every handle call catch Throwable; the target throws
                          // nothing checked, and anything unchecked, an Error too, goes on as is
    }
    return (int) sum.getValue();
  }

  private static RuntimeException unchecked(Throwable t) {
    if (t instanceof Error) {
      throw (Error) t;
    }
    return t instanceof RuntimeException ? (RuntimeException) t
        : new UndeclaredThrowableException(t);
  }
}
