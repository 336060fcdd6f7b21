package io.curtail.testcluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.crypto.key.KeyProvider;
import org.apache.hadoop.crypto.key.KeyProviderFactory;

/**
 * A key store in a local file (Hadoop's {@code JavaKeyStoreProvider}) for encryption zones on a
 * test cluster: set {@link #PROVIDER_PATH} to {@link #uri()} on the cluster, and the NameNode and
 * every client of it find the zones' keys there, no KMS needed. {@link #close()} deletes it.
 */
public final class LocalKeyStore implements AutoCloseable {
  /** The setting that names a key provider to the NameNode and to clients. */
  public static final String PROVIDER_PATH = "hadoop.security.key.provider.path";

  private final File dir;
  private final String uri;

  private LocalKeyStore(File dir, String uri) {
    this.dir = dir;
    this.uri = uri;
  }

  /**
   * A new key store in a temporary directory holding a 128-bit AES key per name in {@code keys}.
   * Unchecked, so a test class can make one in a static field: a failure here is the machine's
   * (no temporary directory, no AES), never the test's.
   */
  public static LocalKeyStore withKeys(String... keys) {
    try {
      return create(keys);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot make a key store for " + Arrays.toString(keys), e);
    }
  }

  private static LocalKeyStore create(String... keys) throws IOException {
    File dir = Files.createTempDirectory("curtail-keys").toFile();
    String uri = "jceks://file" + new File(dir, "keys.jceks").getAbsolutePath();
    Configuration conf = new Configuration(false);
    conf.set(PROVIDER_PATH, uri);
    KeyProvider provider = KeyProviderFactory.getProviders(conf).get(0);
    KeyProvider.Options options = KeyProvider.options(conf);
    options.setBitLength(128); // what any JDK's AES allows
    try {
      for (String key : keys) {
        provider.createKey(key, options);
      }
    } catch (NoSuchAlgorithmException e) {
      throw new IOException("This JVM cannot make AES keys for " + uri + ": " + e, e);
    }
    provider.flush();
    return new LocalKeyStore(dir, uri);
  }

  /** The value of {@link #PROVIDER_PATH} that names this store. */
  public String uri() {
    return uri;
  }

  /** Deletes the store and its directory (the keys are gone for any cluster still using it). */
  @Override
  public void close() {
    FileUtil.fullyDelete(dir);
  }
}
