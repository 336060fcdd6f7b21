package io.curtail.bench.soak;

import org.apache.hadoop.fs.Path;

/** A file a writer made, and how much of it the application was told is safe. */
final class Written {
  final Path path;
  final long seed;
  final long length;
  volatile long durable;
  volatile boolean closed;
  volatile boolean failed;
  /** Read back whole by the stock client and deleted, to keep the disks from filling. */
  volatile boolean retired;

  Written(Path path, long seed, long length) {
    this.path = path;
    this.seed = seed;
    this.length = length;
  }
}
