package io.curtail.client.stats;

import io.curtail.client.metrics.ClientMetrics;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-block statistics of one file system, as JSON lines ({@code curtail.stats.dir}), written off
 * the data path: readers and writers only offer a finished {@link BlockRecord} to a bounded
 * queue, and when it is full the record is dropped and counted, never waited for. A daemon
 * thread takes what is queued every {@value #DRAIN_MS} ms (offering a record wakes nobody) and
 * writes it to files of their own per file system, named by host, process
 * and file system (so Spark executors and MapReduce tasks never share one), rotated at a size
 * cap and keeping the last few.
 */
public final class StatsLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StatsLog.class);
  private static final AtomicInteger LOGS = new AtomicInteger();
  /** How often the writer takes what is queued. */
  private static final long DRAIN_MS = 200;

  private final Path dir;
  private final String prefix;
  private final String cohort;
  private final String host;
  private final String client;
  private final long maxFileBytes;
  private final int maxFiles;
  private final BlockingQueue<BlockRecord> queue;
  private final LongAdder dropped = new LongAdder();
  private final LongAdder written = new LongAdder();
  private final ArrayDeque<Path> files = new ArrayDeque<>();
  private final Thread writer;
  /** Set by {@link #close}; guarded by this. */
  private boolean stopping;
  private Writer out;
  /**
   * The writing thread's: records taken from the queue, the line being written and its
   * characters, reused for every record.
   */
  private final List<BlockRecord> batch = new ArrayList<>();
  private final StringBuilder line = new StringBuilder(1024);
  private char[] chars = new char[1024];
  private long fileBytes;
  private int fileIndex;

  /**
   * Opens the first file in {@code dir} (made if missing) and starts the writing thread.
   *
   * @throws IOException if the directory cannot be made or written in
   */
  public static StatsLog open(Path dir, String cohort, String host, String client,
      int queueRecords, long maxFileBytes, int maxFiles) throws IOException {
    StatsLog log = new StatsLog(dir, cohort, host, client, queueRecords, maxFileBytes, maxFiles);
    log.writer.start();
    return log;
  }

  /**
   * A log whose thread is not started: records queue up and, once it is full, drop, unless the
   * caller writes them ({@link #writeQueued}). Public for a benchmark that measures a record's
   * whole cost, writing included, on one thread; a client uses {@link #open}.
   */
  public static StatsLog openIdle(Path dir, int queueRecords) throws IOException {
    return new StatsLog(dir, null, "h", "c", queueRecords, 1 << 20, 2);
  }

  private StatsLog(Path dir, String cohort, String host, String client, int queueRecords,
      long maxFileBytes, int maxFiles) throws IOException {
    this.dir = dir;
    this.cohort = cohort;
    this.host = host.isEmpty() ? "unknown" : host;
    this.client = client;
    this.maxFileBytes = maxFileBytes;
    this.maxFiles = maxFiles;
    this.queue = new ArrayBlockingQueue<>(queueRecords);
    String pid = ManagementFactory.getRuntimeMXBean().getName().split("@")[0];
    this.prefix = "curtail-stats-" + this.host.replaceAll("[^A-Za-z0-9_.-]", "_") + "-" + pid
        + "-" + LOGS.incrementAndGet();
    Files.createDirectories(dir);
    rotate();
    this.writer = new Thread(this::drain, prefix);
    writer.setDaemon(true);
  }

  /** A record of a block read (a range of it) starting at {@code nowNanos}, sent here once done. */
  public BlockRecord read(String file, long blockId, long nowNanos) {
    return BlockRecord.read(file, blockId, nowNanos).to(this);
  }

  /**
   * A record of a block written, begun at {@code startNanos} on a clock that reads
   * {@code nowNanos} now, sent here once done.
   */
  public BlockRecord write(String file, long blockId, long startNanos, long nowNanos) {
    return BlockRecord.write(file, blockId, startNanos, nowNanos).to(this);
  }

  /**
   * A record of a block a stock stream read ({@code write} false) or wrote, begun at
   * {@code startNanos} and {@code startMillis}, sent here once done.
   */
  public BlockRecord stock(boolean write, String file, long blockId, long startNanos,
      long startMillis) {
    return BlockRecord.stock(write, file, blockId, startNanos, startMillis).to(this);
  }

  /**
   * A record of a whole file read or written through one stream, whose opening began at
   * {@code openedNanos} ({@link System#nanoTime}); the stream's {@code close} ends it
   * ({@link RecordedStreams}).
   */
  public BlockRecord file(boolean write, String stream, String file, long openedNanos) {
    return BlockRecord.file(write, stream, file, openedNanos).to(this);
  }

  /**
   * A record of a block group written by a watched striped stream, first seen at
   * {@code startNanos} on a clock that reads {@code nowNanos} now, sent here once done.
   */
  public BlockRecord group(String file, long groupId, long startNanos, long nowNanos) {
    return BlockRecord.group(file, groupId, startNanos, nowNanos).to(this);
  }

  /** Offers a finished record; drops and counts it if the queue is full. Never blocks. */
  public void record(BlockRecord r) {
    if (!queue.offer(r)) {
      dropped.increment();
      ClientMetrics.JVM.statsDropped.increment();
    }
  }

  /** Records dropped because the queue was full. */
  public long dropped() {
    return dropped.sum();
  }

  /** Records written to a file. */
  public long written() {
    return written.sum();
  }

  /**
   * The writer's loop: every {@link #DRAIN_MS} it takes what is queued and writes it. It polls on
   * a period rather than waiting on the queue, so a record offered never wakes a thread: on a
   * busy machine a wake-up per block read costs the readers more than the record.
   */
  private void drain() {
    try {
      boolean last = false;
      while (!last) {
        synchronized (this) {
          if (!stopping) {
            wait(DRAIN_MS); // close() wakes it; interrupting would close the file's channel
          }
          last = stopping;
        }
        writeQueued();
        flush();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      closeFile();
    }
  }

  /** Writes every record queued; the writing thread's (or, for a log not started, the caller's). */
  public void writeQueued() {
    queue.drainTo(batch);
    for (BlockRecord r : batch) {
      write(r);
    }
    batch.clear();
  }

  private void write(BlockRecord r) {
    line.setLength(0);
    r.toJson(line, cohort, host, client).append('\n');
    int length = line.length();
    if (chars.length < length) {
      chars = new char[Math.max(length, 2 * chars.length)];
    }
    line.getChars(0, length, chars, 0);
    try {
      if (fileBytes > 0 && fileBytes + length > maxFileBytes) {
        rotate();
      }
      out.write(chars, 0, length);
      fileBytes += length;
      written.increment();
    } catch (IOException e) {
      dropped.increment();
      LOG.warn("Could not write statistics dir={} reason={}", dir, e.toString());
    }
  }

  private void flush() {
    try {
      if (out != null) {
        out.flush();
      }
    } catch (IOException e) {
      LOG.warn("Could not flush statistics dir={} reason={}", dir, e.toString());
    }
  }

  /** Starts the next file, deleting this log's oldest beyond {@code maxFiles}. */
  private void rotate() throws IOException {
    closeFile();
    Path next = dir.resolve(String.format("%s-%05d.jsonl", prefix, fileIndex++));
    out = new BufferedWriter(Files.newBufferedWriter(next, StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE), 64 * 1024);
    fileBytes = 0;
    files.addLast(next);
    while (files.size() > maxFiles) {
      Files.deleteIfExists(files.pollFirst());
    }
  }

  private void closeFile() {
    if (out != null) {
      try {
        out.close();
      } catch (IOException e) {
        LOG.warn("Could not close statistics dir={} reason={}", dir, e.toString());
      }
      out = null;
    }
  }

  /** Writes what is queued, waiting at most a few seconds, and closes the file. */
  @Override
  public void close() {
    synchronized (this) {
      stopping = true;
      notifyAll(); // the writer drains once more and closes the file
    }
    if (!writer.isAlive()) {
      closeFile();
      return;
    }
    try {
      writer.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
