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
  private final boolean judgedOnReports;

  Replacement(String[] pipeline, int position, String replacement, boolean judgedOnReports) {
    this.pipeline = Arrays.asList(pipeline.clone());
    this.position = position;
    this.replacement = Objects.requireNonNull(replacement);
    this.judgedOnReports = judgedOnReports;
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
   * Whether the pipeline was judged on the service times its DataNodes reported on acks, rather
   * than on the client's own attribution.
   */
  public boolean judgedOnReports() {
    return judgedOnReports;
  }

  @Override
  public String toString() {
    return "replaced " + replaced() + " at position " + position + " of " + pipeline + " with "
        + replacement + (judgedOnReports ? " (on DataNode reports)" : " (on client attribution)");
  }
}
