package io.curtail.client.track;

/**
 * A DataNode as Curtail's trackers and policies know it: its data-transfer address
 * ({@code host:port}), which is what the wire protocol connects to and what logs print.
 *
 * <p>A value of the project's own so that nothing below the Hadoop layer depends on
 * {@code DatanodeInfo}; the Hadoop layer makes these from a DataNode's transfer address.
 */
public final class NodeId {
  private final String address;

  private NodeId(String address) {
    this.address = address;
  }

  /** The node at {@code address}, a non-empty {@code host:port}. */
  public static NodeId of(String address) {
    if (address == null || address.isEmpty()) {
      throw new IllegalArgumentException("a DataNode address must be a non-empty host:port, was '"
          + address + "'");
    }
    return new NodeId(address);
  }

  public String address() {
    return address;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NodeId && ((NodeId) o).address.equals(address);
  }

  @Override
  public int hashCode() {
    return address.hashCode();
  }

  @Override
  public String toString() {
    return address;
  }
}
