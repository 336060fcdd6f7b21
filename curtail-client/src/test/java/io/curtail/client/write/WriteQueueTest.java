package io.curtail.client.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.curtail.client.wire.Abortable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.EnumSet;
import org.apache.hadoop.util.DataChecksum;
import org.junit.jupiter.api.Test;

/**
 * The writer's states and the queue they live in, without a cluster or a thread: each test plays
 * the streamer's, the writer's and the ack reader's calls in one order.
 */
class WriteQueueTest {
  private static final DataChecksum CRC =
      DataChecksum.newDataChecksum(DataChecksum.Type.CRC32C, 512);
  private final WriteQueue queue = new WriteQueue("/f", () -> 0);
  private final PacketPool pool = new PacketPool(4);
  private final Abortable pipeline = () -> { };
  private final Packet heartbeat = Packet.heartbeat(CRC);
  private long seqno;

  private Packet packet(long offset, int bytes) {
    Packet p = Packet.data(offset, 1 << 20, 128, CRC, pool);
    p.append(new byte[bytes], 0, bytes);
    p.seal(seqno++, CRC);
    return p;
  }

  @Test
  void everyTransitionTheJavadocListsAndNoOther() {
    EnumSet<WriterState> all = EnumSet.allOf(WriterState.class);
    String table = "IDLE>STREAMING IDLE>CLOSED STREAMING>IDLE STREAMING>RECOVERING"
        + " STREAMING>REPLACING RECOVERING>STREAMING RECOVERING>IDLE REPLACING>STREAMING"
        + " IDLE>BROKEN STREAMING>BROKEN RECOVERING>BROKEN REPLACING>BROKEN";
    for (WriterState from : all) {
      for (WriterState to : all) {
        assertEquals(table.contains(from + ">" + to), from.canMoveTo(to), from + " to " + to);
      }
    }
  }

  @Test
  void aBlockStreamsAndEndsThenTheWriterCloses() throws IOException {
    queue.pipelineStarted(pipeline);
    assertEquals(WriterState.STREAMING, queue.state());
    Packet data = packet(0, 1000);
    queue.enqueue(data, 2);
    assertSame(data, queue.nextToSend(Long.MAX_VALUE, null));
    queue.markSent(data);
    assertSame(data, queue.acked(data.seqno()));
    assertEquals(1000, queue.bytesAcked());
    queue.awaitAcked(data.seqno()); // returns at once
    queue.moveTo(WriterState.IDLE);
    queue.finishing();
    assertNull(queue.nextToSend(Long.MAX_VALUE, null), "finishing, nothing left");
    queue.streamerStopped(true);
    assertEquals(WriterState.CLOSED, queue.state());
    queue.checkFailure();
  }

  /** Starts a pipeline and queues 512 bytes and the block's end; sends the data. */
  private Packet[] dataSentThenEndQueued() throws IOException {
    queue.pipelineStarted(pipeline);
    Packet data = packet(0, 512);
    Packet end = Packet.endOfBlock(512);
    end.seal(seqno++, CRC);
    queue.enqueue(data, 8);
    queue.enqueue(end, 8);
    queue.markSent(queue.nextToSend(Long.MAX_VALUE, null));
    return new Packet[] {data, end};
  }

  @Test
  void aBlocksEndWaitsForItsDataToBeAcknowledged() throws IOException {
    Packet[] dataAndEnd = dataSentThenEndQueued();
    Packet data = dataAndEnd[0];
    Packet end = dataAndEnd[1];
    assertSame(heartbeat, queue.nextToSend(0, heartbeat),
        "with data in flight the block's end waits: the idle pipeline gets a heartbeat");
    queue.acked(data.seqno());
    assertSame(end, queue.nextToSend(0, heartbeat));
  }

  @Test
  void aBlocksEndAcknowledgedIsKnownUntilTheNextBlockStarts() throws IOException {
    Packet[] dataAndEnd = dataSentThenEndQueued();
    Packet data = dataAndEnd[0];
    Packet end = dataAndEnd[1];
    queue.acked(data.seqno());
    assertFalse(queue.blockEndAcked(), "data acknowledged, the end not yet sent");
    queue.markSent(queue.nextToSend(0, heartbeat));
    assertFalse(queue.blockEndAcked(), "the end in flight");
    // Fail-fast may stop the pipeline now, on what the acks showed a moment ago.
    queue.stop(pipeline, new PipelineFailure("a slow one to replace", 1, null));
    queue.acked(end.seqno());
    assertTrue(queue.blockEndAcked(), "the replicas are final: nothing is left to replace");
    queue.blockStarts(0);
    assertFalse(queue.blockEndAcked(), "a new block");
  }

