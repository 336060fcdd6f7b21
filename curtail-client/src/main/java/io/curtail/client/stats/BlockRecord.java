package io.curtail.client.stats;

import io.curtail.client.trace.BlockObserver;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What happened to one block read or written, for per-block statistics and the A/B analyses
 * done on them (paper §6.1): filled in as the block goes, then, once done, handed to its
 * {@link StatsLog} ({@link #to}), which renders it as one JSON line. Hedges are noted from the
 * client's watchdog and hedge threads, so those notes are synchronised; the rest is the owner's.
 */
public final class BlockRecord implements BlockObserver {
  /** The block id of a record of a whole file, from its stream's opening to its close. */
  static final long WHOLE_FILE = Long.MIN_VALUE;
  /** Hedge targets and busy DataNodes kept per block, at most. */
  private static final int MAX_LISTED = 16;

  private final String direction;
  /** Whose streams moved the bytes: {@code curtail}, or {@code stock} (techniques off). */
  private final String stream;
  private final String file;
  /** The block's id; {@link #WHOLE_FILE} for a record of a whole stream's file. */
  private final long blockId;
  private final long startMillis;
  private final long startNanos;
  private List<String> dataNodes = Collections.emptyList();
  /** Made when first needed, as most blocks have none: the next five. */
  private List<String> hedgeTargets;
  /** The replica each hedge went away from: the read's judgement that it was slow. */
  private List<String> hedgeSources;
  private List<String> busy;
  /** Replicas the reader put last, judging them slow or busy. */
  private List<String> demoted;
  private List<String> replacements;
  private long bytes;
  private long durationNanos = -1;
  private int hedgesTried;
  private int hedgesWon;
  private long rebuildNanos;
  private int rebuildAborts;
  private String failure;
  /**
   * The writer's last {@link #samples}, as JSON fields: taken into the replacement told next, or
   * written as the block's {@code window} if none follows.
   */
  private String samples;
  /** Where the record goes once done; null for nowhere (the caller hands it on). */
  private StatsLog log;
  /** A block group's record: {@code level} {@code group}, its id the group's. */
  private boolean group;

  private BlockRecord(String direction, String stream, String file, long blockId,
      long startNanos, long startMillis) {
    this.direction = direction;
    this.stream = stream;
    this.file = file;
    this.blockId = blockId;
    this.startMillis = startMillis;
    this.startNanos = startNanos;
  }

  /** A block read (a range of it) by Curtail's stream that starts now, {@code nowNanos}. */
  public static BlockRecord read(String file, long blockId, long nowNanos) {
    return new BlockRecord("read", "curtail", file, blockId, nowNanos,
        System.currentTimeMillis());
  }

  /**
   * A block written by Curtail's stream, begun at {@code startNanos} (its allocation: the block's
   * id comes after) on the client's clock, which reads {@code nowNanos} now.
   */
  public static BlockRecord write(String file, long blockId, long startNanos, long nowNanos) {
    return new BlockRecord("write", "curtail", file, blockId, startNanos,
        System.currentTimeMillis() - TimeUnit.NANOSECONDS.toMillis(nowNanos - startNanos));
  }

  /**
   * A block read ({@code write} false) or written by a stock stream, begun at
   * {@code startNanos} (the client's clock) and {@code startMillis} (epoch): its record is made
   * once the block is known, after the fact.
   */
  static BlockRecord stock(boolean write, String file, long blockId, long startNanos,
      long startMillis) {
    return new BlockRecord(write ? "write" : "read", "stock", file, blockId, startNanos,
        startMillis);
  }

  /**
   * A whole file read ({@code write} false) or written through one stream of {@code stream}'s
   * ({@code curtail} or {@code stock}), from its opening (begun at {@code openedNanos}, on
   * {@link System#nanoTime}) to its close: what the application
   * waited for, the same for every cohort (a block's time is its pipeline's for Curtail's writer,
   * the application's for stock's).
   */
  static BlockRecord file(boolean write, String stream, String file, long openedNanos) {
    long millis = System.currentTimeMillis()
        - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - openedNanos);
    return new BlockRecord(write ? "write" : "read", stream, file, WHOLE_FILE, openedNanos,
        millis);
  }

  /**
   * A block group of an erasure-coded file written by stock's striped stream under Curtail's
   * watch ({@code write/striped/}), first seen at {@code startNanos} on the client's clock, which
   * reads {@code nowNanos} now: its DataNodes by internal block index, and the streamer let go,
   * if any, as a replacement by nobody. Its {@code level} is {@code group}, so that analyses of
   * blocks do not mix groups (which only Curtail's cohorts record) with blocks.
   */
  public static BlockRecord group(String file, long groupId, long startNanos, long nowNanos) {
    BlockRecord r = write(file, groupId, startNanos, nowNanos);
    r.group = true;
    return r;
  }

  /** Sends this record to {@code log} once done. */
  BlockRecord to(StatsLog log) {
    this.log = log;
    return this;
  }

  @Override
  public void dataNodes(List<String> addresses) {
    dataNodes = new ArrayList<>(addresses); // a copy: the caller may reuse its list
  }

  @Override
  public synchronized void hedgeTried(String from, String to, long offset, long thresholdNanos) {
    hedgesTried++;
    hedgeTargets = listed(hedgeTargets, to);
    hedgeSources = listed(hedgeSources, from);
  }

  @Override
  public synchronized void hedgeWon(String to) {
    hedgesWon++;
  }

  @Override
  public synchronized void demoted(String dataNode) {
    if (demoted == null || !demoted.contains(dataNode)) {
      demoted = listed(demoted, dataNode);
    }
  }

  @Override
  public synchronized void busy(String dataNode) {
    if (busy == null || !busy.contains(dataNode)) {
      busy = listed(busy, dataNode);
    }
  }

  /** {@code list} (made if null) with {@code value} added, unless it holds {@value #MAX_LISTED}. */
  private static List<String> listed(List<String> list, String value) {
    List<String> l = list == null ? new ArrayList<>(4) : list;
    if (l.size() < MAX_LISTED) {
      l.add(value);
    }
    return l;
  }

  @Override
  public void replaced(int position, String replaced, String by, String reason,
      String evidence) {
    if (replacements == null) {
      replacements = new ArrayList<>(2);
    }
    replacements.add("{\"position\":" + position + ",\"replaced\":" + quote(replaced)
        + ",\"by\":" + quote(by) + ",\"reason\":" + quote(reason) + ",\"evidence\":"
        + quote(evidence) + (samples == null ? "" : "," + samples) + '}');
    samples = null;
  }

  /**
   * Kept as {@code at_ms} (from the block's start), {@code acked} (bytes), {@code pipeline},
   * {@code p_us} (each DataNode's percentile, microseconds) and {@code n} (its samples).
   */
  @Override
  public void samples(List<String> pipeline, long[] percentileNanos, int[] counts, long acked,
      long nowNanos) {
    StringBuilder b = new StringBuilder(128);
    thousandths(b.append("\"at_ms\":"), (nowNanos - startNanos) / 1e6);
    b.append(",\"acked\":").append(acked);
    array(b.append(",\"pipeline\":"), pipeline);
    b.append(",\"p_us\":[");
    for (int i = 0; i < percentileNanos.length; i++) {
      b.append(i == 0 ? "" : ",").append(percentileNanos[i] / 1000);
    }
    b.append("],\"n\":[");
    for (int i = 0; i < counts.length; i++) {
      b.append(i == 0 ? "" : ",").append(counts[i]);
    }
    samples = b.append(']').toString();
  }

  @Override
  public void rebuilt(long nanos, int aborts) {
    rebuildNanos += nanos;
    rebuildAborts += aborts;
  }

  @Override
  public void failed(String reason) {
    failure = reason == null ? "" : reason;
  }

  /** Fixes the record's bytes and duration and, the first time, sends it to its log. */
  @Override
  public void done(long bytes, long nowNanos) {
    boolean first = durationNanos < 0;
    this.bytes = bytes;
    this.durationNanos = nowNanos - startNanos;
    if (first && log != null) {
      log.record(this);
    }
  }

  /** Appends this record to {@code b} as one JSON object, on one line. */
  synchronized StringBuilder toJson(StringBuilder b, String cohort, String host, String client) {
    double ms = durationNanos / 1e6;
    b.append("{\"cohort\":");
    if (cohort == null) {
      b.append("null");
    } else {
      quote(b, cohort);
    }
    quote(b.append(",\"host\":"), host);
    quote(b.append(",\"client\":"), client);
    quote(b.append(",\"file\":"), file);
    boolean wholeFile = blockId == WHOLE_FILE && !group;
    b.append(",\"level\":\"").append(wholeFile ? "file" : group ? "group" : "block").append('"');
    b.append(",\"block\":");
    if (wholeFile) {
      b.append("null");
    } else {
      b.append(blockId);
    }
    b.append(",\"dir\":\"").append(direction).append('"');
    b.append(",\"stream\":\"").append(stream).append('"');
    b.append(",\"bytes\":").append(bytes);
    b.append(",\"start_ms\":").append(startMillis);
    thousandths(b.append(",\"duration_ms\":"), ms);
    thousandths(b.append(",\"mib_s\":"), ms > 0 ? bytes / 1048576.0 / (ms / 1000) : 0);
    array(b.append(",\"datanodes\":"), dataNodes);
    b.append(",\"hedges\":{\"tried\":").append(hedgesTried);
    b.append(",\"won\":").append(hedgesWon);
    array(b.append(",\"targets\":"), hedgeTargets);
    array(b.append(",\"from\":"), hedgeSources).append('}');
    b.append(",\"replacements\":[");
    if (replacements != null) {
      b.append(String.join(",", replacements));
    }
    b.append(']');
    thousandths(b.append(",\"rebuild_ms\":"), rebuildNanos / 1e6);
    b.append(",\"rebuild_aborts\":").append(rebuildAborts);
    array(b.append(",\"busy\":"), busy);
    if (demoted != null) {
      array(b.append(",\"demoted\":"), demoted);
    }
    if (samples != null) {
      b.append(",\"window\":{").append(samples).append('}');
    }
    b.append(",\"failed\":");
    if (failure == null) {
      b.append("null");
    } else {
      quote(b, failure);
    }
    return b.append('}');
  }

  /**
   * {@code v} with three decimals, as {@code %.3f} would write it: without a {@code Formatter},
   * most of what a record cost to write.
   */
  static StringBuilder thousandths(StringBuilder b, double v) {
    long t = Math.round(Math.abs(v) * 1000);
    if (v < 0 && t != 0) {
      b.append('-');
    }
    b.append(t / 1000).append('.');
    long frac = t % 1000;
    if (frac < 100) {
      b.append('0');
    }
    if (frac < 10) {
      b.append('0');
    }
    return b.append(frac);
  }

  /** {@code values} as a JSON array; null as an empty one. */
  private static StringBuilder array(StringBuilder b, List<String> values) {
    b.append('[');
    for (int i = 0; values != null && i < values.size(); i++) {
      quote(i == 0 ? b : b.append(','), values.get(i));
    }
    return b.append(']');
  }

  /** A JSON string: quotes, backslashes and control characters escaped. */
  static String quote(String s) {
    return quote(new StringBuilder(s.length() + 2), s).toString();
  }

  private static StringBuilder quote(StringBuilder b, String s) {
    b.append('"');
    int plain = 0;
    while (plain < s.length() && s.charAt(plain) >= 0x20 && s.charAt(plain) != '"'
        && s.charAt(plain) != '\\') {
      plain++;
    }
    b.append(s, 0, plain); // most strings end here, copied at once
    for (int i = plain; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append("\\u00").append(Character.forDigit(c >> 4, 16))
            .append(Character.forDigit(c & 0xf, 16));
      } else {
        b.append(c);
      }
    }
    return b.append('"');
  }
}
