package org.dpsql.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Command-line handling; needs no driver. */
class DemoRunnerOptionsTest {

  @Test
  void defaults() {
    DemoRunner.Options options = DemoRunner.Options.parse(new String[0]);
    assertEquals(DemoRunner.DEFAULT_DB, options.db());
    assertEquals(DemoData.DEFAULT_TRIPS, options.rows());
    assertEquals(DemoData.DEFAULT_TRIPS / 5, options.riders());
    assertEquals(42L, options.seed());
    assertNull(options.scripts());
    assertNull(options.policy());
  }

  @Test
  void valuesInBothSpellings() {
    DemoRunner.Options options =
        DemoRunner.Options.parse(
            new String[] {"--db", "jdbc:h2:mem:x", "--rows=20000", "--seed", "7", "--scripts", "s", "--max-rows=5"});
    assertEquals("h2:mem:x", options.db());
    assertEquals(20_000, options.rows());
    assertEquals(4_000, options.riders());
    assertEquals(7L, options.seed());
    assertEquals(Path.of("s"), options.scripts());
    assertEquals(5, options.maxRows());
    assertNull(DemoRunner.Options.parse(new String[] {"--no-seed"}).seed());
  }

  @Test
  void badArguments() {
    assertThrows(IllegalArgumentException.class, () -> DemoRunner.Options.parse(new String[] {"--rows"}));
    assertThrows(IllegalArgumentException.class, () -> DemoRunner.Options.parse(new String[] {"--rows", "-3"}));
    assertThrows(IllegalArgumentException.class, () -> DemoRunner.Options.parse(new String[] {"--frobnicate"}));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code = DemoRunner.run(new String[] {"--rows", "many"}, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertEquals(2, code);
    assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("usage: DemoRunner"));
  }

  @Test
  void helpPrintsUsage() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    assertEquals(0, DemoRunner.run(new String[] {"--help"}, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("--db <url>"));
    assertTrue(text.contains("--seed <n>"));
  }
}
