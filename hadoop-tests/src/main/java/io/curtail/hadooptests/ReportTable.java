package io.curtail.hadooptests;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Prints the per-class table of the two runs of Hadoop's tests (stock, then Curtail as hdfs://)
 * from their surefire XML reports, in Markdown: tests, failures and errors of each run, the tests
 * that fail only with Curtail, and under the table why each of those failed (exception and first
 * line of its message), which is where a cast to a stock class or a stock internal shows.
 *
 * <p>Needs only the JDK, so it runs from source with no build:
 * {@code java hadoop-tests/src/main/java/io/curtail/hadooptests/ReportTable.java [target dir]}.
 */
public final class ReportTable {
  private ReportTable() {}

  /** One run of one test class: every test's name, and the failed ones' reasons. */
  private static final class Suite {
    final Map<String, String> failed = new LinkedHashMap<>();
    int tests;
    int skipped;
    double seconds;
  }

  public static void main(String[] args) throws Exception {
    File target = new File(args.length > 0 ? args[0] : "hadoop-tests/target");
    Map<String, Suite> stock = read(new File(target, "reports-stock"));
    Map<String, Suite> curtail = read(new File(target, "reports-curtail"));
    TreeSet<String> classes = new TreeSet<>(stock.keySet());
    classes.addAll(curtail.keySet());

    System.out.println("| class | tests | stock failed | Curtail failed | failing only with Curtail"
        + " | seconds, stock / Curtail |");
    System.out.println("|---|---|---|---|---|---|");
    int tests = 0;
    int stockFailed = 0;
    int curtailFailed = 0;
    Map<String, String> curtailOnly = new TreeMap<>();
    for (String c : classes) {
      Suite s = stock.get(c);
      Suite k = curtail.get(c);
      List<String> only = new ArrayList<>();
      if (k != null) {
        for (Map.Entry<String, String> e : k.failed.entrySet()) {
          if (s == null || !s.failed.containsKey(e.getKey())) {
            only.add(e.getKey());
            curtailOnly.put(simple(c) + "." + e.getKey(), e.getValue());
          }
        }
      }
      int n = k != null ? k.tests : s.tests;
      tests += n;
      stockFailed += s == null ? 0 : s.failed.size();
      curtailFailed += k == null ? 0 : k.failed.size();
      System.out.printf("| %s | %d | %s | %s | %s | %s / %s |%n", simple(c), n, count(s),
          count(k), String.join(", ", only), seconds(s), seconds(k));
    }
    System.out.printf("| **all %d classes** | %d | %d | %d | %d | %s / %s |%n", classes.size(),
        tests, stockFailed, curtailFailed, curtailOnly.size(), total(stock), total(curtail));

    System.out.println();
    System.out.println("Why each failed only with Curtail:");
    System.out.println();
    for (Map.Entry<String, String> e : curtailOnly.entrySet()) {
      System.out.println("- `" + e.getKey() + "`: " + e.getValue());
    }
  }

  /** "no report" where a run left none for the class (its JVM killed or never started). */
  private static String count(Suite s) {
    return s == null ? "no report" : String.valueOf(s.failed.size());
  }

  private static String seconds(Suite s) {
    return s == null ? "-" : String.format("%.0f", s.seconds);
  }

  private static String total(Map<String, Suite> run) {
    return String.format("%.0f", run.values().stream().mapToDouble(s -> s.seconds).sum());
  }

  private static String simple(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }

  private static Map<String, Suite> read(File dir)
      throws IOException, SAXException, ParserConfigurationException {
    Map<String, Suite> suites = new TreeMap<>();
    File[] files = dir.listFiles((d, n) -> n.startsWith("TEST-") && n.endsWith(".xml"));
    if (files == null) {
      throw new IOException("no surefire reports in " + dir + ": run that mode first");
    }
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    for (File file : files) {
      Element root = f.newDocumentBuilder().parse(file).getDocumentElement();
      NodeList cases = root.getElementsByTagName("testcase");
      for (int i = 0; i < cases.getLength(); i++) {
        Element tc = (Element) cases.item(i);
        Suite s = suites.computeIfAbsent(tc.getAttribute("classname"), c -> new Suite());
        s.tests++;
        s.seconds += Double.parseDouble(tc.getAttribute("time").replace(",", ""));
        Element why = first(tc, "failure");
        if (why == null) {
          why = first(tc, "error");
        }
        if (why != null) {
          s.failed.put(tc.getAttribute("name"), reason(why, tc.getAttribute("classname")));
        } else if (first(tc, "skipped") != null) {
          s.skipped++;
        }
      }
    }
    return suites;
  }

  private static Element first(Element parent, String tag) {
    NodeList l = parent.getElementsByTagName(tag);
    return l.getLength() == 0 ? null : (Element) l.item(0);
  }

  /**
   * The exception's class, the first line of its message cut to a line's width, and the line of
   * the test class it was thrown through: what a reader needs to tell a cast to a stock class or
   * a stock internal read from a contract difference.
   */
  private static String reason(Element why, String testClass) {
    String type = why.getAttribute("type");
    String message = why.getAttribute("message").strip();
    int eol = message.indexOf('\n');
    if (eol >= 0) {
      message = message.substring(0, eol);
    }
    // A ClassCastException's message ends in a long note on modules and loaders.
    int note = message.indexOf(" (");
    if (type.endsWith("ClassCastException") && note > 0) {
      message = message.substring(0, note);
    }
    if (message.length() > 200) {
      message = message.substring(0, 200) + "…";
    }
    String where = "";
    for (String line : why.getTextContent().split("\n")) {
      String frame = line.strip();
      if (frame.startsWith("at " + testClass + ".")) {
        where = " (" + frame.substring(frame.lastIndexOf('(') + 1, frame.length() - 1) + ")";
        break;
      }
    }
    return type.substring(type.lastIndexOf('.') + 1) + (message.isEmpty() ? "" : ": " + message)
        + where;
  }
}
