package io.curtail.client.read.striped;

import io.curtail.client.read.CellReads;
import io.curtail.client.read.striped.StripePolicy.Cell;
import io.curtail.client.read.striped.StripePolicy.Decision;
import io.curtail.client.read.striped.StripePolicy.Outcome;
import io.curtail.client.track.NodeTracker;
import io.curtail.client.track.Pauses;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedStripedBlock;
import org.apache.hadoop.hdfs.util.StripedBlockUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads bytes [{@code a}, {@code b}) of one stripe of one block group, carrying out
 * {@link StripePolicy}: each cell on a thread of its own, each packet timed against the hedge
 * threshold of its DataNode; the reader's thread looks at the cells whenever one ends and at the
 * client's watchdog period, starts what the policy says (reads around through the hedge budget),
 * then copies the cells asked for out, or decodes them from any {@code k} that arrived. Cells
 * still in flight then are cut.
 *
 * <p>Every cell read covers the same range of its internal block, [{@code lo}, {@code hi}) past
 * the stripe's start: the part of a cell the read asks for if it asks for one cell, else whole
 * cells; that is what lets any {@code k} of them decode the others. An asked-for cell is read
 * straight into the caller's array; the others, read only to decode, into arrays of their own.
 * So no cell's thread may outlive the read: {@link #end} waits for those it cut.
 *
 * <p>One use, by one thread; its cells' threads only report back under {@link #lock}.
 */
final class StripeRead {
  private static final Logger LOG = LoggerFactory.getLogger(StripeRead.class);

  private final StripedReads reads;
  private final DFSClient client;
  private final String file;
  private final ErasureCodingPolicy policy;
  private final LocatedStripedBlock group;
  private final int k;
  private final int cellSize;
  private final long stripe;
  private final int a;
  private final int b;
  private final int lo;
  private final int hi;
  private final boolean verifyChecksum;
  private final LocatedBlock[] internal;
  /** Bytes each cell holds of [lo, hi): fewer in a short last stripe (zeros past them). */
  private final int[] holds;
  private final boolean[] asked;
  private final boolean[] avoid;
  private final Cell[] state;
  private final CellReads.Cell[] reading;
  private final boolean[] around;
  /** Where each cell's bytes are: {@link #data} from {@link #dataOff}, {@code hi - lo} of them. */
  private final byte[][] data;
  private final int[] dataOff;
  /** Cells whose threads have not yet reported back. */
  private final boolean[] running;
  /** The caller's array and where stripe byte {@code a} goes in it; set as the read starts. */
  private byte[] dst;
  private int dstOff;
  private final IOException[] failures;
  private final Object lock = new Object();

  StripeRead(StripedReads reads, DFSClient client, String file, ErasureCodingPolicy policy,
      LocatedStripedBlock group, long stripe, int a, int b, boolean verifyChecksum) {
    this.reads = reads;
    this.client = client;
    this.file = file;
    this.policy = policy;
    this.group = group;
    this.k = policy.getNumDataUnits();
    this.cellSize = policy.getCellSize();
    this.stripe = stripe;
    this.a = a;
    this.b = b;
    this.verifyChecksum = verifyChecksum;
    int first = a / cellSize;
    int last = (b - 1) / cellSize;
    if (first != last && (a % cellSize != 0 || b % cellSize != 0)) {
      throw new IllegalArgumentException("stripe bytes [" + a + ", " + b + ") are neither part"
          + " of one cell nor whole cells of " + cellSize);
    }
    this.lo = first == last ? a % cellSize : 0;
    this.hi = first == last ? (b - 1) % cellSize + 1 : cellSize;
    int n = k + policy.getNumParityUnits();
    this.internal = StripedBlockUtil.parseStripedBlockGroup(group, cellSize, k,
        policy.getNumParityUnits());
    this.holds = new int[n];
    this.asked = new boolean[n];
    this.avoid = new boolean[n];
    this.state = new Cell[n];
    this.reading = new CellReads.Cell[n];
    this.around = new boolean[n];
    this.data = new byte[n][];
    this.dataOff = new int[n];
    this.running = new boolean[n];
    this.failures = new IOException[n];
    Map<String, Boolean> slow = reads.cells.knownSlow(group);
    for (int i = 0; i < n; i++) {
      long length = StripedBlockUtil.getInternalBlockLength(group.getBlockSize(), cellSize, k, i);
      long from = stripe * cellSize + lo;
      holds[i] = (int) Math.max(0, Math.min(hi - lo, length - from));
      asked[i] = i >= first && i <= last;
      state[i] = holds[i] == 0 ? Cell.EMPTY : internal[i] == null ? Cell.FAILED : Cell.IDLE;
      avoid[i] = internal[i] != null
          && slow.getOrDefault(internal[i].getLocations()[0].getXferAddr(), false);
    }
  }

