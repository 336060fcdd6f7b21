package io.curtail.bench;

/**
 * How much work one run of a scenario does: concurrent clients, each doing whole files one after
 * another, plus background streams that keep the cluster busy. Immutable.
 */
public final class Workload {
  private final int clients;
  private final int filesPerClient;
  private final long fileBytes;
  private final Op[] opsByClient;
  private final int backgroundStreams;
  private final short replication;
  private final long blockSize;

  /**
   * @param ops the op of client {@code c} is {@code ops[c % ops.length]}
   */
  public Workload(int clients, int filesPerClient, long fileBytes, int backgroundStreams,
      short replication, long blockSize, Op... ops) {
    if (clients < 1 || filesPerClient < 1 || fileBytes < 0 || backgroundStreams < 0
        || replication < 1 || blockSize < 512 || ops.length == 0) {
      throw new IllegalArgumentException("bad workload: clients=" + clients + " files="
          + filesPerClient + " bytes=" + fileBytes + " background=" + backgroundStreams
          + " replication=" + replication + " blockSize=" + blockSize);
    }
    this.clients = clients;
    this.filesPerClient = filesPerClient;
    this.fileBytes = fileBytes;
    this.opsByClient = ops.clone();
    this.backgroundStreams = backgroundStreams;
    this.replication = replication;
    this.blockSize = blockSize;
  }

  /** The same workload with {@code scale} times as many files per client (at least one). */
  public Workload scaled(double scale) {
    int files = (int) Math.max(1, Math.round(filesPerClient * scale));
    return new Workload(clients, files, fileBytes, backgroundStreams, replication, blockSize,
        opsByClient);
  }

  /** The same workload with {@code streams} background streams instead. */
  public Workload withBackground(int streams) {
    return new Workload(clients, filesPerClient, fileBytes, streams, replication, blockSize,
        opsByClient);
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
        + (backgroundStreams > 0 ? ", " + backgroundStreams + " background streams" : "");
  }
}
