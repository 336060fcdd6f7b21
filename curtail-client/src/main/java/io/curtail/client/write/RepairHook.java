package io.curtail.client.write;

import java.io.IOException;
import java.util.List;

/**
 * The steps of mending a write pipeline, where tests and chaos runs act: a fail-fast replacement
 * passes from its decision to resumed streaming in tens of milliseconds, so killing or stalling a
 * DataNode at one exact step needs the writer to say when it is there. The writer calls the hook
 * on the file's streamer thread and waits while it runs; what the hook throws fails the step as
 * the step's own failure would. Production clients install none ({@link #NONE}).
 */
@FunctionalInterface
public interface RepairHook {
  /** No hook: the steps pass unobserved. */
  RepairHook NONE = (step, file, dataNodes) -> { };

  /** A step of mending a pipeline, in the order a fail-fast replacement passes them. */
  enum Step {
    /**
     * Fail-fast judged a DataNode slow and cut the pipeline; nothing asked of the NameNode yet.
     * {@code dataNodes}: the pipeline cut, by transfer address, in order.
     */
    REPLACEMENT_DECIDED,
    /**
     * The NameNode granted a new DataNode and the block's acknowledged bytes are about to be
     * copied to it ({@code transferBlock}), for a replacement or to restore replication after a
     * failure. {@code dataNodes}: the source, then the new DataNode.
     */
    REBUILD_STARTING,
    /**
     * A pipeline is set up at its DataNodes under a new generation stamp, the NameNode not yet
     * told ({@code updatePipeline}): after every replacement and recovery, and an append.
     * {@code dataNodes}: the new pipeline.
     */
    PIPELINE_OPENED,
    /** The NameNode knows the new pipeline and streaming resumes on it. Same nodes. */
    STREAMING_RESUMED
  }

  /** The writer of {@code file} reached {@code step}, involving {@code dataNodes}. */
  void reached(Step step, String file, List<String> dataNodes) throws IOException;
}
