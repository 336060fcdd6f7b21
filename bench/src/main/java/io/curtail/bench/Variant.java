package io.curtail.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A mode as its batches run it: as it is, or as one of its variants, each with client settings
 * of its own over the mode's and labelled with them: {@code stock-best} at one of its hedge
 * thresholds ({@code stock-best@50ms}), {@code curtail-ab} as one cohort's host
 * ({@code curtail-ab@control}).
 */
final class Variant {
  final Mode mode;
  final Mode.Options options;
  final String label;
  /** Client settings set over the mode's. */
  final Map<String, String> settings;

  private Variant(Mode mode, Mode.Options options, String label, Map<String, String> settings) {
    this.mode = mode;
    this.options = options;
    this.label = label;
    this.settings = settings;
  }

  /** The variants {@code mode} runs as in {@code s}. */
  static List<Variant> of(Mode mode, Scenario s, Mode.Options options) {
    List<Variant> out = new ArrayList<>();
    mode.variants(s, options).forEach((suffix, settings) ->
        out.add(new Variant(mode, options, mode.label() + suffix, settings)));
    return out;
  }

  @Override
  public String toString() {
    return label;
  }
}