  @Test
  void aFailedPipelineRecoversWithItsPacketsPutBack() throws IOException {
    queue.pipelineStarted(pipeline);
    Packet a = packet(0, 512);
    Packet b = packet(512, 512);
    queue.enqueue(a, 8);
    queue.enqueue(b, 8);
    queue.markSent(queue.nextToSend(Long.MAX_VALUE, null));
    queue.markSent(queue.nextToSend(Long.MAX_VALUE, null));
    queue.acked(a.seqno());
    PipelineFailure failed = new PipelineFailure("dn1 answered ERROR", 1, null);
    assertTrue(queue.stop(pipeline, failed), "the ack reader stops its pipeline");
    assertFalse(queue.stop(pipeline, new PipelineFailure("again", 0, null)), "only once");
    assertSame(failed, assertThrows(PipelineFailure.class,
        () -> queue.nextToSend(Long.MAX_VALUE, null)), "the streamer learns why");
    assertSame(pipeline, queue.detachPipeline());
    queue.clearStop();
    queue.moveTo(WriterState.RECOVERING);
    assertFalse(queue.requeueInFlight(), "the block's end was not in flight");
    assertSame(b, queue.nextToSend(Long.MAX_VALUE, null), "b goes again first");
    queue.pipelineStarted(pipeline);
    assertEquals(WriterState.STREAMING, queue.state());
    assertEquals(512, queue.bytesAcked());
  }

  @Test
  void aFailFastStopReplacesThenStreamsAgain() throws IOException {
    queue.pipelineStarted(pipeline);
    queue.detachPipeline();
    queue.moveTo(WriterState.REPLACING);
    assertThrows(IllegalStateException.class, () -> queue.moveTo(WriterState.IDLE),
        "a replacement ends on a pipeline, new or old");
    queue.pipelineStarted(pipeline);
    assertEquals(WriterState.STREAMING, queue.state());
  }

  @Test
  void aFailureFromAnyThreadBreaksTheWriterForGood() throws IOException {
    queue.pipelineStarted(pipeline);
    queue.moveTo(WriterState.RECOVERING);
    IOException cause = new IOException("no DataNode left");
    queue.fail(cause);
    assertEquals(WriterState.BROKEN, queue.state());
    assertSame(cause, assertThrows(IOException.class,
        () -> queue.moveTo(WriterState.STREAMING)), "the streamer stops where it stands");
    IOException seen = assertThrows(IOException.class, () -> queue.enqueue(packet(0, 1), 8));
    assertSame(cause, seen.getCause(), "the writer is told why");
    queue.fail(new IOException("later"));
    queue.streamerStopped(false);
    assertEquals(WriterState.BROKEN, queue.state());
    assertSame(cause, assertThrows(IOException.class, queue::checkFailure).getCause(),
        "the first failure is the one reported");
  }

  @Test
  void aStreamerThatStopsMidBlockBreaksTheWriter() throws IOException {
    queue.pipelineStarted(pipeline);
    queue.streamerStopped(false);
    assertEquals(WriterState.BROKEN, queue.state());
    assertThrows(IOException.class, queue::checkFailure);
  }

  @Test
  void aStreamerKilledBetweenBlocksNeverClosesTheWriter() throws IOException {
    queue.pipelineStarted(pipeline);
    queue.moveTo(WriterState.IDLE); // a block ended; an Error kills the streamer here
    queue.streamerStopped(false);
    assertEquals(WriterState.BROKEN, queue.state(), "a close must not succeed on a short file");
    assertThrows(IOException.class, queue::checkFailure);
  }

  @Test
  void anAckForAnotherPacketIsAnError() throws IOException {
    queue.pipelineStarted(pipeline);
    Packet a = packet(0, 512);
    queue.enqueue(a, 8);
    queue.markSent(queue.nextToSend(Long.MAX_VALUE, null));
    IOException e = assertThrows(IOException.class, () -> queue.acked(a.seqno() + 1));
    assertTrue(e.getMessage().contains("seqno " + a.seqno() + " is in flight"), e.getMessage());
  }

  @Test
  void anInterruptedWaitForAcksThrowsAndClearsTheInterrupt() throws IOException {
    queue.pipelineStarted(pipeline);
    Packet a = packet(0, 512);
    queue.enqueue(a, 8);
    Thread.currentThread().interrupt();
    try {
      assertThrows(InterruptedIOException.class, () -> queue.awaitAcked(a.seqno()));
      assertFalse(Thread.currentThread().isInterrupted(), "cleared, as stock's stream clears it");
    } finally {
      Thread.interrupted();
    }
    queue.markSent(queue.nextToSend(Long.MAX_VALUE, null));
    queue.acked(a.seqno());
    queue.awaitAcked(a.seqno()); // the retried wait returns: nothing was lost
  }

  @Test
  void anInterruptedWriterStillQueuesItsNumberedPacket() throws IOException {
    queue.pipelineStarted(pipeline);
    Packet a = packet(0, 512);
    Packet b = packet(512, 512);
    queue.enqueue(a, 1);
    Thread.currentThread().interrupt();
    try {
      queue.enqueue(b, 1); // the queue is full: the wait ends at once, b goes in all the same
      assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is left for the caller");
    } finally {
      Thread.interrupted();
    }
    assertSame(a, queue.nextToSend(Long.MAX_VALUE, null));
    queue.markSent(a);
    assertSame(b, queue.nextToSend(Long.MAX_VALUE, null), "no gap in the sequence");
  }
}
