package io.curtail.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every link in README.md and docs/*.md resolves: a relative link names a file or directory of the
 * repository, and an {@code #anchor} names a heading of the page it points at, by GitHub's rule.
 * The manual is split over a dozen pages that move as the code does; a link into a section that
 * was renamed or moved fails here rather than on a reader. No cluster: it reads text only.
 */
class DocLinksTest {
  private static final Path REPO = Paths.get("..").toAbsolutePath().normalize();
  /** An inline link or image: [text](target) or [text](target "title"). */
  private static final Pattern LINK =
      Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");

  @Test
  void everyLinkInTheManualResolves() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(REPO.resolve("README.md"));
    try (Stream<Path> docs = Files.list(REPO.resolve("docs"))) {
      pages.addAll(docs.filter(p -> p.toString().endsWith(".md")).sorted()
          .collect(Collectors.toList()));
    }
    assertTrue(pages.size() > 5, "docs/ holds only " + (pages.size() - 1) + " pages");
    Map<Path, Set<String>> anchors = new HashMap<>();
    List<String> broken = new ArrayList<>();
    int links = 0;
    for (Path page : pages) {
      for (String target : links(read(page))) {
        links++;
        String problem = problem(page, target, anchors);
        if (problem != null) {
          broken.add(REPO.relativize(page) + ": (" + target + ") " + problem);
        }
      }
    }
    assertTrue(links > 30, "only " + links + " links found: is the link pattern still right?");
    assertEquals(List.of(), broken, "links that do not resolve");
  }

  /** The anchors GitHub gives headings, on examples from the manual and from its own pages. */
  @Test
  void anchorsFollowGitHubsRule() {
    List<String> got = anchorsOf(String.join("\n",
        "# How reads work",
        "## Closed loop, `--pace` and `--interleave`",
        "### Blame: was each decision right?",
        "## A/B cohorts",
        "```",
        "# not a heading, inside a code block",
        "```",
        "## On a real cluster, as a MapReduce job",
        "## Notes",
        "## Notes",
        "## [Linked](docs/x.md) heading"))
        .stream().collect(Collectors.toList());
    assertEquals(List.of("how-reads-work", "closed-loop---pace-and---interleave",
        "blame-was-each-decision-right", "ab-cohorts", "on-a-real-cluster-as-a-mapreduce-job",
        "notes", "notes-1", "linked-heading"), got);
  }

  /** What is wrong with a link from page to target, or null when it resolves. */
  private static String problem(Path page, String target, Map<Path, Set<String>> anchors)
      throws IOException {
    if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
      return null; // http:, https:, mailto:: not checked offline
    }
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path to = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
    if (!to.startsWith(REPO)) {
      return "points outside the repository";
    }
    if (!Files.exists(to)) {
      return "no such file " + REPO.relativize(to);
    }
    if (anchor == null) {
      return null;
    }
    if (!to.toString().endsWith(".md")) {
      return "an anchor into a file that is not Markdown";
    }
    Set<String> known = anchors.get(to);
    if (known == null) {
      known = anchorsOf(read(to));
      anchors.put(to, known);
    }
    return known.contains(anchor) ? null
        : "no heading with anchor #" + anchor + " in " + REPO.relativize(to) + " (it has "
            + known + ")";
  }

  /**
   * The link targets of a Markdown text, leaving out code blocks and code spans; a link's text
   * may wrap onto the next line, as may a code span.
   */
  private static List<String> links(String markdown) {
    String prose = CODE_SPAN.matcher(String.join("\n", prose(markdown))).replaceAll("");
    List<String> targets = new ArrayList<>();
    Matcher m = LINK.matcher(prose);
    while (m.find()) {
      targets.add(m.group(1));
    }
    return targets;
  }

  /**
   * GitHub's anchors for a page's headings, in order: the heading's text as rendered (links
   * reduced to their text, code spans to their content, emphasis marks dropped), lower-cased,
   * every character but letters, digits, spaces, hyphens and underscores removed, spaces made
   * hyphens; a repeated anchor gets -1, -2, ... appended.
   */
  static Set<String> anchorsOf(String markdown) {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : prose(markdown)) {
      Matcher h = HEADING.matcher(line);
      if (!h.matches()) {
        continue;
      }
      String text = h.group(1)
          .replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
          .replace("`", "")
          .replace("*", "");
      String slug = text.toLowerCase(Locale.ROOT)
          .replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "")
          .replace(' ', '-');
      int n = seen.merge(slug, 1, Integer::sum) - 1;
      anchors.add(n == 0 ? slug : slug + "-" + n);
    }
    return anchors;
  }

  /** The lines of a Markdown text outside fenced code blocks. */
  private static List<String> prose(String markdown) {
    List<String> lines = new ArrayList<>();
    boolean fenced = false;
    for (String line : markdown.split("\n", -1)) {
      if (line.trim().startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced) {
        lines.add(line);
      }
    }
    return lines;
  }

  private static String read(Path p) throws IOException {
    return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
  }
}
