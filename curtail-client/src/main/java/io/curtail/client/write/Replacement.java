package io.curtail.client.write;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One slow DataNode fail-fast replaced in a write pipeline, for operators and A/B analyses: which
 * DataNode, where it sat, and on what evidence it was judged.
 */
public final class Replacement {
  private final List<String> pipeline;
  private final int position;
  private final String replacement;
  private final boolean attributedExactly;

  Replacement(String[] pipeline, int position, String replacement, boolean attributedExactly) {
    this.pipeline = Arrays.asList(pipeline.clone());
    this.position = position;
    this.replacement = Objects.requireNonNull(replacement);
    this.attributedExactly = attributedExactly;
  }

  /** The pipeline's DataNodes before the replacement, by transfer address, in order. */
  public List<String> pipeline() {
    return pipeline;
  }

  /** Where the replaced DataNode sat: 0 is the first. */
  public int position() {
    return position;
  }

  /** The transfer address of the replaced DataNode. */
  public String replaced() {
    return pipeline.get(position);
  }

  /** The transfer address of the DataNode that took its place. */
  public String replacement() {
    return replacement;
  }

  /**
   * Whether the acks told every DataNode's share of the pipeline's time apart when it was judged:
   * always for a pipeline of two (the stock ack splits the first DataNode's share from the
   * second's), and for a longer one when every DataNode but the last reported its downstream time
   * (Curtail's DataNode plugin, with {@code curtail.write.datanode.reports}). Otherwise a slow
   * DataNode among several unseparated ones was found by elimination.
   */
  public boolean attributedExactly() {
    return attributedExactly;
  }

  /** How the slow DataNode was told apart from the others, in words. */
  public String howFound() {
    return attributedExactly ? "every share measured" : "found by elimination";
  }

  @Override
  public String toString() {
    return "replaced " + replaced() + " at position " + position + " of " + pipeline + " with "
        + replacement + " (" + howFound() + ")";
  }
}
