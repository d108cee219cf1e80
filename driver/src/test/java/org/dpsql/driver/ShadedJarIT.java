package org.dpsql.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The shaded jar works alone: a fresh JVM with only that jar (and the probe) on its class path. */
class ShadedJarIT {
  @Test
  void theDriverJarAloneAnswersPrivateQueries() throws Exception {
    Path jar = Path.of("target", "dpsql-driver.jar");
    assertTrue(jar.toFile().isFile(), "run after package: " + jar.toAbsolutePath());
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = jar.toAbsolutePath() + File.pathSeparator + Path.of("target", "test-classes").toAbsolutePath();
    Process p = new ProcessBuilder(java, "-cp", cp, ShadedJarProbe.class.getName())
        .redirectErrorStream(true).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "probe timed out");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    List<String> lines = out.lines().toList();
    assertEquals(3, lines.stream().filter(l -> l.startsWith("row ")).count(), out);
    assertTrue(lines.contains("spent 0.1"), out);
    assertTrue(lines.contains("refused XDP02"), out);
    assertTrue(lines.contains("driver org.dpsql.jdbc.DpsqlDriver"), out);
    assertTrue(out.lines().noneMatch(l -> l.contains("SLF4J")), "no logging noise: " + out);
  }
}
