package io.curtail.bench;

/**
 * Where a scenario's writers put the faulty DataNode in their pipelines of three: wherever the
 * NameNode places it, or always first, second or last, or first with the far end of its faulty
 * link second. Writers place pipelines with favoured nodes, client locality ignored; the healthy
 * DataNodes that fill the other places rotate with the file, so all of them take part.
 */
enum Placement {
  /** The NameNode places every pipeline. */
  NAMENODE,
  FIRST,
  MIDDLE,
  LAST,
  /** The faulty DataNode first, the far end of its slow link second: every packet crosses it. */
  LINK;

  /**
   * The DataNode numbers of the {@code k}th file's pipeline, first to last, on a cluster of
   * {@code dataNodes}; null for {@link #NAMENODE}.
   */
  int[] pipeline(int k, int dataNodes, int faulty, int linkPeer) {
    switch (this) {
      case NAMENODE:
        return null;
      case LINK:
        return new int[] {faulty, linkPeer, other(k, dataNodes, faulty, linkPeer)};
      default:
        int a = other(k, dataNodes, faulty, -1);
        int b = other(k + 1, dataNodes, faulty, -1);
        return this == FIRST ? new int[] {faulty, a, b}
            : this == MIDDLE ? new int[] {a, faulty, b} : new int[] {a, b, faulty};
    }
  }

  /** The {@code k}th (modulo) of the DataNodes other than {@code x} and {@code y}. */
  private static int other(int k, int dataNodes, int x, int y) {
    int others = dataNodes - (y < 0 ? 1 : 2);
    int n = Math.floorMod(k, others);
    for (int i = 0; i < dataNodes; i++) {
      if (i != x && i != y && n-- == 0) {
        return i;
      }
    }
    throw new IllegalStateException("fewer than " + (others + 1) + " DataNodes");
  }
}
