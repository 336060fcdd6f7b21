package io.curtail.client.conf;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A/B cohorts of hosts (paper §5, §6.1): {@code curtail.ab.cohorts}, e.g.
 * {@code control=50:none,ff=25:failfast,all=25:failfast+smart}, each cohort a name, a share of
 * hosts in whole percent (the shares sum to 100) and the techniques it runs: {@code none}, or
 * any of {@code failfast}, {@code smart} and {@code static} (hedging; one of the two) joined by
 * {@code +}. A host falls in a cohort by a hash of the salt and its name, stable across JVMs,
 * restarts and Java versions, so every client on a machine runs the same techniques and cohorts
 * are compared machine against machine, as the paper did.
 */
public final class Cohorts {
  static final String RULE = "must be name=percent:techniques, comma-separated, percents summing"
      + " to 100, techniques none or failfast, smart, static joined by '+' (smart and static"
      + " exclusive), e.g. control=50:none,ff=25:failfast,all=25:failfast+smart";

  /** One cohort: its name, share of hosts, and the techniques it runs. */
  public static final class Cohort {
    public final String name;
    public final int percent;
    public final boolean failFast;
    public final HedgingMode hedging;

    Cohort(String name, int percent, boolean failFast, HedgingMode hedging) {
      this.name = name;
      this.percent = percent;
      this.failFast = failFast;
      this.hedging = hedging;
    }

    @Override
    public String toString() {
      return name + "=" + percent + ":" + techniques();
    }

    /** The techniques as written in a definition, {@code none} for none. */
    public String techniques() {
      List<String> t = new ArrayList<>();
      if (failFast) {
        t.add("failfast");
      }
      if (hedging != HedgingMode.OFF) {
        t.add(hedging.name().toLowerCase(java.util.Locale.ROOT));
      }
      return t.isEmpty() ? "none" : String.join("+", t);
    }
  }

  private final List<Cohort> cohorts;

  private Cohorts(List<Cohort> cohorts) {
    this.cohorts = cohorts;
  }

  /** The cohorts in their order of definition (empty: no A/B test). */
  public List<Cohort> all() {
    return Collections.unmodifiableList(cohorts);
  }

  /**
   * Parses a definition; an empty one means no A/B test.
   *
   * @throws InvalidConfigException naming {@code key}, the value and the rule
   */
  static Cohorts parse(String key, String value) {
    List<Cohort> out = new ArrayList<>();
    if (value.isEmpty()) {
      return new Cohorts(out);
    }
    Set<String> names = new HashSet<>();
    int total = 0;
    for (String part : value.split(",", -1)) {
      String p = part.trim();
      int eq = p.indexOf('=');
      int colon = p.indexOf(':', eq + 1);
      if (eq <= 0 || colon < 0) {
        throw new InvalidConfigException(key, value, "cohort '" + p + "' " + RULE);
      }
      String name = p.substring(0, eq).trim();
      if (!name.matches("[A-Za-z0-9_.-]+") || !names.add(name)) {
        throw new InvalidConfigException(key, value, "cohort name '" + name + "' must be a"
            + " unique word of letters, digits, '_', '.' or '-'; " + RULE);
      }
      int percent;
      try {
        percent = Integer.parseInt(p.substring(eq + 1, colon).trim());
      } catch (NumberFormatException e) {
        percent = -1;
      }
      if (percent < 0 || percent > 100) {
        throw new InvalidConfigException(key, value, "cohort '" + name + "' has share '"
            + p.substring(eq + 1, colon).trim() + "', not a whole percent in [0, 100]; " + RULE);
      }
      total += percent;
      out.add(techniques(key, value, name, percent, p.substring(colon + 1).trim()));
    }
    if (total != 100) {
      throw new InvalidConfigException(key, value, "shares sum to " + total + ", not 100; "
          + RULE);
    }
    return new Cohorts(out);
  }

  private static Cohort techniques(String key, String value, String name, int percent,
      String list) {
    if (list.equals("none")) {
      return new Cohort(name, percent, false, HedgingMode.OFF);
    }
    boolean failFast = false;
    HedgingMode hedging = HedgingMode.OFF;
    for (String t : list.split("\\+", -1)) {
      switch (t.trim()) {
        case "failfast":
          failFast = true;
          break;
        case "smart":
        case "static":
          if (hedging != HedgingMode.OFF) {
            throw new InvalidConfigException(key, value, "cohort '" + name + "' names two"
                + " hedging techniques; " + RULE);
          }
          hedging = HedgingMode.parse(t.trim());
          break;
        default:
          throw new InvalidConfigException(key, value, "cohort '" + name + "' has unknown"
              + " technique '" + t.trim() + "'; " + RULE);
      }
    }
    return new Cohort(name, percent, failFast, hedging);
  }

  /**
   * The cohort {@code host} falls in under {@code salt}: the host's bucket in [0, 100), from the
   * first bytes of SHA-256 of salt and host, taken by the cohorts in order of definition. Null
   * when there are no cohorts.
   */
  public Cohort of(String host, String salt) {
    if (cohorts.isEmpty()) {
      return null;
    }
    int bucket = bucket(host, salt);
    int upTo = 0;
    for (Cohort c : cohorts) {
      upTo += c.percent;
      if (bucket < upTo) {
        return c;
      }
    }
    throw new AssertionError("shares sum to 100");
  }

  /** A host's bucket in [0, 100) under {@code salt}. */
  static int bucket(String host, String salt) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256")
          .digest((salt + "\n" + host).getBytes(StandardCharsets.UTF_8));
      long v = 0;
      for (int i = 0; i < 8; i++) {
        v = v << 8 | (d[i] & 0xff);
      }
      return (int) Long.remainderUnsigned(v, 100);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
