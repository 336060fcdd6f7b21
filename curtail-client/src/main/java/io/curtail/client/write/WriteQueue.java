package io.curtail.client.write;

import io.curtail.client.runtime.NanoClock;
import io.curtail.client.wire.Abortable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One file's packets between its writer and its pipelines, and the {@link WriterState} of its
 * streamer: the one lock that the writing thread, the streamer thread and the ack reader share.
 * Every field is guarded by this object's monitor; each method says which thread calls it.
 * Packets wait in {@code queued} until sent, then in {@code inFlight} until acknowledged.
 */
final class WriteQueue {
  private final String src;
  private final NanoClock clock;
  private final ArrayDeque<Packet> queued = new ArrayDeque<>();
  private final ArrayDeque<Packet> inFlight = new ArrayDeque<>();
  private WriterState state = WriterState.IDLE;
  private long lastAckedSeqno = -1;
  private long bytesAcked;
  /** Whether the current block's end-of-block packet was acknowledged: its replicas are final. */
  private boolean blockEndAcked;
  /** The pipeline packets go to now, null when there is none. */
  private Abortable current;
  /** Why {@link #current} stopped, set by its ack reader or by fail-fast; null while it runs. */
  private PipelineFailure stopped;
  /** The failure that broke the writer; set once. */
  private IOException failure;
  private boolean finishing;

  WriteQueue(String src, NanoClock clock) {
    this.src = src;
    this.clock = clock;
  }

  // ---- The writing thread.

  /**
   * Queues a sealed packet, waiting while {@code maxUnacked} are unacknowledged. Interrupted,
   * it stops waiting but still queues the packet, a little over the limit, and leaves the
   * interrupt set for the caller: the packet is numbered already, and one dropped would leave a
   * gap in the sequence that the DataNodes refuse.
   */
  synchronized void enqueue(Packet packet, int maxUnacked) throws IOException {
    boolean interrupted = false;
    while (failure == null && !interrupted && queued.size() + inFlight.size() >= maxUnacked) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    checkFailure();
    queued.addLast(packet);
    notifyAll();
  }

  /**
   * Waits until the packet numbered {@code seqno} and all before it are acknowledged.
   *
   * @throws InterruptedIOException if interrupted meanwhile; the interrupt is then cleared, as
   *     stock's stream clears it: nothing was lost, and the caller's retried hflush or close
   *     waits again rather than failing at once
   */
  synchronized void awaitAcked(long seqno) throws IOException {
    while (failure == null && lastAckedSeqno < seqno) {
      try {
        wait();
      } catch (InterruptedException e) {
        throw new InterruptedIOException("interrupted while waiting for packet " + seqno
            + " of " + src + " to be acknowledged");
      }
    }
    checkFailure();
  }

  /** Nothing more will be queued: the streamer stops once every packet is acknowledged. */
  synchronized void finishing() {
    finishing = true;
    notifyAll();
  }

  /** Throws the failure that broke the writer, if any. */
  synchronized void checkFailure() throws IOException {
    if (failure != null) {
      throw new IOException("writing " + src + " failed: " + failure.getMessage(), failure);
    }
  }

  // ---- Any thread.

  /**
   * Breaks the writer with {@code e} (the first failure is kept) and returns the pipeline to cut,
   * if one is up.
   */
  synchronized Abortable fail(IOException e) {
    if (failure == null) {
      failure = e;
    }
    if (state.canMoveTo(WriterState.BROKEN)) {
      state = WriterState.BROKEN;
    }
    notifyAll();
    return current;
  }

  synchronized WriterState state() {
    return state;
  }

  synchronized long bytesAcked() {
    return bytesAcked;
  }

  // ---- The streamer thread.

  /**
   * The one place the streamer's state changes.
   *
   * @throws IOException if the writer broke meanwhile (another thread failed it)
   * @throws IllegalStateException if the transition is not one {@link WriterState} lists
   */
  synchronized void moveTo(WriterState next) throws IOException {
    if (state == WriterState.BROKEN) {
      throw failure;
    }
    if (!state.canMoveTo(next)) {
      throw new IllegalStateException("the writer of " + src + " cannot go from " + state
          + " to " + next);
    }
    state = next;
    notifyAll();
  }

  /**
   * The packet to send next, left at the head of the queue until {@link #markSent}; a heartbeat
   * when a pipeline has been idle for {@code idleNanos}; null once the writer is finishing and
   * every packet is acknowledged. A block's end goes only once all its data is acknowledged.
   *
   * @throws IOException the writer's failure, or the {@link PipelineFailure} that stopped the
   *     pipeline
   */
  synchronized Packet nextToSend(long idleNanos, Packet heartbeat) throws IOException {
    long idleSince = clock.nanoTime();
    while (true) {
      if (failure != null) {
        throw failure;
      }
      if (stopped != null) {
        throw stopped;
      }
      Packet head = queued.peekFirst();
      if (head != null && (!head.lastInBlock || inFlight.isEmpty())) {
        return head;
      }
      if (finishing && inFlight.isEmpty()) {
        return null;
      }
      long left = idleNanos - (clock.nanoTime() - idleSince);
      if (left <= 0 && current != null) {
        return heartbeat;
      }
      try {
        TimeUnit.NANOSECONDS.timedWait(this, Math.max(1, left > 0 ? left : idleNanos));
      } catch (InterruptedException e) {
        throw new InterruptedIOException("streamer of " + src + " interrupted");
      }
    }
  }

