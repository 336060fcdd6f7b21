package io.curtail.tools.blame;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A labelled fault: one DataNode, or a link between two (either end counts as the culprit), slow
 * from {@code fromMillis} to {@code toMillis} (epoch milliseconds; {@link Long#MAX_VALUE} while it
 * lasts). The benchmark makes them from what it injects; an operator writes them in a labels file
 * ({@link #read}) for a production cluster's statistics logs.
 *
 * <p>A DataNode slow only in what it <em>sends</em> ({@link #sending}: a NIC or an uplink slow
 * on the way out) slows a write pipeline only where it forwards, not as the last DataNode, which
 * sends nothing but small acks: a block it ends is not through the fault, and not replacing it
 * there is no miss.
 */
public final class Incident {
  private final List<String> ends;
  private final long fromMillis;
  private final long toMillis;
  private final boolean sendsOnly;

  public Incident(List<String> ends, long fromMillis, long toMillis) {
    this(ends, fromMillis, toMillis, false);
  }

  /**
   * @param sendsOnly whether the fault slows only what its one DataNode sends (see
   *     {@link #sending})
   */
  public Incident(List<String> ends, long fromMillis, long toMillis, boolean sendsOnly) {
    if (ends.isEmpty() || ends.size() > 2 || toMillis < fromMillis) {
      throw new IllegalArgumentException("an incident is one DataNode or a link of two, ending"
          + " no earlier than it starts; was " + ends + " from " + fromMillis + " to "
          + toMillis);
    }
    if (sendsOnly && ends.size() != 1) {
      throw new IllegalArgumentException("only one DataNode is slow sending; was " + ends);
    }
    this.ends = Collections.unmodifiableList(new ArrayList<>(ends));
    this.fromMillis = fromMillis;
    this.toMillis = toMillis;
    this.sendsOnly = sendsOnly;
  }

  /** One DataNode ({@code host:port}, or a host alone for any of its ports). */
  public static Incident dataNode(String address, long fromMillis, long toMillis) {
    return new Incident(List.of(address), fromMillis, toMillis);
  }

  /** One DataNode slow only in what it sends (its NIC or uplink on the way out). */
  public static Incident sending(String address, long fromMillis, long toMillis) {
    return new Incident(List.of(address), fromMillis, toMillis, true);
  }

  /** The link between {@code a} and {@code b}, either way. */
  public static Incident link(String a, String b, long fromMillis, long toMillis) {
    return new Incident(List.of(a, b), fromMillis, toMillis);
  }

  public boolean isLink() {
    return ends.size() == 2;
  }

  public List<String> ends() {
    return ends;
  }

  public long fromMillis() {
    return fromMillis;
  }

  /**
   * This fault as it acted on a DataNode that flapped from {@code flapFrom} to {@code flapTo}:
   * steady until the flapping began, then only in its slow spells ({@code slowMillis} from
   * {@code flapFrom}, then {@code healthyMillis} at rest, again), and not after it ended, which
   * healed the DataNode. One incident per spell, in order.
   */
  public List<Incident> spells(long flapFrom, long flapTo, long slowMillis, long healthyMillis) {
    if (slowMillis <= 0 || healthyMillis <= 0 || flapTo < flapFrom) {
      throw new IllegalArgumentException("spells of " + slowMillis + " ms slow and "
          + healthyMillis + " ms healthy from " + flapFrom + " to " + flapTo);
    }
    List<Incident> out = new ArrayList<>();
    if (fromMillis < flapFrom) {
      out.add(new Incident(ends, fromMillis, Math.min(toMillis, flapFrom - 1), sendsOnly));
    }
    long until = Math.min(toMillis, flapTo);
    for (long spell = flapFrom; spell <= until; spell += slowMillis + healthyMillis) {
      long from = Math.max(spell, fromMillis);
      long to = Math.min(spell + slowMillis, until);
      if (from <= to) {
        out.add(new Incident(ends, from, to, sendsOnly));
      }
    }
    return out;
  }

  /** Whether the fault was on at {@code millis}. */
  public boolean onAt(long millis) {
    return millis >= fromMillis && millis <= toMillis;
  }

  /** Whether it was on at any time from {@code from} to {@code to}. */
  public boolean overlaps(long from, long to) {
    return from <= toMillis && to >= fromMillis;
  }

  /** Whether {@code address} ({@code host:port}) is the faulty DataNode or an end of the link. */
  public boolean blames(String address) {
    for (String e : ends) {
      if (same(e, address)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a pipeline, its DataNodes in order, goes through the fault: holds the DataNode (not
   * last, if it is slow only sending), or has the link's ends next to each other.
   */
  public boolean in(List<String> pipeline) {
    for (int i = 0; i < pipeline.size(); i++) {
      if (!isLink() && same(ends.get(0), pipeline.get(i))) {
        return !sendsOnly || i < pipeline.size() - 1;
      }
      if (isLink() && i > 0 && blames(pipeline.get(i - 1)) && blames(pipeline.get(i))
          && !same(pipeline.get(i - 1), pipeline.get(i))) {
        return true;
      }
    }
    return false;
  }

  /** A label without a port names every DataNode of its host. */
  private static boolean same(String label, String address) {
    if (label.equals(address)) {
      return true;
    }
    int colon = address.lastIndexOf(':');
    return label.indexOf(':') < 0 && colon > 0 && address.substring(0, colon).equals(label);
  }

  /**
   * An operator's labels, one incident a line: {@code datanode ADDRESS FROM TO},
   * {@code sending ADDRESS FROM TO} (slow only on the way out) or
   * {@code link ADDRESS ADDRESS FROM TO}, where an address is {@code host:port} (a transfer
   * address, as the statistics name DataNodes) or a host alone, and a time an ISO-8601 instant
   * ({@code 2026-11-25T09:00:00Z}), epoch milliseconds, or {@code -} for "still on". Blank lines
   * and those starting with {@code #} are skipped.
   *
   * @throws IOException naming the line that is not one
   */
  public static List<Incident> read(Path file) throws IOException {
    List<Incident> out = new ArrayList<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int n = 0; n < lines.size(); n++) {
      String line = lines.get(n).trim();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      try {
        out.add(parse(line.split("\\s+")));
      } catch (IllegalArgumentException e) {
        throw new IOException(file + " line " + (n + 1) + " is not an incident ('datanode"
            + " ADDRESS FROM TO', 'sending ADDRESS FROM TO' or 'link ADDRESS ADDRESS FROM TO'): "
            + e.getMessage(), e);
      }
    }
    return out;
  }

  private static Incident parse(String[] f) {
    if (f[0].equals("datanode") && f.length == 4) {
      return dataNode(f[1], time(f[2], 0), time(f[3], Long.MAX_VALUE));
    }
    if (f[0].equals("sending") && f.length == 4) {
      return sending(f[1], time(f[2], 0), time(f[3], Long.MAX_VALUE));
    }
    if (f[0].equals("link") && f.length == 5) {
      return link(f[1], f[2], time(f[3], 0), time(f[4], Long.MAX_VALUE));
    }
    throw new IllegalArgumentException("'" + String.join(" ", f) + "'");
  }

  private static long time(String s, long dash) {
    if (s.equals("-")) {
      return dash;
    }
    if (s.chars().allMatch(Character::isDigit)) {
      return Long.parseLong(s);
    }
    try {
      return Instant.parse(s).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("time '" + s + "' is neither an ISO-8601 instant, epoch"
          + " milliseconds nor '-'");
    }
  }

  /** This incident as a line of a labels file ({@link #read}). */
  public String toLabel() {
    return kind() + " " + String.join(" ", ends) + " " + fromMillis + " "
        + (toMillis == Long.MAX_VALUE ? "-" : Long.toString(toMillis));
  }

  private String kind() {
    return isLink() ? "link" : sendsOnly ? "sending" : "datanode";
  }

  @Override
  public String toString() {
    return kind() + " " + String.join(" ", ends) + " from " + fromMillis + " to "
        + (toMillis == Long.MAX_VALUE ? "-" : Long.toString(toMillis));
  }
}
