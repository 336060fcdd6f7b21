package io.curtail.datanode.fault;

/**
 * When a disk access arriving now completes: the one question a {@link DiskFault} answers for the
 * DataNode's hooks. Pure (time comes in as numbers) and thread-safe.
 */
interface DiskModel {
  /** Admits an access arriving at {@code nowNanos}; returns when it completes. */
  long admit(long nowNanos);
}
