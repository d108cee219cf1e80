package org.dpsql.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.dpsql.policy.PolicyLoader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Doc-tests: every fenced {@code sql} and {@code yaml} block of the manual ({@code README.md} and
 * {@code docs/**}.md, except {@code docs/_incoming/}) runs against the demo database, so that the
 * manual cannot drift from the product.
 *
 * <p>Marking convention (also in docs/README.md):
 *
 * <ul>
 *   <li>{@code ```sql}: each statement (ending with {@code ;}, the last one may omit it) runs on
 *       one dpsql connection per block, with the demo policy and a fixed seed, and must be answered.
 *       A line {@code -- expect-error: XDP02} right above a statement says it must be refused with
 *       that SQLState (the demo scripts' convention). A statement with {@code ?} parameters is
 *       prepared only.
 *   <li>{@code ```yaml}: a whole policy, loaded by the policy loader and validated against the
 *       demo backend; it must be accepted. {@code ```yaml expect-error: XDP04}: it must be refused
 *       with that SQLState.
 *   <li>{@code ```sql not-run: <reason>} or {@code ```yaml not-run: <reason>}: shown, not run
 *       (e.g. {@code not-run: needs Trino's tpch catalog}); the reason is required.
 *   <li>Other fences ({@code ```}, {@code ```java}, {@code ```text}, ...) are not run.
 * </ul>
 */
class DocTest {
  private static final String BACKEND = "h2:mem:doc-test;DB_CLOSE_DELAY=-1";
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static Connection h2;

  /** A fenced block of a page. */
  record Block(Path file, int line, String language, String marker, String text) {
    String where() {
      return ROOT.relativize(file) + ":" + line;
    }
  }

  @BeforeAll
  static void setUp() throws SQLException {
    h2 = DriverManager.getConnection("jdbc:" + BACKEND);
    DemoData.generate(h2, DemoData.Config.ofTrips(5_000));
  }

  @AfterAll
  static void tearDown() throws SQLException {
    try (Statement st = h2.createStatement()) {
      st.execute("DROP ALL OBJECTS");
    }
    h2.close();
  }

  /** The pages of the manual: the front page and the chapters, not the lead's inbox. */
  static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(ROOT.resolve("README.md"));
    try (Stream<Path> s = Files.walk(ROOT.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md"))
          .filter(p -> !ROOT.resolve("docs").relativize(p).startsWith("_incoming"))
          .sorted().forEach(pages::add);
    }
    return pages;
  }

  static List<Block> blocks(Path page) {
    List<String> lines;
    try {
      lines = Files.readAllLines(page, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i).strip();
      if (!l.startsWith("```") || l.length() == 3) {
        continue;
      }
      String info = l.substring(3).strip();
      String language = info.split("\\s+", 2)[0];
      String marker = info.substring(language.length()).strip();
      StringBuilder text = new StringBuilder();
      int j = i + 1;
      while (j < lines.size() && !lines.get(j).strip().startsWith("```")) {
        text.append(lines.get(j)).append('\n');
        j++;
      }
      if (language.equals("sql") || language.equals("yaml")) {
        blocks.add(new Block(page, i + 1, language, marker, text.toString()));
      }
      i = j;
    }
    return blocks;
  }

  static List<Block> allBlocks() throws IOException {
    List<Block> all = new ArrayList<>();
    for (Path p : pages()) {
      all.addAll(blocks(p));
    }
    return all;
  }

  @TestFactory
  Stream<DynamicTest> everySqlAndPolicyBlockOfTheManual() throws IOException {
    return allBlocks().stream()
        .filter(b -> !b.marker().startsWith("not-run:"))
        .map(b -> DynamicTest.dynamicTest(b.where() + " " + b.language(), () -> run(b)));
  }

  @Test
  void theManualHasDocTestsAndEveryUnrunBlockSaysWhy() throws IOException {
    List<Block> all = allBlocks();
    long run = all.stream().filter(b -> !b.marker().startsWith("not-run:")).count();
    long statements = all.stream().filter(b -> b.language().equals("sql"))
        .filter(b -> !b.marker().startsWith("not-run:"))
        .mapToLong(b -> SqlScript.parse(b.where(), b.text()).statements().size()).sum();
    System.out.printf("DocTest: %d blocks in %d pages, %d run (%d SQL statements), %d not run%n",
        all.size(), pages().size(), run, statements, all.size() - run);
    assertTrue(run >= 15 && statements >= 30, "only " + run + " doc-test blocks, "
        + statements + " statements");
    for (Block b : all) {
      boolean known = b.marker().isEmpty() || b.marker().matches("expect-error: \\w{5}")
          || b.marker().matches("not-run: \\S.*");
      assertTrue(known, b.where() + ": unknown marker '" + b.marker() + "'");
    }
  }

  static void run(Block b) throws Exception {
    if (b.language().equals("yaml")) {
      runPolicy(b);
    } else {
      runSql(b);
    }
  }

  private static void runPolicy(Block b) {
    String expected = b.marker().startsWith("expect-error:")
        ? b.marker().substring("expect-error:".length()).strip() : null;
    if (expected == null) {
      try {
        PolicyLoader.validate(PolicyLoader.parse(b.text(), b.where()), h2);
      } catch (SQLException e) {
        throw new AssertionError(b.where() + ": the policy is refused (" + e.getSQLState()
            + "): " + e.getMessage(), e);
      }
    } else {
      SQLException e = assertThrows(SQLException.class,
          () -> PolicyLoader.validate(PolicyLoader.parse(b.text(), b.where()), h2),
          b.where() + ": the policy should be refused with " + expected);
      assertEquals(expected, e.getSQLState(), b.where() + ": " + e.getMessage());
    }
  }

  private static void runSql(Block b) throws SQLException {
    Properties p = new Properties();
    p.setProperty("policy", "classpath:demo-policy.yaml");
    p.setProperty("seed", "42");
    List<String> failures = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:dpsql:" + BACKEND, p)) {
      for (SqlScript.Statement s : SqlScript.parse(b.where(), b.text()).statements()) {
        String where = ROOT.relativize(b.file()) + ":" + (b.line() + s.line()) + ": ";
        try {
          if (s.sql().contains("?")) {
            c.prepareStatement(s.sql()).close();
          } else {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(s.sql())) {
              int columns = rs.getMetaData().getColumnCount();
              while (rs.next()) {
                for (int k = 1; k <= columns; k++) {
                  rs.getObject(k);
                }
              }
            }
          }
          if (s.expectsError()) {
            failures.add(where + "answered, but the manual says it is refused with "
                + s.expectedError() + ": " + s.sql());
          }
        } catch (SQLException e) {
          if (!s.expectsError()) {
            failures.add(where + "refused (" + e.getSQLState() + ": " + e.getMessage() + "): "
                + s.sql());
          } else if (!s.expectedError().isEmpty() && !s.expectedError().equals(e.getSQLState())) {
            failures.add(where + "refused with " + e.getSQLState() + ", the manual says "
                + s.expectedError() + " (" + e.getMessage() + "): " + s.sql());
          }
        }
      }
    }
    assertEquals(List.of(), failures);
  }
}
