package io.curtail.client.write;

import java.io.IOException;
import java.io.OutputStream;
import java.security.GeneralSecurityException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoCodec;
import org.apache.hadoop.crypto.CryptoOutputStream;
import org.apache.hadoop.crypto.key.KeyProvider;
import org.apache.hadoop.crypto.key.KeyProvider.KeyVersion;
import org.apache.hadoop.crypto.key.KeyProviderCryptoExtension;
import org.apache.hadoop.crypto.key.KeyProviderCryptoExtension.EncryptedKeyVersion;
import org.apache.hadoop.fs.FileEncryptionInfo;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.HdfsKMSUtil;

/**
 * Curtail's stream of a file in an encryption zone, in Hadoop's crypto stream: the bytes are
 * encrypted as stock's client encrypts them, and Curtail's pipeline carries the ciphertext.
 *
 * <p>Why not stock's {@code DFSClient.createWrappedOutputStream}: it takes a
 * {@code DFSOutputStream}, which Curtail's stream is not. What it does is public in 3.3 and 3.4
 * alike, and done here the same way: the zone's key provider decrypts the file's data key, which
 * the NameNode made for the one {@code create} (so the file is created once, and one data key is
 * spent on it), and a {@link CryptoOutputStream} with the file's codec and IV encrypts.
 */
public final class Encryption {
  private Encryption() {
  }

  /**
   * {@code out}, encrypting with {@code info}'s key from {@code startPosition} (0, or where an
   * append starts).
   *
   * @param conf the file system's configuration, which names the codec classes
   */
  public static OutputStream encrypting(DFSClient client, Configuration conf,
      FileEncryptionInfo info, OutputStream out, long startPosition) throws IOException {
    HdfsKMSUtil.getCryptoProtocolVersion(info); // refuses a version this client cannot write
    CryptoCodec codec = HdfsKMSUtil.getCryptoCodec(conf, info);
    KeyProvider provider = client.getKeyProvider();
    if (provider == null) {
      // Stock's text, which operators search for.
      throw new IOException("No KeyProvider is configured, cannot access an encrypted file");
    }
    KeyVersion key;
    try {
      key = KeyProviderCryptoExtension.createKeyProviderCryptoExtension(provider)
          .decryptEncryptedKey(EncryptedKeyVersion.createForDecryption(info.getKeyName(),
              info.getEzKeyVersionName(), info.getIV(), info.getEncryptedDataEncryptionKey()));
    } catch (GeneralSecurityException e) {
      throw new IOException("Could not decrypt the data key of an encrypted file with key "
          + info.getKeyName() + " version " + info.getEzKeyVersionName() + ": " + e, e);
    }
    return new CryptoOutputStream(out, codec, key.getMaterial(), info.getIV(), startPosition);
  }
}
