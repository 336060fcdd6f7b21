package io.curtail.bench;

/**
 * How much work one run of a scenario does: concurrent clients, each doing whole files one after
 * another, plus background streams that keep the cluster busy. Immutable.
 *
 * <p>By default each client starts its next file when the last ends (a closed loop), which
 * measures throughput. A <em>paced</em> workload starts them on a schedule instead (an open
 * loop), so that modes are compared at the same load: in a closed loop, the mode whose clients
 * wait longer leaves the machine to its other clients, and their files look fast.
 */
public final class Workload {
  /** The key of the encryption zone an encrypted workload's files live in. */
  public static final String ENCRYPTION_KEY = "curtail-bench";

  private final int clients;
  private final int filesPerClient;
  private final long fileBytes;
  private final Op[] opsByClient;
  private final int backgroundStreams;
  private final short replication;
  private final long blockSize;
  private final long paceNanos;
  /** Whether the files read live in an encryption zone (key {@link #ENCRYPTION_KEY}). */
  private final boolean encrypted;
  /** Whether reads verify checksums; false reads as HBase reads its HFiles. */
  private final boolean verifyChecksum;
  /** The erasure-coding policy of the files' directory; null for replicated files. */
  private final String erasureCoding;
  /**
   * @param ops the op of client {@code c} is {@code ops[c % ops.length]}
   */
  public Workload(int clients, int filesPerClient, long fileBytes, int backgroundStreams,
      short replication, long blockSize, Op... ops) {
    this(clients, filesPerClient, fileBytes, backgroundStreams, replication, blockSize, 0, false,
        true, null, ops);
  }

  private Workload(int clients, int filesPerClient, long fileBytes, int backgroundStreams,
      short replication, long blockSize, long paceNanos, boolean encrypted,
      boolean verifyChecksum, String erasureCoding, Op... ops) {
    if (clients < 1 || filesPerClient < 1 || fileBytes < 0 || backgroundStreams < 0
        || replication < 1 || blockSize < 512 || paceNanos < 0 || ops.length == 0) {
      throw new IllegalArgumentException("bad workload: clients=" + clients + " files="
          + filesPerClient + " bytes=" + fileBytes + " background=" + backgroundStreams
          + " replication=" + replication + " blockSize=" + blockSize + " paceNanos="
          + paceNanos);
    }
    this.clients = clients;
    this.filesPerClient = filesPerClient;
    this.fileBytes = fileBytes;
    this.opsByClient = ops.clone();
    this.backgroundStreams = backgroundStreams;
    this.replication = replication;
    this.blockSize = blockSize;
    this.paceNanos = paceNanos;
    this.encrypted = encrypted;
    this.verifyChecksum = verifyChecksum;
    this.erasureCoding = erasureCoding;
  }

  /** The same workload with {@code scale} times as many files per client (at least one). */
  public Workload scaled(double scale) {
    int files = (int) Math.max(1, Math.round(filesPerClient * scale));
    return new Workload(clients, files, fileBytes, backgroundStreams, replication, blockSize,
        paceNanos, encrypted, verifyChecksum, erasureCoding, opsByClient);
  }

  /** The same workload with {@code streams} background streams instead. */
  public Workload withBackground(int streams) {
    return new Workload(clients, filesPerClient, fileBytes, streams, replication, blockSize,
        paceNanos, encrypted, verifyChecksum, erasureCoding, opsByClient);
  }

  /**
   * The same workload paced: each client's files are due {@code paceNanos} apart (the clients'
   * schedules staggered evenly within that), and a file's time counts from when it was due, so
   * a client that falls behind pays for it, as users waiting on it would. 0 for a closed loop.
   */
  public Workload withPace(long paceNanos) {
    return new Workload(clients, filesPerClient, fileBytes, backgroundStreams, replication,
        blockSize, paceNanos, encrypted, verifyChecksum, erasureCoding, opsByClient);
  }

  /**
   * The same workload on files in an encryption zone of key {@link #ENCRYPTION_KEY}, which the
   * cluster's key provider must hold (the embedded clusters' does).
   */
  public Workload encrypted() {
    return new Workload(clients, filesPerClient, fileBytes, backgroundStreams, replication,
        blockSize, paceNanos, true, verifyChecksum, erasureCoding, opsByClient);
  }

  /**
   * The same workload read with checksum verification off ({@code setVerifyChecksum(false)}),
   * as HBase reads its HFiles: every mode's file systems are told so.
   */
  public Workload withoutChecksums() {
    return new Workload(clients, filesPerClient, fileBytes, backgroundStreams, replication,
        blockSize, paceNanos, encrypted, false, erasureCoding, opsByClient);
  }

  /**
   * The same workload on erasure-coded files: their directory gets {@code policy} (which the
   * cluster must have enough DataNodes for: RS-3-2 five, XOR-2-1 three); replication is then
   * the policy's, and the block size each internal block's.
   */
  public Workload erasureCoded(String policy) {
    return new Workload(clients, filesPerClient, fileBytes, backgroundStreams, replication,
        blockSize, paceNanos, encrypted, verifyChecksum, policy, opsByClient);
  }

  /** The erasure-coding policy of the files' directory; null for replicated files. */
  public String erasureCoding() {
    return erasureCoding;
  }

  public boolean isEncrypted() {
    return encrypted;
  }

  public boolean verifiesChecksums() {
    return verifyChecksum;
  }

  /** The replication and block size of the files this workload writes. */
  public Op.Shape shape() {
    return new Op.Shape(replication, blockSize);
  }

  /**
   * When client {@code client}'s file {@code file} is due, in nanoseconds after the batch
   * started; 0 for every file of a closed loop, which starts each as soon as it can.
   */
  public long dueNanos(int client, int file) {
    return paceNanos * file + paceNanos * client / clients;
  }

  public boolean paced() {
    return paceNanos > 0;
  }

  public int clients() {
    return clients;
  }

  public int filesPerClient() {
    return filesPerClient;
  }

  public long fileBytes() {
    return fileBytes;
  }

  public Op op(int client) {
    return opsByClient[client % opsByClient.length];
  }

  public boolean writes() {
    for (Op op : opsByClient) {
      if (op.writes()) {
        return true;
      }
    }
    return false;
  }

  public boolean reads() {
    for (Op op : opsByClient) {
      if (!op.writes()) {
        return true;
      }
    }
    return false;
  }

  public boolean preads() {
    for (Op op : opsByClient) {
      if (op.positional()) {
        return true;
      }
    }
    return false;
  }

  public int backgroundStreams() {
    return backgroundStreams;
  }

  public short replication() {
    return replication;
  }

  public long blockSize() {
    return blockSize;
  }

  @Override
  public String toString() {
    StringBuilder ops = new StringBuilder();
    for (Op op : opsByClient) {
      ops.append(ops.length() == 0 ? "" : "/").append(op.name().toLowerCase(java.util.Locale.ROOT));
    }
    return clients + " clients × " + filesPerClient + " files × " + fileBytes / (1024 * 1024)
        + " MiB (" + ops + "), replication " + replication
        + (backgroundStreams > 0 ? ", " + backgroundStreams + " background streams" : "")
        + (encrypted ? ", in an encryption zone" : "")
        + (erasureCoding != null ? ", erasure-coded " + erasureCoding : "")
        + (verifyChecksum ? "" : ", checksum verification off")
        + (paced() ? ", a file due every " + paceNanos / 1_000_000 + " ms per client (paced:"
            + " times count from when due)" : "");
  }
}
