package io.curtail.datanode;

import io.curtail.datanode.fault.DiskFault;
import java.time.Duration;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;

/**
 * The {@code curtail.datanode.*} keys a DataNode reads at start-up, so a chaos run can start one
 * DataNode of a real cluster with a slow disk from its own {@code hdfs-site.xml}, and an operator
 * can name the file that marks it busy. At run time the same fault and flag are changed over JMX.
 *
 * <p>Fault injection is off unless {@link #FAULT_INJECTION} turns it on: a production DataNode
 * running the plugin for its reports must not be one JMX call away from a slow disk.
 */
public final class DataNodeKeys {
  /**
   * Whether this DataNode's faults can be injected (its {@code CurtailFaults} JMX bean, the
   * {@code curtail.datanode.fault.*} keys below); false by default. The test cluster, the
   * benchmark and the launcher of separate processes turn it on; chaos runs on real clusters must.
   */
  public static final String FAULT_INJECTION = "curtail.datanode.fault.injection";
  /** Service time of the injected disk per packet, in microseconds; 0 (default) injects nothing. */
  public static final String DISK_SERVICE_MICROS = "curtail.datanode.fault.disk.service.us";
  /** Background load on the injected disk, as a fraction of its capacity in [0, 1). */
  public static final String DISK_UTILISATION = "curtail.datanode.fault.disk.utilisation";
  /**
   * Which accesses the injected disk fault slows, a comma-separated list of {@code writes}
   * (packets written), {@code reads} (packets read) and {@code opens} (replicas opened for a read).
   */
  public static final String DISK_ACCESSES = "curtail.datanode.fault.disk.accesses";
  /** Seed of the background load's arrivals. */
  public static final String DISK_SEED = "curtail.datanode.fault.disk.seed";
  /** Injects stalls instead of a slow disk: how often the disk freezes, in milliseconds. */
  public static final String STALL_EVERY_MS = "curtail.datanode.fault.stall.every.ms";
  /** How long each stall lasts, in milliseconds. */
  public static final String STALL_FOR_MS = "curtail.datanode.fault.stall.for.ms";

  /**
   * A file whose existence marks the DataNode busy (checked every second), for a co-located
   * service to {@code touch} and remove; unset (default) means none. JMX sets busy too.
   */
  public static final String BUSY_FILE = "curtail.datanode.busy.file";

  private DataNodeKeys() {}

  /** Whether {@code conf} turns fault injection on ({@link #FAULT_INJECTION}). */
  public static boolean faultInjection(Configuration conf) {
    return conf.getBoolean(FAULT_INJECTION, false);
  }

  /**
   * The disk fault {@code conf} asks for, or null for none.
   *
   * @throws IllegalArgumentException naming the key when a value breaks its rule, or when a fault
   *     is asked for with fault injection off
   */
  public static DiskFault diskFault(Configuration conf) {
    long micros = conf.getLong(DISK_SERVICE_MICROS, 0);
    long stallEvery = conf.getLong(STALL_EVERY_MS, 0);
    if ((micros != 0 || stallEvery != 0) && !faultInjection(conf)) {
      throw new IllegalArgumentException((micros != 0 ? DISK_SERVICE_MICROS : STALL_EVERY_MS)
          + " asks for a fault but " + FAULT_INJECTION + " is false; set it to true to inject"
          + " faults on this DataNode");
    }
    if (micros < 0) {
      throw new IllegalArgumentException(DISK_SERVICE_MICROS + " must be >= 0, was " + micros);
    }
    if (stallEvery < 0) {
      throw new IllegalArgumentException(STALL_EVERY_MS + " must be >= 0, was " + stallEvery);
    }
    if (micros > 0 && stallEvery > 0) {
      throw new IllegalArgumentException("set " + DISK_SERVICE_MICROS + " or " + STALL_EVERY_MS
          + ", not both: a DataNode has one disk fault at a time");
    }
    DiskFault f;
    if (stallEvery > 0) {
      long lasting = conf.getLong(STALL_FOR_MS, 0);
      try {
        f = DiskFault.stalls(Duration.ofMillis(stallEvery), Duration.ofMillis(lasting));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(STALL_FOR_MS + "=" + lasting + " with "
            + STALL_EVERY_MS + "=" + stallEvery + ": " + e.getMessage(), e);
      }
    } else if (micros > 0) {
      double u = conf.getDouble(DISK_UTILISATION, 0);
      if (!(u >= 0 && u < 1)) {
        throw new IllegalArgumentException(DISK_UTILISATION + " must be in [0, 1), was " + u);
      }
      f = DiskFault.serviceTime(Duration.ofNanos(micros * 1000)).withUtilisation(u)
          .withSeed(conf.getLong(DISK_SEED, 1));
    } else {
      return null;
    }
    String named = conf.getTrimmed(DISK_ACCESSES, "");
    if (named.isEmpty()) {
      return f;
    }
    EnumSet<DiskFault.Access> accesses = EnumSet.noneOf(DiskFault.Access.class);
    try {
      for (String a : named.split(",")) {
        accesses.add(DiskFault.Access.named(a));
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(DISK_ACCESSES + "=" + named + ": " + e.getMessage(), e);
    }
    return f.on(accesses);
  }
}
