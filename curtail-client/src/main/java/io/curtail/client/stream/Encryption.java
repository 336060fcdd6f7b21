package io.curtail.client.stream;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.GeneralSecurityException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoCodec;
import org.apache.hadoop.crypto.CryptoInputStream;
import org.apache.hadoop.crypto.CryptoOutputStream;
import org.apache.hadoop.crypto.key.KeyProvider;
import org.apache.hadoop.crypto.key.KeyProvider.KeyVersion;
import org.apache.hadoop.crypto.key.KeyProviderCryptoExtension;
import org.apache.hadoop.crypto.key.KeyProviderCryptoExtension.EncryptedKeyVersion;
import org.apache.hadoop.fs.FileEncryptionInfo;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.HdfsKMSUtil;

/**
 * Curtail's streams of a file in an encryption zone, in Hadoop's crypto streams: the bytes are
 * encrypted and decrypted as stock's client does it, and Curtail's pipeline and reader carry the
 * ciphertext.
 *
 * <p>Why not stock's {@code DFSClient.createWrappedOutputStream} and
 * {@code createWrappedInputStream}: they take a {@code DFSOutputStream} or
 * {@code DFSInputStream}, which Curtail's streams are not. What they do is public in 3.3 and 3.4
 * alike, and done here the same way: the zone's key provider decrypts the file's data key (which
 * the NameNode made for its one {@code create}, so a file Curtail writes is created once and costs
 * one data key), and a crypto stream with the file's codec and IV encrypts or decrypts.
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
    CryptoCodec codec = codec(conf, info);
    return new CryptoOutputStream(out, codec, dataKey(client, info), info.getIV(),
        startPosition);
  }

  /**
   * {@code in}, the file's bytes as the DataNodes hold them, decrypted with {@code info}'s key
   * wherever it reads: a seek or positional read of {@code in} works out its cipher's counter
   * from the position, so {@code in} must be seekable and positionally readable.
   */
  public static CryptoInputStream decrypting(DFSClient client, Configuration conf,
      FileEncryptionInfo info, InputStream in) throws IOException {
    CryptoCodec codec = codec(conf, info);
    return new CryptoInputStream(in, codec, dataKey(client, info), info.getIV());
  }

  /** The codec of {@code info}'s cipher; refuses a protocol version this client cannot read. */
  private static CryptoCodec codec(Configuration conf, FileEncryptionInfo info)
      throws IOException {
    HdfsKMSUtil.getCryptoProtocolVersion(info);
    return HdfsKMSUtil.getCryptoCodec(conf, info);
  }

  /** The file's data key, decrypted by the zone's key provider. */
  private static byte[] dataKey(DFSClient client, FileEncryptionInfo info) throws IOException {
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
    return key.getMaterial();
  }
}
