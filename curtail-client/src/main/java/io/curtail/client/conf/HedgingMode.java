package io.curtail.client.conf;

import java.util.Locale;

/** How reads hedge to another replica ({@code curtail.read.hedging}). */
public enum HedgingMode {
  /** Never hedge: reads behave as the stock client's. */
  OFF,
  /** Hedge a packet slower than {@code curtail.read.hedging.static.threshold.ms}. */
  STATIC,
  /** Hedge a packet slower than an adaptive threshold learnt from other DataNodes (paper §4.3). */
  SMART;

  static HedgingMode parse(String value) {
    for (HedgingMode m : values()) {
      if (m.name().toLowerCase(Locale.ROOT).equals(value.toLowerCase(Locale.ROOT))) {
        return m;
      }
    }
    return null;
  }
}
