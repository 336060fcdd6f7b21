package io.curtail.client.policy;

/**
 * How a reader stands with one DataNode after hedges to it lost: the losses in a row and the
 * packet count from which it may be hedged to again. Immutable; {@link Hedging} makes new ones.
 */
public final class HedgeBackoff {
  /** No lost hedge on record: hedge freely. */
  public static final HedgeBackoff NONE = new HedgeBackoff(0, 0);

  private final int losses;
  private final long resumeAtPacket;

  private HedgeBackoff(int losses, long resumeAtPacket) {
    this.losses = losses;
    this.resumeAtPacket = resumeAtPacket;
  }

  static HedgeBackoff until(int losses, long resumeAtPacket) {
    return new HedgeBackoff(losses, resumeAtPacket);
  }

  static HedgeBackoff givenUp(int losses) {
    return new HedgeBackoff(losses, Long.MAX_VALUE);
  }

  /** Hedges to this DataNode lost in a row. */
  public int losses() {
    return losses;
  }

  /** The first packet count at which a hedge may go to this DataNode again. */
  public long resumeAtPacket() {
    return resumeAtPacket;
  }

  /** True once retries are exhausted: no more hedges to this DataNode. */
  public boolean givenUp() {
    return resumeAtPacket == Long.MAX_VALUE;
  }

  public boolean allows(long packet) {
    return packet >= resumeAtPacket;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HedgeBackoff && ((HedgeBackoff) o).losses == losses
        && ((HedgeBackoff) o).resumeAtPacket == resumeAtPacket;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(resumeAtPacket) * 31 + losses;
  }

  @Override
  public String toString() {
    return givenUp() ? "HedgeBackoff{givenUp after " + losses + '}'
        : "HedgeBackoff{losses=" + losses + ", resumeAt=" + resumeAtPacket + '}';
  }
}
