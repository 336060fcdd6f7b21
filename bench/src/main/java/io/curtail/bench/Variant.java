package io.curtail.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * A mode as its batches run it: at the run's hedge threshold, or, for a mode swept over
 * thresholds ({@code stock-best}), at one of them, labelled with it ({@code stock-best@50ms}).
 */
final class Variant {
  final Mode mode;
  final Mode.Options options;
  final String label;

  private Variant(Mode mode, Mode.Options options, String label) {
    this.mode = mode;
    this.options = options;
    this.label = label;
  }

  /** The variants {@code mode} runs as in {@code s}. */
  static List<Variant> of(Mode mode, Scenario s, Mode.Options options) {
    List<Variant> out = new ArrayList<>();
    List<Long> swept = mode.sweptThresholds(s, options);
    if (swept.isEmpty()) {
      out.add(new Variant(mode, options, mode.label()));
    }
    for (long ms : swept) {
      out.add(new Variant(mode, options.withHedgeThreshold(ms), mode.label() + "@" + ms + "ms"));
    }
    return out;
  }

  @Override
  public String toString() {
    return label;
  }
}
