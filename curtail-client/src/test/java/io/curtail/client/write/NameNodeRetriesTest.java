package io.curtail.client.write;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyShort;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.io.EOFException;
import java.net.ConnectException;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.RetriableException;
import org.junit.jupiter.api.Test;

class NameNodeRetriesTest {
  private final ClientProtocol namenode = mock(ClientProtocol.class);
  private final ClientProtocol retrying = NameNodeRetries.around(namenode, 3, 1);

  @Test
  void anIdempotentCallIsMadeAgainAfterTheConnectionBrokeOrTheNameNodeWasStarting()
      throws Exception {
    LocatedBlock block = mock(LocatedBlock.class);
    when(namenode.addBlock(anyString(), anyString(), any(), any(), anyLong(), any(), any()))
        .thenThrow(new EOFException("End of File Exception"))
        .thenThrow(new RemoteException(RetriableException.class.getName(), "still starting"))
        .thenReturn(block);
    assertSame(block, retrying.addBlock("/f", "c", null, null, 1, null, null));
    verify(namenode, times(3)).addBlock(anyString(), anyString(), any(), any(), anyLong(), any(),
        any());
  }

  @Test
  void triesAreBounded() throws Exception {
    when(namenode.complete(anyString(), anyString(), any(), anyLong()))
        .thenThrow(new RemoteException(SafeModeException.class.getName(), "safe mode"));
    assertThrows(RemoteException.class, () -> retrying.complete("/f", "c", null, 1));
    verify(namenode, times(3)).complete(anyString(), anyString(), any(), anyLong());
  }

  @Test
  void callsThatAreNotIdempotentAnswersAndRefusedConnectionsAreNotRetried() throws Exception {
    when(namenode.create(anyString(), any(), anyString(), any(), anyBoolean(), anyShort(),
        anyLong(), any(), any(), any())).thenThrow(new EOFException("broken"));
    assertThrows(EOFException.class,
        () -> retrying.create("/f", null, "c", null, true, (short) 3, 1, null, null, null));
    verify(namenode, times(1)).create(anyString(), any(), anyString(), any(), anyBoolean(),
        anyShort(), anyLong(), any(), any(), any());

    when(namenode.addBlock(anyString(), anyString(), any(), any(), anyLong(), any(), any()))
        .thenThrow(new RemoteException("org.apache.hadoop.fs.FileNotFoundException", "gone"))
        .thenThrow(new ConnectException("refused"));
    assertThrows(RemoteException.class,
        () -> retrying.addBlock("/f", "c", null, null, 1, null, null));
    assertThrows(ConnectException.class,
        () -> retrying.addBlock("/f", "c", null, null, 1, null, null));
    verify(namenode, times(2)).addBlock(anyString(), anyString(), any(), any(), anyLong(), any(),
        any());
  }
}
