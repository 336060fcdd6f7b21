package io.curtail.client.conf;

import java.util.Map;

/**
 * Reads one {@code curtail.*} setting at a time, taking the key's default where it is absent and
 * holding it to its rule: a value that breaks it fails with an {@link InvalidConfigException}
 * naming the key, the rule and the value. {@link CurtailConfig} says which rule each key has.
 */
final class SettingReader {
  private final Map<String, String> settings;

  SettingReader(Map<String, String> settings) {
    this.settings = settings;
  }

  String raw(CurtailKey k) {
    String v = settings.get(k.key());
    return v == null ? k.defaultValue() : v.trim();
  }

  boolean bool(CurtailKey k) {
    String v = raw(k);
    if (v.equalsIgnoreCase("true")) {
      return true;
    }
    if (v.equalsIgnoreCase("false")) {
      return false;
    }
    throw new InvalidConfigException(k.key(), v, "must be true or false");
  }

  HedgingMode hedgingMode(CurtailKey k) {
    String v = raw(k);
    HedgingMode m = HedgingMode.parse(v);
    if (m == null) {
      throw new InvalidConfigException(k.key(), v, "must be one of off, static, smart");
    }
    return m;
  }

  /** A non-empty value without spaces or '|'. */
  String word(CurtailKey k) {
    String v = raw(k);
    if (v.isEmpty() || !v.matches("[^\\s|]+")) {
      throw new InvalidConfigException(k.key(), v, "must be a non-empty word without spaces"
          + " or '|'");
    }
    return v;
  }

  long longIn(CurtailKey k, long min, long max) {
    String v = raw(k);
    String rule = "must be a whole number in [" + min + ", " + max + "]";
    long n;
    try {
      n = Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new InvalidConfigException(k.key(), v, rule);
    }
    if (n < min || n > max) {
      throw new InvalidConfigException(k.key(), v, rule);
    }
    return n;
  }

  double openUnitInterval(CurtailKey k) {
    double d = number(k, "must be a number in (0, 1)");
    if (!(d > 0 && d < 1)) {
      throw new InvalidConfigException(k.key(), raw(k), "must be a number in (0, 1)");
    }
    return d;
  }

  double unitIntervalOpenBelow(CurtailKey k) {
    String rule = "must be a number in (0, 1]";
    double d = number(k, rule);
    if (!(d > 0 && d <= 1)) {
      throw new InvalidConfigException(k.key(), raw(k), rule);
    }
    return d;
  }

  double greaterThanOne(CurtailKey k) {
    String rule = "must be a finite number > 1";
    double d = number(k, rule);
    if (!(d > 1) || Double.isInfinite(d)) {
      throw new InvalidConfigException(k.key(), raw(k), rule);
    }
    return d;
  }

  private double number(CurtailKey k, String rule) {
    String v = raw(k);
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new InvalidConfigException(k.key(), v, rule);
    }
  }
}