  /** Moves {@code p}, the head of the queue, in flight. */
  synchronized void markSent(Packet p) {
    if (queued.pollFirst() != p) {
      throw new IllegalStateException("queue head changed under the streamer of " + src);
    }
    inFlight.addLast(p);
    p.sentNanos = clock.nanoTime();
  }

  /** Waits until nothing is in flight; throws what stopped the pipeline or broke the writer. */
  synchronized void awaitAllAcked() throws IOException {
    while (failure == null && stopped == null && !inFlight.isEmpty()) {
      waitHere();
    }
    if (failure != null) {
      throw failure;
    }
    if (stopped != null) {
      throw stopped;
    }
  }

  /** What a send failure means: the ack reader's diagnosis if it has one, else none. */
  synchronized PipelineFailure sendFailed(IOException e, Pipeline.Targets targets) {
    return stopped != null ? stopped
        : new PipelineFailure("sending to " + targets + " failed: " + e, -1, e);
  }

  /** Packets now go to {@code p}. */
  synchronized void pipelineStarted(Abortable p) throws IOException {
    moveTo(WriterState.STREAMING);
    current = p;
    stopped = null;
  }

  /** Detaches the current pipeline (so its ack reader can no longer stop it) and returns it. */
  synchronized Abortable detachPipeline() {
    Abortable p = current;
    current = null;
    return p;
  }

  /** Forgets why the last pipeline stopped, once its ack reader is gone. */
  synchronized void clearStop() {
    stopped = null;
  }

  /** A new block starts empty; an appended one at its length. */
  synchronized void blockStarts(long bytesAlreadyInBlock) {
    bytesAcked = bytesAlreadyInBlock;
    blockEndAcked = false;
  }

  /** Whether the current block's end-of-block packet was acknowledged (see {@link #acked}). */
  synchronized boolean blockEndAcked() {
    return blockEndAcked;
  }

  /** Moves packets in flight back to the head of the queue; whether the block's end was one. */
  synchronized boolean requeueInFlight() {
    boolean closing = false;
    while (!inFlight.isEmpty()) {
      Packet p = inFlight.pollLast();
      closing |= p.lastInBlock;
      queued.addFirst(p);
    }
    return closing;
  }

  /** The block's end, at the head of the queue, is done (its replicas were finalised). */
  synchronized void blockEndDone() {
    Packet end = queued.pollFirst();
    lastAckedSeqno = end.seqno();
    bytesAcked = end.end();
    notifyAll();
  }

  /**
   * The streamer stopped: the writer is CLOSED if it {@code finished} the file and all went well,
   * else BROKEN. A streamer that did not finish never closes the stream, whatever the state says:
   * one killed by an {@code Error} between packets would otherwise leave a writer whose close
   * succeeds on a short file.
   */
  synchronized void streamerStopped(boolean finished) {
    if (finished && failure == null && state == WriterState.IDLE) {
      state = WriterState.CLOSED;
    } else {
      fail(new IOException("the streamer of " + src + " stopped "
          + (finished ? "while " + state : "before finishing the file, while " + state)));
    }
    notifyAll();
  }

  // ---- The ack reader.

  /**
   * Takes the packet {@code seqno} acknowledges off the in-flight queue and returns it.
   *
   * @throws IOException if it is not the oldest packet in flight
   */
  synchronized Packet acked(long seqno) throws IOException {
    Packet acked = inFlight.peekFirst();
    if (acked == null || acked.seqno() != seqno) {
      throw new IOException("ack for seqno " + seqno + " when "
          + (acked == null ? "nothing" : "seqno " + acked.seqno()) + " is in flight");
    }
    inFlight.removeFirst();
    lastAckedSeqno = seqno;
    bytesAcked = Math.max(bytesAcked, acked.end());
    blockEndAcked |= acked.lastInBlock;
    notifyAll();
    return acked;
  }

  /**
   * Stops {@code p} for {@code why}, unless it is no longer the current pipeline or something
   * stopped it first; returns whether this call stopped it.
   */
  synchronized boolean stop(Abortable p, PipelineFailure why) {
    if (current != p || stopped != null) {
      return false;
    }
    stopped = why;
    notifyAll();
    return true;
  }

  private void waitHere() throws InterruptedIOException {
    try {
      wait();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while writing " + src);
    }
  }
}
