package io.curtail.datanode.hook;

import io.curtail.datanode.fault.DataNodeFaults;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.datanode.report.AckReports;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hdfs.server.datanode.DataNodeFaultInjector;
import org.apache.hadoop.util.DiskChecker.DiskOutOfSpaceException;

/**
 * Stock HDFS's per-JVM {@link DataNodeFaultInjector}, extended to route each call to the faults
 * and ack reports of the DataNode whose thread makes it. One instance serves every DataNode in the
 * JVM (a real DataNode has one; a MiniDFSCluster has many), keyed by the DataNode's thread group.
 *
 * <p>It overrides only the hooks it uses; all others keep the stock no-op behaviour. Three hooks
 * are the only points where the plugin's reports touch a write: {@code BlockReceiver} calls one just
 * before forwarding a packet to the next DataNode, and (from its {@code PacketResponder}) the
 * other just before sending an ack upstream, with the replies it may still change. The fault
 * injection uses those (a slow network on forwarding), and more: after a packet's local write,
 * before an ack is sent upstream (a starved CPU), and before a read. They are methods of
 * Hadoop 3.4's injector (tested with 3.4.2); on a Hadoop whose {@code BlockReceiver} does not call
 * one, that timing is never taken, no report goes out, and clients fall back to their own
 * attribution.
 */
final class CurtailFaultInjector extends DataNodeFaultInjector {
  private static final CurtailFaultInjector INSTANCE = new CurtailFaultInjector();
  /** The injector a stock DataNode runs with: every hook a no-op. */
  private static final DataNodeFaultInjector STOCK = DataNodeFaultInjector.get();

  private final Map<ThreadGroup, Routes> byThreadGroup = new ConcurrentHashMap<>();

  /** Where one DataNode's hook calls go: one look-up per call finds both. */
  private static final class Routes {
    final DataNodeFaults faults;
    final AckReports reports;

    Routes(DataNodeFaults faults, AckReports reports) {
      this.faults = faults;
      this.reports = reports;
    }
  }

  private CurtailFaultInjector() {}

  /**
   * Routes {@code group}'s hook calls to {@code faults} and {@code reports}, installing the
   * injector if needed.
   */
  static synchronized void register(ThreadGroup group, DataNodeFaults faults,
      AckReports reports) {
    INSTANCE.byThreadGroup.put(group, new Routes(faults, reports));
    if (DataNodeFaultInjector.get() != INSTANCE) {
      DataNodeFaultInjector.set(INSTANCE);
    }
  }

  /** Stops routing {@code group}'s calls; the last one out puts the stock injector back. */
  static synchronized void unregister(ThreadGroup group) {
    INSTANCE.byThreadGroup.remove(group);
    if (INSTANCE.byThreadGroup.isEmpty() && DataNodeFaultInjector.get() == INSTANCE) {
      DataNodeFaultInjector.set(STOCK);
    }
  }

  /** Called by {@code BlockReceiver} right after a packet's data is written to disk. */
  @Override
  public void delayWriteToDisk() {
    Routes r = routesOfCaller();
    if (r != null) {
      r.faults.awaitCpu();
      r.faults.await(DiskFault.Access.WRITES);
      try {
        r.faults.checkSpace();
      } catch (DiskOutOfSpaceException e) {
        // The hook declares no exception, but BlockReceiver calls it right after writing the
        // packet's data, where that write's IOException would come from: let through as it is,
        // the injected "disk full" takes exactly the path a real one does.
        throw Unchecked.<RuntimeException>sneaky(e);
      }
    }
  }

  /** Lets a checked exception through a method that cannot declare it. */
  private static final class Unchecked {
    @SuppressWarnings("unchecked")
    static <T extends Throwable> T sneaky(Throwable t) throws T {
      throw (T) t;
    }
  }

  /** Called by {@code BlockReceiver} just before it forwards a packet to the next DataNode. */
  @Override
  public void stopSendingPacketDownstream(String mirrorAddr) {
    Routes r = routesOfCaller();
    if (r != null) {
      r.reports.forwarding(Thread.currentThread().getName());
      // After the report's clock starts, as a real slow network blocks the socket write that
      // follows: the wait counts as downstream time, which is what makes a slow NIC hard to tell.
      r.faults.awaitForward(mirrorAddr);
    }
  }

  /** Called by {@code PacketResponder} just before it sends an ack upstream. */
  @Override
  public void delaySendingAckToUpstream(String upstreamAddr) {
    Routes r = routesOfCaller();
    if (r != null) {
      r.faults.awaitCpu();
    }
  }

  /**
   * Called by {@code BlockReceiver} once the forward's write and flush to the next DataNode
   * returned; its own millisecond figure is too coarse, the reports take nanoseconds.
   */
  @Override
  public void logDelaySendingPacketDownstream(String mirrorAddr, long delayMs) {
    Routes r = routesOfCaller();
    if (r != null) {
      r.reports.forwarded(Thread.currentThread().getName());
    }
  }

  /**
   * Called by {@code PacketResponder} with the replies of an ack it is about to send upstream:
   * the report goes into their high bits.
   */
  @Override
  public void markSlow(String mirrorAddr, int[] replies) {
    Routes r = routesOfCaller();
    if (r != null) {
      r.reports.report(Thread.currentThread().getName(), replies);
    }
  }

  /**
   * Called by {@code BlockSender} just before it opens a replica's checksum file to serve a read:
   * the read's first disk access, where a DataNode slow to open replicas makes a read wait. (The
   * read throttler is called after each packet is sent, so without this a slow disk would still
   * serve every read's first packet at full speed.)
   */
  @Override
  public void throwTooManyOpenFiles() {
    Routes r = routesOfCaller();
    if (r != null) {
      r.faults.await(DiskFault.Access.OPENS);
    }
  }

  private Routes routesOfCaller() {
    return byThreadGroup.get(Thread.currentThread().getThreadGroup());
  }
}
