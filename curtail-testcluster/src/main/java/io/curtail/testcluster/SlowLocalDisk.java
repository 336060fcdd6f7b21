package io.curtail.testcluster;

import static net.bytebuddy.matcher.ElementMatchers.named;

import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;

/**
 * A slow disk under one DataNode's replicas as short-circuit readers meet it, stock's and
 * Curtail's alike. Short-circuit reads open the block file themselves and never pass through the
 * DataNode, so the plugin's disk faults (in the DataNode's {@code BlockSender}) cannot touch them;
 * this fault sits where the bytes are read instead, in the JVM that reads them.
 *
 * <p>How: Hadoop's legacy local reader, {@code BlockReaderLocalLegacy} (which needs no native
 * code, and which stock's and Curtail's reads both get from Hadoop's {@code BlockReaderFactory}),
 * is advised with Byte Buddy, once per JVM, at two points: {@code newBlockReader} notes which
 * DataNode a new reader's replica belongs to (the DataNode it asked for the file's path), and
 * {@code fillBuffer}, its one read of the block or checksum file, first waits when that DataNode
 * is slow. The wait models a disk that serves one request at a time: every read of a slow
 * DataNode's files queues in one fair lock (FIFO) and then takes {@code perRead}; the bytes still
 * come from the real block file afterwards. The wait cannot be interrupted, as a read already
 * queued in the kernel cannot, so a reader that gave up on it still waits its turn out.
 *
 * <p>Not advised: the domain-socket reader ({@code BlockReaderLocal}, native code, which these
 * machines lack), and the legacy reader's reads with checksums off, which do not go through
 * {@code fillBuffer}.
 */
public final class SlowLocalDisk {
  /** Per DataNode transfer port, its slow disk; empty when no fault is on. */
  private static final Map<Integer, Disk> SLOW = new ConcurrentHashMap<>();
  /** Which DataNode's disk each open legacy reader reads from. */
  private static final Map<Object, Integer> READERS =
      Collections.synchronizedMap(new WeakHashMap<>());
  private static boolean installed;

  private SlowLocalDisk() {
  }

  /** One slow disk: its FIFO queue, the time each read takes, and the reads it slowed. */
  private static final class Disk {
    final ReentrantLock queue = new ReentrantLock(true);
    final long perReadNanos;
    long reads;

    Disk(long perReadNanos) {
      this.perReadNanos = perReadNanos;
    }
  }

  /**
   * Makes every short-circuit read of the files of the DataNode with transfer port {@code port}
   * queue and take {@code perReadMs}, until the returned fault is closed.
   */
  static Fault on(int port, long perReadMs) {
    if (perReadMs <= 0) {
      throw new IllegalArgumentException("a slow local disk needs perReadMs > 0, was "
          + perReadMs);
    }
    install();
    SLOW.put(port, new Disk(perReadMs * 1_000_000L));
    return () -> SLOW.remove(port);
  }

  /** Reads of the DataNode with transfer port {@code port}'s files slowed so far (while slow). */
  static long slowedReads(int port) {
    Disk d = SLOW.get(port);
    if (d == null) {
      return 0;
    }
    d.queue.lock();
    try {
      return d.reads;
    } finally {
      d.queue.unlock();
    }
  }

  private static synchronized void install() {
    if (installed) {
      return;
    }
    Instrumentation inst = ByteBuddyAgent.install();
    new AgentBuilder.Default()
        .disableClassFormatChanges()
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .type(named("org.apache.hadoop.hdfs.client.impl.BlockReaderLocalLegacy"))
        .transform((builder, type, loader, module, domain) -> builder
            .visit(Advice.to(Opened.class).on(named("newBlockReader")))
            .visit(Advice.to(Filled.class).on(named("fillBuffer"))))
        .installOn(inst);
    installed = true;
  }

  /** Called by the advised {@code newBlockReader}: {@code reader} reads {@code dn}'s files. */
  public static void opened(DatanodeInfo dn, Object reader) {
    if (reader != null) {
      READERS.put(reader, dn.getXferPort());
    }
  }

  /** Called by the advised {@code fillBuffer} before it reads: waits if the disk is slow. */
  public static void reading(Object reader) {
    if (SLOW.isEmpty()) {
      return;
    }
    Integer port = READERS.get(reader);
    Disk d = port == null ? null : SLOW.get(port);
    if (d == null) {
      return;
    }
    d.queue.lock();
    try {
      d.reads++;
      long until = System.nanoTime() + d.perReadNanos;
      for (long left = d.perReadNanos; left > 0; left = until - System.nanoTime()) {
        LockSupport.parkNanos(left); // not interruptible, as a disk read is not
      }
    } finally {
      d.queue.unlock();
    }
  }

  /** Advice on {@code newBlockReader}'s return. */
  public static final class Opened {
    private Opened() {
    }

    @Advice.OnMethodExit
    public static void exit(@Advice.Argument(6) DatanodeInfo node,
        @Advice.Return Object reader) {
      SlowLocalDisk.opened(node, reader);
    }
  }

  /** Advice on {@code fillBuffer}'s entry. */
  public static final class Filled {
    private Filled() {
    }

    @Advice.OnMethodEnter
    public static void enter(@Advice.This Object reader) {
      SlowLocalDisk.reading(reader);
    }
  }
}
