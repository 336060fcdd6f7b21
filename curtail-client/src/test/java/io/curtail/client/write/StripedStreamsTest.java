package io.curtail.client.write;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The package-private members {@link StripedStreams} builds stock's striped stream with are found
 * in the Hadoop on the class path (3.4's lease key, or 3.3's: build with
 * {@code -Dhadoop.version=3.3.6} to check that one); without them every erasure-coded create
 * would be made twice again.
 */
class StripedStreamsTest {
  @Test
  void stocksStripedStreamCanBeBuiltFromACreatesStatus() {
    assertTrue(StripedStreams.available(), "see the warning StripedStreams logged");
  }
}
