package io.curtail.client.conf;

/** A {@code curtail.*} setting that breaks its rule; the message names the key, the rule and the value. */
public final class InvalidConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String key;

  public InvalidConfigException(String key, String value, String rule) {
    super("Invalid Curtail setting " + key + "='" + value + "': " + rule);
    this.key = key;
  }

  /** The offending key. */
  public String key() {
    return key;
  }
}
