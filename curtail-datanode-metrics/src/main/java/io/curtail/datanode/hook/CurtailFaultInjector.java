package io.curtail.datanode.hook;

import io.curtail.datanode.fault.DataNodeFaults;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hdfs.server.datanode.DataNodeFaultInjector;

/**
 * Stock HDFS's per-JVM {@link DataNodeFaultInjector}, extended to route each call to the faults
 * of the DataNode whose thread makes it. One instance serves every DataNode in the JVM (a real
 * DataNode has one; a MiniDFSCluster has many), keyed by the DataNode's thread group.
 *
 * <p>It overrides only the hooks it uses; all others keep the stock no-op behaviour.
 */
final class CurtailFaultInjector extends DataNodeFaultInjector {
  private static final CurtailFaultInjector INSTANCE = new CurtailFaultInjector();

  private final Map<ThreadGroup, DataNodeFaults> byThreadGroup = new ConcurrentHashMap<>();

  private CurtailFaultInjector() {}

  /** Routes {@code group}'s hook calls to {@code faults}, installing the injector if needed. */
  static synchronized void register(ThreadGroup group, DataNodeFaults faults) {
    INSTANCE.byThreadGroup.put(group, faults);
    if (DataNodeFaultInjector.get() != INSTANCE) {
      DataNodeFaultInjector.set(INSTANCE);
    }
  }

  static synchronized void unregister(ThreadGroup group) {
    INSTANCE.byThreadGroup.remove(group);
  }

  /** Called by {@code BlockReceiver} right after a packet's data is written to disk. */
  @Override
  public void delayWriteToDisk() {
    DataNodeFaults faults = faultsOfCaller();
    if (faults != null) {
      faults.awaitWriteDisk();
    }
  }

  /**
   * Called by {@code BlockSender} just before it opens a replica's checksum file to serve a read:
   * the read's first disk access. (The read throttler is called after each packet is sent, so
   * without this a slow disk would still serve every read's first packet at full speed.)
   */
  @Override
  public void throwTooManyOpenFiles() {
    DataNodeFaults faults = faultsOfCaller();
    if (faults != null) {
      faults.awaitReadDisk();
    }
  }

  private DataNodeFaults faultsOfCaller() {
    return byThreadGroup.get(Thread.currentThread().getThreadGroup());
  }
}
