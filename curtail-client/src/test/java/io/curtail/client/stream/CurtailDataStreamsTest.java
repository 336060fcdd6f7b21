package io.curtail.client.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Curtail's HDFS-typed streams answer every method that would reach the stock stream Hadoop's
 * classes expect under them (which they do not have): checked against the Hadoop on the class
 * path, so a Hadoop that adds such a method fails here rather than with a cast in production.
 */
class CurtailDataStreamsTest {

  @Test
  void inputOverridesEveryMethodHdfsDataInputStreamDeclares() {
    assertEquals(List.of(), notOverridden(CurtailDataInputStream.class,
        HdfsDataInputStream.class));
  }

  @Test
  void outputOverridesEveryMethodFsDataAndHdfsDataOutputStreamDeclare() {
    List<String> missing = notOverridden(CurtailDataOutputStream.class,
        HdfsDataOutputStream.class);
    missing.addAll(notOverridden(CurtailDataOutputStream.class, FSDataOutputStream.class));
    assertEquals(List.of(), missing);
  }

  /** The public instance methods {@code of} declares that {@code sub} does not. */
  private static List<String> notOverridden(Class<?> sub, Class<?> of) {
    List<String> missing = new ArrayList<>();
    for (Method m : of.getDeclaredMethods()) {
      if (!Modifier.isPublic(m.getModifiers()) || Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      try {
        sub.getDeclaredMethod(m.getName(), m.getParameterTypes());
      } catch (NoSuchMethodException e) {
        missing.add(of.getSimpleName() + "." + m.getName());
      }
    }
    return missing;
  }
}
