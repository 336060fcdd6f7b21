package io.curtail.datanode;

import io.curtail.datanode.fault.DiskFault;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;

/**
 * The {@code curtail.datanode.*} keys a DataNode reads at start-up, so a chaos run can start one
 * DataNode of a real cluster with a slow disk from its own {@code hdfs-site.xml}, and an operator
 * can name the file that marks it busy. At run time the same fault and flag are changed over JMX.
 */
public final class DataNodeKeys {
  /** Service time of the injected disk per packet, in microseconds; 0 (default) injects nothing. */
  public static final String DISK_SERVICE_MICROS = "curtail.datanode.fault.disk.service.us";
  /** Background load on the injected disk, as a fraction of its capacity in [0, 1). */
  public static final String DISK_UTILISATION = "curtail.datanode.fault.disk.utilisation";
  /** Whether packet reads also pass through the injected disk. */
  public static final String DISK_READS = "curtail.datanode.fault.disk.reads";
  /** Seed of the background load's arrivals. */
  public static final String DISK_SEED = "curtail.datanode.fault.disk.seed";

  /**
   * A file whose existence marks the DataNode busy (checked every second), for a co-located
   * service to {@code touch} and remove; unset (default) means none. JMX sets busy too.
   */
  public static final String BUSY_FILE = "curtail.datanode.busy.file";

  private DataNodeKeys() {}

  /**
   * The disk fault {@code conf} asks for, or null for none.
   *
   * @throws IllegalArgumentException naming the key when a value breaks its rule
   */
  public static DiskFault diskFault(Configuration conf) {
    long micros = conf.getLong(DISK_SERVICE_MICROS, 0);
    if (micros < 0) {
      throw new IllegalArgumentException(DISK_SERVICE_MICROS + " must be >= 0, was " + micros);
    }
    if (micros == 0) {
      return null;
    }
    double u = conf.getDouble(DISK_UTILISATION, 0);
    if (!(u >= 0 && u < 1)) {
      throw new IllegalArgumentException(DISK_UTILISATION + " must be in [0, 1), was " + u);
    }
    DiskFault f = DiskFault.serviceTime(Duration.ofNanos(micros * 1000)).withUtilisation(u)
        .withSeed(conf.getLong(DISK_SEED, 1));
    return conf.getBoolean(DISK_READS, false) ? f.withReads() : f;
  }
}
