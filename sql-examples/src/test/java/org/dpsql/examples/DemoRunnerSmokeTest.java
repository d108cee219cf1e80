package org.dpsql.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The whole demo through the real dpsql driver, on a small data set. */
class DemoRunnerSmokeTest {

  @Test
  void demoRunsAsScripted() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    int code =
        DemoRunner.run(
            new String[] {"--db", "h2:mem:dpsql-smoke;DB_CLOSE_DELAY=-1", "--rows", "20000"}, out);
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, text);
    assertTrue(text.contains("refused [XDP02]"), text);
    assertTrue(text.contains("BUDGET"), text);
    assertTrue(text.contains("every statement behaved as its script says."), text);
  }
}
