package io.curtail.tools.blame;

import java.util.ArrayList;
import java.util.List;

/**
 * One rule's decisions against the ground truth: how many it made and how many blamed the faulty
 * DataNode (precision), how many blocks that went through the fault it caught or missed (recall),
 * and how long and how many bytes after the fault met a block's pipeline each right one came.
 * Single-threaded; {@link #add} merges another's.
 */
public final class Tally {
  private int decisions;
  private int right;
  private int caught;
  private int missed;
  private final List<Double> millisToDecision = new ArrayList<>();
  private final List<Long> bytesToDecision = new ArrayList<>();

  /**
   * A decision that blamed the faulty DataNode ({@code right}) or another; a right one
   * {@code millis} after the fault met the pipeline, {@code bytes} into the block (either negative
   * if not known).
   */
  void decided(boolean right, double millis, long bytes) {
    decisions++;
    if (right) {
      this.right++;
      if (millis >= 0) {
        millisToDecision.add(millis);
      }
      if (bytes >= 0) {
        bytesToDecision.add(bytes);
      }
    }
  }

  /**
   * A block through the fault: {@code caught} if a decision took the faulty DataNode out; else a
   * miss if it went on through it {@code longEnough} (more than a few packets), else too short to
   * count.
   */
  void exposed(boolean caught, boolean longEnough) {
    if (caught) {
      this.caught++;
    } else if (longEnough) {
      missed++;
    }
  }

  void add(Tally t) {
    decisions += t.decisions;
    right += t.right;
    caught += t.caught;
    missed += t.missed;
    millisToDecision.addAll(t.millisToDecision);
    bytesToDecision.addAll(t.bytesToDecision);
  }

  public int decisions() {
    return decisions;
  }

  public int wrong() {
    return decisions - right;
  }

  public int caught() {
    return caught;
  }

  public int missed() {
    return missed;
  }

  /** Right decisions over all; NaN for none. */
  public double precision() {
    return decisions == 0 ? Double.NaN : (double) right / decisions;
  }

  /** Blocks through the fault caught over those caught or missed; NaN for none. */
  public double recall() {
    return caught + missed == 0 ? Double.NaN : (double) caught / (caught + missed);
  }

  /** {@link #precision()}'s 95% interval ({@link #wilson}). */
  public double[] precisionInterval() {
    return wilson(right, decisions);
  }

  /** {@link #recall()}'s 95% interval ({@link #wilson}). */
  public double[] recallInterval() {
    return wilson(caught, caught + missed);
  }

  /**
   * The Wilson score 95% interval of a proportion of {@code k} in {@code n}, {NaN, NaN} for none:
   * what a precision or recall of a few dozen decisions can say (12 right of 12 is 0.76 to 1.00),
   * where the normal approximation would give an interval of nothing at 1.00.
   */
  static double[] wilson(int k, int n) {
    if (n == 0) {
      return new double[] {Double.NaN, Double.NaN};
    }
    double z2 = 1.96 * 1.96;
    double p = (double) k / n;
    double scale = 1 + z2 / n;
    double centre = (p + z2 / (2.0 * n)) / scale;
    double half = 1.96 * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / scale;
    return new double[] {Math.max(0, centre - half), Math.min(1, centre + half)};
  }

  /** The median time from the fault meeting a pipeline to a right decision; NaN for none. */
  public double medianMillis() {
    List<Double> l = new ArrayList<>(millisToDecision);
    l.sort(null);
    return l.isEmpty() ? Double.NaN : l.get((l.size() - 1) / 2);
  }

  /** The median bytes of the block acknowledged before a right decision; -1 for none. */
  public long medianBytes() {
    List<Long> l = new ArrayList<>(bytesToDecision);
    l.sort(null);
    return l.isEmpty() ? -1 : l.get((l.size() - 1) / 2);
  }
}
