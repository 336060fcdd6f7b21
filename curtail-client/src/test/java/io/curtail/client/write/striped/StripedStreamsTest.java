package io.curtail.client.write.striped;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The package-private members {@link StripedStreams} builds stock's striped stream with, and those
 * it watches and lets go its streamers with, are found in the Hadoop on the class path (3.4's
 * lease key, or 3.3's: build with {@code -Dhadoop.version=3.3.6} to check that one); without the
 * first every erasure-coded create would be made twice again, without the second no erasure-coded
 * write would let a lagging streamer go. ({@code HadoopClientLinkTest} checks each member by name
 * in every Hadoop client supported.)
 */
class StripedStreamsTest {
  @Test
  void stocksStripedStreamCanBeBuiltFromACreatesStatus() {
    assertTrue(StripedStreams.available(), "see the warning StripedStreams logged");
  }

  @Test
  void stocksStripedStreamersCanBeWatched() {
    assertTrue(StripedStreams.watchable(), "see the warning StripedStreams logged");
  }
}
