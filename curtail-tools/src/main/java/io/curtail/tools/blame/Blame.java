package io.curtail.tools.blame;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Labels every decision in per-block statistics records against known incidents (issue #35):
 * for writes, a slow replacement is right if it took out the faulty DataNode (or an end of the
 * faulty link) while the fault was on, wrong otherwise; a block whose pipeline went through the
 * fault is caught if one did, and a miss if it went on through it for more than
 * {@value #FEW_PACKETS} packets. HDFS's outlier rule ({@link OutlierRule}) is judged on the same
 * samples, those the writer recorded with each replacement and at each block's end: each DataNode
 * it flags in a block is one of its decisions. For reads, a demotion of a replica (put last) and a
 * hedge away from one are each a decision that it was slow; a block read with the faulty DataNode
 * among its replicas is caught if one of them named it, and a miss if it was read first from it
 * for more than a few packets.
 *
 * <p>Records of stock's streams make no decisions and are not counted. A failure's replacement
 * (a DataNode that stopped, say) is stock's recovery, not a judgement of slowness: not counted.
 */
public final class Blame {
  /** A write packet's data, as Hadoop's default {@code dfs.client-write-packet-size}. */
  public static final long PACKET_BYTES = 64 * 1024;
  /** Packets through the fault a block may take before its not being replaced is a miss. */
  public static final int FEW_PACKETS = 4;

  private final List<Incident> incidents;
  private final Tally replacements = new Tally();
  private final Map<OutlierRule, Tally> baselines = new LinkedHashMap<>();
  private final Tally reads = new Tally();
  private long bytesWritten;
  private long bytesRead;
  /** DataNodes no incident blames that the client still avoided as slow when it was done. */
  private int healthyAvoidedAtEnd;

  public Blame(List<Incident> incidents) {
    this.incidents = new ArrayList<>(incidents);
    baselines.put(OutlierRule.ON_PIPELINE, new Tally());
    baselines.put(OutlierRule.HDFS_PEERS, new Tally());
  }

  /** Labels one record's decisions: a JSON line of a {@code curtail.stats.dir} file. */
  public void add(JsonNode r) {
    if (!r.path("stream").asText().equals("curtail") || !r.path("level").asText().equals("block")) {
      return;
    }
    long start = r.get("start_ms").asLong();
    long end = start + Math.round(r.get("duration_ms").asDouble());
    List<Incident> on = new ArrayList<>();
    for (Incident i : incidents) {
      if (i.overlaps(start, end)) {
        on.add(i);
      }
    }
    if (r.get("dir").asText().equals("write")) {
      addWrite(r, start, on);
    } else {
      addRead(r, start, on);
    }
  }

  private void addWrite(JsonNode r, long start, List<Incident> on) {
    long bytes = r.get("bytes").asLong();
    bytesWritten += bytes;
    List<List<String>> pipelines = new ArrayList<>();
    pipelines.add(strings(r.get("datanodes")));
    List<String> takenOut = new ArrayList<>();
    List<JsonNode> samples = new ArrayList<>();
    for (JsonNode rep : r.path("replacements")) {
      if (!rep.path("reason").asText().equals("slow")) {
        continue;
      }
      String replaced = rep.get("replaced").asText();
      double at = rep.path("at_ms").asDouble(0);
      Incident culprit = culprit(on, replaced, start + Math.round(at));
      replacements.decided(culprit != null, sinceMet(culprit, start, at),
          rep.path("acked").asLong(-1));
      if (culprit != null) {
        takenOut.add(replaced);
      }
      if (rep.has("pipeline")) {
        pipelines.add(strings(rep.get("pipeline")));
        samples.add(rep);
      }
    }
    if (r.has("window")) {
      samples.add(r.get("window"));
    }
    boolean longEnough = bytes > FEW_PACKETS * PACKET_BYTES;
    for (Map.Entry<OutlierRule, Tally> b : baselines.entrySet()) {
      List<String> flagged = judge(b.getKey(), b.getValue(), samples, on, start);
      for (Incident i : on) {
        if (through(i, pipelines)) {
          b.getValue().exposed(anyBlamed(i, flagged), longEnough);
        }
      }
    }
    for (Incident i : on) {
      if (through(i, pipelines)) {
        replacements.exposed(anyBlamed(i, takenOut), longEnough);
      }
    }
  }

  /**
   * {@code rule}'s decisions on a block's {@code samples}: each DataNode it flags in any of them,
   * once per block, tallied; returns those it flagged.
   */
  private static List<String> judge(OutlierRule rule, Tally t, List<JsonNode> samples,
      List<Incident> on, long start) {
    List<String> flagged = new ArrayList<>();
    for (JsonNode s : samples) {
      List<String> pipeline = strings(s.get("pipeline"));
      JsonNode p = s.get("p_us");
      double[] values = new double[p.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = p.get(i).asDouble();
      }
      if (values.length != pipeline.size()) {
        continue; // a malformed record: judge nothing on it
      }
      boolean[] out = rule.outliers(values);
      double at = s.path("at_ms").asDouble(0);
      for (int i = 0; i < out.length; i++) {
        if (out[i] && !flagged.contains(pipeline.get(i))) {
          flagged.add(pipeline.get(i));
          Incident culprit = culprit(on, pipeline.get(i), start + Math.round(at));
          t.decided(culprit != null, sinceMet(culprit, start, at), s.path("acked").asLong(-1));
        }
      }
    }
    return flagged;
  }

  private void addRead(JsonNode r, long start, List<Incident> on) {
    long bytes = r.get("bytes").asLong();
    bytesRead += bytes;
    List<String> judged = strings(r.path("demoted"));
    judged.addAll(strings(r.path("hedges").path("from")));
    for (String slow : judged) {
      reads.decided(culprit(on, slow, start) != null, -1, -1);
    }
    List<String> order = strings(r.get("datanodes"));
    for (Incident i : on) {
      if (!i.isLink() && through(i, List.of(order))) {
        boolean readFirst = !order.isEmpty() && i.blames(order.get(0));
        reads.exposed(anyBlamed(i, judged), readFirst && bytes > FEW_PACKETS * PACKET_BYTES);
      }
    }
  }

  /** The incident on at {@code millis} that blames {@code address}, or null. */
  private static Incident culprit(List<Incident> on, String address, long millis) {
    for (Incident i : on) {
      if (i.onAt(millis) && i.blames(address)) {
        return i;
      }
    }
    return null;
  }

  /** Milliseconds from the fault meeting the block (its start, or the fault's) to {@code at}. */
  private static double sinceMet(Incident culprit, long start, double at) {
    return culprit == null ? -1 : at - Math.max(0, culprit.fromMillis() - start);
  }

  private static boolean through(Incident i, List<List<String>> pipelines) {
    for (List<String> p : pipelines) {
      if (i.in(p)) {
        return true;
      }
    }
    return false;
  }

  private static boolean anyBlamed(Incident i, List<String> addresses) {
    for (String a : addresses) {
      if (i.blames(a)) {
        return true;
      }
    }
    return false;
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    if (array != null) {
      array.forEach(n -> out.add(n.asText()));
    }
    return out;
  }

  /**
   * Notes the DataNodes ({@code host:port}) the client still avoided as slow when its work was
   * done: each that no incident blames is a healthy DataNode kept out of new blocks (for the
   * JVM's memory of slow DataNodes, five minutes by default), the lasting cost of a wrong
   * replacement, or of a flapping fault judged in a healthy spell.
   */
  public void avoidedAtEnd(List<String> addresses) {
    for (String a : addresses) {
      boolean faulty = false;
      for (Incident i : incidents) {
        faulty |= i.blames(a);
      }
      healthyAvoidedAtEnd += faulty ? 0 : 1;
    }
  }

  /** Healthy DataNodes still avoided at the end, over the batches added up. */
  public int healthyAvoidedAtEnd() {
    return healthyAvoidedAtEnd;
  }

  /** Adds {@code other}'s tallies (another batch of the same mode) to these. */
  public void add(Blame other) {
    replacements.add(other.replacements);
    baselines.forEach((rule, t) -> t.add(other.baselines.get(rule)));
    reads.add(other.reads);
    bytesWritten += other.bytesWritten;
    bytesRead += other.bytesRead;
    healthyAvoidedAtEnd += other.healthyAvoidedAtEnd;
  }

  public Tally replacements() {
    return replacements;
  }

  /** HDFS's rule's tally with {@code rule}'s settings; one of {@link OutlierRule}'s constants. */
  public Tally baseline(OutlierRule rule) {
    return baselines.get(rule);
  }

  /** Reads' decisions: demotions of a replica and hedges away from one. */
  public Tally reads() {
    return reads;
  }

  /** Wrong replacements per GiB written: in a healthy run, every replacement. */
  public double wrongPerGib() {
    return bytesWritten == 0 ? Double.NaN
        : replacements.wrong() / (bytesWritten / (1024.0 * 1024 * 1024));
  }

  /** The table's header lines, its first column titled {@code what}. */
  public static List<String> header(String what) {
    return List.of("| " + what + " | repl | precision | recall | caught/missed | ms to repl p50"
        + " | KiB to repl p50 | wrong/GiB | HDFS rule, pipeline: P of n | R | HDFS defaults:"
        + " P of n | R | reads: demoted or hedged away | P | R | healthy avoided at end |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  }

  /** This tally's row of the table, its first column {@code label}. */
  public String row(String label) {
    Tally pipe = baselines.get(OutlierRule.ON_PIPELINE);
    Tally hdfs = baselines.get(OutlierRule.HDFS_PEERS);
    long kib = replacements.medianBytes();
    return String.format(Locale.ROOT,
        "| %s | %d | %s | %s | %d/%d | %s | %s | %s | %s | %s | %s | %s | %d | %s | %s | %d |",
        label,
        replacements.decisions(),
        withInterval(replacements.precision(), replacements.precisionInterval()),
        withInterval(replacements.recall(), replacements.recallInterval()),
        replacements.caught(), replacements.missed(),
        number(replacements.medianMillis(), "%.0f"), kib < 0 ? "-" : Long.toString(kib / 1024),
        number(wrongPerGib(), "%.2f"), ofN(pipe), ratio(pipe.recall()), ofN(hdfs),
        ratio(hdfs.recall()), reads.decisions(), ratio(reads.precision()),
        ratio(reads.recall()), healthyAvoidedAtEnd);
  }

  /** A proportion with its 95% interval: {@code 0.75 (0.51–0.90)}. */
  private static String withInterval(double x, double[] interval) {
    return Double.isNaN(x) ? "-"
        : ratio(x) + " (" + ratio(interval[0]) + "–" + ratio(interval[1]) + ")";
  }

  /** A precision with the count of decisions it is of. */
  private static String ofN(Tally t) {
    return ratio(t.precision()) + " of " + t.decisions();
  }

  /** What the table's columns mean, for under it. */
  public static String legend() {
    return "precision: replacements that took out the faulty DataNode (or an end of the faulty"
        + " link); recall: blocks through the fault whose faulty DataNode was replaced, over those"
        + " and the misses (through it more than " + FEW_PACKETS + " packets, not replaced);"
        + " each with its 95% interval (Wilson's);"
        + " ms/KiB to repl: from the fault meeting the pipeline to a right replacement;"
        + " HDFS rule: " + OutlierRule.ON_PIPELINE + ", and with HDFS's defaults ("
        + OutlierRule.HDFS_PEERS.minPeers() + " peers, 5 ms), on the samples the client recorded"
        + " (each replacement's and each block's end); reads: a demotion of a replica or a hedge"
        + " away from one is a decision, a block read first from the faulty DataNode for more"
        + " than " + FEW_PACKETS + " packets without one a miss; healthy avoided at end: DataNodes"
        + " no fault was on that the client still kept out of new blocks when done, summed over"
        + " batches; '-': nothing to divide by";
  }

  private static String ratio(double x) {
    return number(x, "%.2f");
  }

  private static String number(double x, String format) {
    return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, format, x);
  }
}
