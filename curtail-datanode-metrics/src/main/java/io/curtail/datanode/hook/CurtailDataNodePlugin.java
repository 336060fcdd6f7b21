package io.curtail.datanode.hook;

import io.curtail.datanode.DataNodeKeys;
import io.curtail.datanode.fault.DataNodeFaults;
import io.curtail.datanode.fault.DiskFault;
import io.curtail.datanode.report.AckReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;
import org.apache.hadoop.metrics2.util.MBeans;
import org.apache.hadoop.util.ServicePlugin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Curtail's DataNode plugin, started by the DataNode itself when listed in
 * {@code dfs.datanode.plugins} (see {@link io.curtail.datanode.DataNodeSetup}).
 *
 * <p>With fault injection on ({@code curtail.datanode.fault.injection}, off by default) it gives
 * the DataNode a {@link DataNodeFaults} control, reachable from tests with
 * {@link #faultsOf(DataNode)} and from operators over JMX as
 * {@code Hadoop:service=DataNode,name=CurtailFaults-<port>}, and starts it with the fault its
 * {@code curtail.datanode.fault.*} keys describe (none by default); off, the control stays healthy
 * and nothing outside the plugin can reach it. It also reports this
 * DataNode's downstream time for each packet and its busy flag on pipeline acks
 * ({@link AckReports}, over JMX as {@code Hadoop:service=DataNode,name=CurtailReports-<port>},
 * where {@code Busy} is set; so is
 * the existence of the file {@code curtail.datanode.busy.file} names, if any).
 *
 * <p>Fail safe: if this Hadoop lacks an internal the plugin relies on, it logs why and the DataNode
 * runs as stock; a plugin that throws from {@code start} is logged and skipped by the DataNode.
 */
public final class CurtailDataNodePlugin implements ServicePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(CurtailDataNodePlugin.class);
  private static final Map<DataNode, CurtailDataNodePlugin> RUNNING = new ConcurrentHashMap<>();

  private DataNode dataNode;
  /** Whether faults may be injected here; off, {@link #faults} stays healthy and unexposed. */
  private boolean injection;
  private ThreadGroup group;
  private DataNodeFaults faults;
  private AckReports reports;
  private ObjectName mbean;
  private ObjectName reportsBean;
  private ScheduledExecutorService busyFileWatch;

  /**
   * The fault controls of {@code dn}.
   *
   * @throws IllegalStateException if the plugin is not running on that DataNode, or runs there
   *     with fault injection off
   */
  public static DataNodeFaults faultsOf(DataNode dn) {
    CurtailDataNodePlugin p = running(dn);
    if (!p.injection) {
      throw new IllegalStateException("fault injection is off on DataNode " + dn.getDisplayName()
          + "; set " + DataNodeKeys.FAULT_INJECTION + "=true (DataNodeSetup.withFaultInjection)");
    }
    return p.faults;
  }

  /**
   * What {@code dn} reports on its acks, and its busy flag.
   *
   * @throws IllegalStateException if the plugin is not running on that DataNode
   */
  public static AckReports reportsOf(DataNode dn) {
    return running(dn).reports;
  }

  /**
   * Takes the plugin out of {@code dn}'s write and read paths until the returned handle is
   * closed: its hooks no longer see {@code dn}'s threads, and with no DataNode left in the JVM the
   * stock (no-op) injector is back. For measuring the plugin's cost on the same DataNodes.
   *
   * @throws IllegalStateException if the plugin is not running on that DataNode
   */
  public static AutoCloseable suspend(DataNode dn) {
    CurtailDataNodePlugin p = running(dn);
    CurtailFaultInjector.unregister(p.group);
    return () -> CurtailFaultInjector.register(p.group, p.faults, p.reports);
  }

  private static CurtailDataNodePlugin running(DataNode dn) {
    CurtailDataNodePlugin t = RUNNING.get(dn);
    if (t == null) {
      throw new IllegalStateException("Curtail's plugin is not running on DataNode "
          + dn.getDisplayName() + "; install it with DataNodeSetup.apply(conf)");
    }
    return t;
  }

  @Override
  public void start(Object service) {
    if (!(service instanceof DataNode)) {
      LOG.warn("Curtail's plugin is for DataNodes only, not {}; not started", service);
      return;
    }
    DataNode dn = (DataNode) service;
    String name = dn.getDisplayName();
    try {
      group = DataNodeAccess.threadGroup(dn);
      DataNodeAccess.readThrottler(dn); // fail now, not at the first read fault
    } catch (DataNodeAccess.Unavailable e) {
      LOG.warn("Curtail's plugin is inactive on datanode={}: {}; it runs as stock", name,
          e.getMessage(), e);
      return;
    }
    // Checked before anything is registered, so a refused setting leaves the DataNode stock.
    injection = DataNodeKeys.faultInjection(dn.getConf());
    DiskFault initial = DataNodeKeys.diskFault(dn.getConf());
    faults = new DataNodeFaults(name, System::nanoTime, (f, on) -> interceptReads(dn, f, on));
    reports = new AckReports(System::nanoTime);
    dataNode = dn;
    RUNNING.put(dn, this);
    CurtailFaultInjector.register(group, faults, reports);
    reportsBean = MBeans.register("DataNode", "CurtailReports-" + dn.getXferPort(), reports);
    if (injection) {
      mbean = MBeans.register("DataNode", "CurtailFaults-" + dn.getXferPort(), faults);
    }
    if (initial != null) {
      faults.slowDisk(initial);
    }
    String busyFile = dn.getConf().getTrimmed(DataNodeKeys.BUSY_FILE, "");
    if (!busyFile.isEmpty()) {
      Path path = Paths.get(busyFile);
      busyFileWatch = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "curtail-busy-file " + name);
        t.setDaemon(true); // never keeps a stopping DataNode alive
        return t;
      });
      busyFileWatch.scheduleWithFixedDelay(() -> reports.busyFileSeen(Files.exists(path)),
          0, 1, TimeUnit.SECONDS);
    }
    LOG.info("Curtail's plugin started on datanode={} faultInjection={}", name, injection);
  }

  private static void interceptReads(DataNode dn, DataNodeFaults faults, boolean on) {
    try {
      DataTransferThrottler current = DataNodeAccess.readThrottler(dn);
      if (on && !(current instanceof DiskQueueThrottler)) {
        DataNodeAccess.setReadThrottler(dn, new DiskQueueThrottler(faults, current));
      } else if (!on && current instanceof DiskQueueThrottler) {
        DataNodeAccess.setReadThrottler(dn, ((DiskQueueThrottler) current).previous());
      }
    } catch (DataNodeAccess.Unavailable e) {
      throw new IllegalStateException("cannot intercept reads on " + dn.getDisplayName(), e);
    }
  }

  @Override
  public void stop() {
    if (dataNode == null) {
      return;
    }
    RUNNING.remove(dataNode);
    faults.heal();
    if (busyFileWatch != null) {
      busyFileWatch.shutdownNow();
    }
    CurtailFaultInjector.unregister(group);
    if (mbean != null) {
      MBeans.unregister(mbean);
    }
    if (reportsBean != null) {
      MBeans.unregister(reportsBean);
    }
    dataNode = null;
  }

  @Override
  public void close() {
    stop();
  }
}