  /** Reads the stripe's bytes [a, b) into {@code dst} from {@code off}. */
  void readInto(byte[] dst, int off) throws IOException {
    this.dst = dst;
    this.dstOff = off;
    Outcome outcome = Outcome.LOST;
    try {
      outcome = drive();
      if (outcome == Outcome.DECODE) {
        decode();
      }
    } finally {
      end(outcome == Outcome.DECODE);
    }
    for (int i = a / cellSize; i <= (b - 1) / cellSize; i++) {
      if (data[i] != dst) { // decoded
        System.arraycopy(data[i], 0, dst, off + i * cellSize + lo - a, hi - lo);
      }
    }
  }

  private Outcome drive() throws IOException {
    long check = reads.cells.checkNanos();
    synchronized (lock) {
      // A look that comes more than a period late finds this client was paused (a garbage
      // collection, a starved CPU): no DataNode is to blame for that part of a cell's wait.
      Pauses pauses = new Pauses(check);
      pauses.look(reads.cells.clock().nanoTime());
      while (true) {
        long now = reads.cells.clock().nanoTime();
        pauses.look(now);
        Cell[] seen = late(now, pauses);
        Decision d = StripePolicy.decide(k, seen, asked, avoid);
        if (d.outcome == Outcome.READ || d.outcome == Outcome.DECODE) {
          return d.outcome;
        }
        if (d.outcome == Outcome.LOST) {
          throw lost();
        }
        for (int i : d.direct) {
          start(i);
        }
        for (int j = 0; j < d.around.length; j++) {
          int i = d.around[j];
          NodeTracker t = reads.cells.tracker(internal[i].getLocations()[0]);
          if (j < d.free || reads.cells.tryReadAround(t)) {
            around[i] = j >= d.free; // holds a slot and a token
            reads.readAround();
            LOG.debug("Reading around file={} block={} stripe={} cell={} datanode={} cells={}"
                + " avoid={}", file, group.getBlock(), stripe, i, internal[i].getLocations()[0],
                Arrays.toString(seen), Arrays.toString(avoid));
            start(i);
          } else {
            reads.readAroundDenied();
            // Asked-for cells on known-slow DataNodes are read there after all.
            for (int x = 0; x < k; x++) {
              avoid[x] &= !asked[x];
            }
            break;
          }
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(lock, check);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted reading " + group.getBlock() + " of "
              + file);
        }
      }
    }
  }

  /** The cells' states, those in flight judged late or not ({@link StripePolicy#judge}). */
  private Cell[] late(long now, Pauses pauses) {
    long[] sinceProgress = new long[state.length];
    long[] threshold = new long[state.length];
    for (int i = 0; i < state.length; i++) {
      if (state[i] == Cell.READING) {
        long progress = reading[i].lastProgressNanos();
        sinceProgress[i] = now - progress - pauses.within(progress, now);
        threshold[i] = reads.cells.thresholdNanos(reading[i].tracker());
      }
    }
    return StripePolicy.judge(state, sinceProgress, threshold);
  }

  private void start(int i) {
    LocatedBlock block = internal[i];
    int length = holds[i];
    CellReads.Cell cell = reads.cells.open(client, file, block, stripe * cellSize + lo, length,
        verifyChecksum);
    // An asked-for cell's range is the caller's (a piece of one cell, or whole cells), so it is
    // read where it goes; another into zeros past what it holds, as the encoder padded.
    byte[] into = asked[i] ? dst : new byte[hi - lo];
    int at = asked[i] ? dstOff + i * cellSize + lo - a : 0;
    reading[i] = cell;
    data[i] = into;
    dataOff[i] = at;
    state[i] = Cell.READING;
    running[i] = true;
    try {
      reads.threads.execute(() -> read(i, cell, into, at, block, length));
    } catch (RejectedExecutionException e) {
      running[i] = false;
      state[i] = Cell.FAILED;
      failures[i] = new IOException("the file system is closing", e);
    }
  }

  /** Cell {@code i}'s thread: reads it into {@code into} from {@code at}, then reports back. */
  private void read(int i, CellReads.Cell cell, byte[] into, int at, LocatedBlock block,
      int length) {
    IOException failure = null;
    boolean ended = false; // false only while an Error passes: the cell failed
    try {
      failure = readCell(cell, into, at, block);
      ended = true;
    } finally {
      synchronized (lock) {
        running[i] = false; // done writing into the caller's array, whatever happened
        if (state[i] == Cell.READING) {
          state[i] = ended && failure == null ? Cell.ARRIVED : Cell.FAILED;
          failures[i] = ended ? failure : new IOException("cell " + i + " ended abruptly");
          if (state[i] == Cell.ARRIVED && i >= k) {
            reads.parityRead(length);
          }
          if (failure != null) {
            LOG.warn("Cell read failed file={} block={} stripe={} cell={} datanode={}", file,
                block.getBlock(), stripe, i, block.getLocations()[0], failure);
          }
        }
        lock.notifyAll();
      }
    }
  }

  /** Reads {@code cell} into {@code into} from {@code at}; returns how it failed, or null. */
  private IOException readCell(CellReads.Cell cell, byte[] into, int at, LocatedBlock block) {
    try {
      cell.readInto(into, at);
      return null;
    } catch (ChecksumException e) {
      LOG.warn("Bad checksum, reporting cell file={} block={} datanode={} offset={}", file,
          block.getBlock(), block.getLocations()[0], e.getPos());
      reportBad(block);
      return e;
    } catch (IOException | RuntimeException e) {
      return e instanceof IOException ? (IOException) e : new IOException(e);
    }
  }

  private void reportBad(LocatedBlock block) {
    try {
      client.reportBadBlocks(new LocatedBlock[] {block});
    } catch (IOException e) {
      LOG.warn("Could not report a bad cell file={} block={}", file, block.getBlock(), e);
    }
  }

  /** Decodes the asked-for cells that did not arrive from {@code k} that did, data first. */
  private void decode() throws IOException {
    int n = state.length;
    byte[][] inputs = new byte[n][];
    int taken = 0;
    for (int i = 0; i < n && taken < k; i++) {
      if (state[i] == Cell.ARRIVED || state[i] == Cell.EMPTY) {
        inputs[i] = data[i] == null ? new byte[hi - lo]
            : data[i] != dst ? data[i] : Arrays.copyOfRange(dst, dataOff[i], dataOff[i] + hi - lo);
        taken++;
      }
    }
    int erasedCount = 0;
    int[] erased = new int[k];
    for (int i = 0; i < k; i++) {
      if (asked[i] && inputs[i] == null) {
        erased[erasedCount++] = i;
      }
    }
    erased = Arrays.copyOf(erased, erasedCount);
    byte[][] outputs = new byte[erasedCount][hi - lo];
    reads.decode(policy, inputs, erased, outputs);
    for (int j = 0; j < erasedCount; j++) {
      data[erased[j]] = outputs[j];
    }
    LOG.debug("Decoded file={} block={} stripe={} cells={}", file, group.getBlock(), stripe,
        Arrays.toString(erased));
  }

  /**
   * Cuts the cells still in flight and waits until their threads are done writing (a cut read
   * wakes at once); gives back what reads around held, each one that arrived for a decode
   * counted as used (a hedge won), any other as not (lost: its DataNode backs off).
   */
  private void end(boolean decoded) throws InterruptedIOException {
    synchronized (lock) {
      for (int i = 0; i < state.length; i++) {
        if (state[i] == Cell.READING) {
          state[i] = Cell.FAILED; // its thread's report comes too late to count
          reading[i].abort();
        }
        if (around[i]) {
          boolean used = decoded && state[i] == Cell.ARRIVED;
          reads.cells.readAroundDone(reading[i].tracker(), used);
        }
      }
      boolean interrupted = false;
      for (int i = 0; i < running.length; i++) {
        while (running[i]) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            interrupted = true; // the cut threads end anyway; the caller's array must outlive them
          }
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted reading " + group.getBlock() + " of "
            + file);
      }
    }
  }

  private IOException lost() {
    IOException e = new IOException("cannot read stripe " + stripe + " of " + group.getBlock()
        + " of " + file + ": fewer than " + k + " of its cells can be read");
    for (IOException f : failures) {
      if (f != null) {
        e.addSuppressed(f);
      }
    }
    return e;
  }
}
