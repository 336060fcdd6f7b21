package io.curtail.datanode.hook;

import io.curtail.datanode.fault.DataNodeFaults;
import org.apache.hadoop.hdfs.util.Canceler;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;

/**
 * A read throttler that makes every packet a DataNode sends wait for its injected faults (a disk
 * slowing reads, a slow NIC, a starved CPU: {@link DataNodeFaults#awaitSend}), then
 * applies the bandwidth throttler that was in place before (if any), so both faults compose.
 */
final class DiskQueueThrottler extends DataTransferThrottler {
  private final DataNodeFaults faults;
  private final DataTransferThrottler previous;

  DiskQueueThrottler(DataNodeFaults faults, DataTransferThrottler previous) {
    super(Long.MAX_VALUE / 1000); // unused: throttle is overridden below
    this.faults = faults;
    this.previous = previous;
  }

  DataTransferThrottler previous() {
    return previous;
  }

  @Override
  public void throttle(long numOfBytes) {
    throttle(numOfBytes, null);
  }

  @Override
  public void throttle(long numOfBytes, Canceler canceler) {
    faults.awaitSend(numOfBytes);
    if (previous != null) {
      previous.throttle(numOfBytes, canceler);
    }
  }
}
