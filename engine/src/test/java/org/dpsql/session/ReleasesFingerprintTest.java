package org.dpsql.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.dpsql.policy.PolicyLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The policy fingerprint that keys an analyst's stored releases is the same in every JVM (a server
 * restart must find them: no identity hashes, no per-JVM set or map order), ignores what does not
 * change a release's shape (budgets), and changes with what does (a domain).
 */
class ReleasesFingerprintTest {
  @TempDir Path dir;

  static final String POLICY = "allow_seed: false\n"
      + "budget:\n  accounting: pure\n  per_connection: {epsilon: 2}\n"
      + "  default_query: {epsilon: 0.1}\n"
      + "tables:\n  TRIPS:\n    privacy_unit: RIDER_ID\n    max_rows_per_unit: 5\n"
      + "    columns:\n      REGION: {values: [N, S, E, W]}\n"
      + "      AGE: {min: 18, max: 77, bin: 10}\n      FARE: {clamp: [0, 100]}\n"
      + "    hierarchies:\n      RP: [REGION, AGE]\n"
      + "adaptive_tables:\n  DHC:\n"
      + "    persons: {table: PERSONS, person: PID, sex: SEX, age: AGE}\n"
      + "    iterations: {table: PERSON_ITERATION, person: PID, iteration: ITERATION}\n"
      + "    mechanism: geometric\n    gamma: 0.1\n    thresholds: [50, 500, 5000]\n"
      + "    sexes: [M, F]\n    ages: {max: 115, bins: census}\n    levels:\n"
      + "      NATION: {iterations: &its [A1, A2, A3, A4, A5, A6, A7, A8], "
      + "total_only: [A8, A3, A5, A1, A7, A2], budget: {epsilon: 1}, stability: 2}\n"
      + "      STATE: {geography: STATE, geographies: [S1, S2, S3], iterations: *its, "
      + "total_only: [A6, A4, A2, A8], budget: {epsilon: 1}, stability: 2}\n";

  /** Child JVM: prints the fingerprint of the policy text in file {@code args[0]}. */
  public static void main(String[] args) throws Exception {
    String text = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8);
    System.out.println(Releases.fingerprint(PolicyLoader.parse(text, args[0])));
  }

  private static String fingerprint(String text) throws Exception {
    return Releases.fingerprint(PolicyLoader.parse(text, "test.yaml"));
  }

  @Test
  void theSamePolicyHasTheSameFingerprintInAnotherJvm() throws Exception {
    Path file = dir.resolve("policy.yaml");
    Files.writeString(file, POLICY);
    String here = fingerprint(POLICY);
    for (int run = 0; run < 2; run++) {
      Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
          .toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
          System.getProperty("java.class.path"), ReleasesFingerprintTest.class.getName(),
          file.toString())
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String there = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
          .strip();
      child.waitFor(60, TimeUnit.SECONDS);
      assertEquals(here, there, "run " + run);
    }
  }

  @Test
  void budgetsDoNotChangeItAndDomainsDo() throws Exception {
    String base = fingerprint(POLICY);
    assertEquals(base, fingerprint(POLICY.replace("per_connection: {epsilon: 2}",
        "per_connection: {epsilon: 5}")));
    assertNotEquals(base, fingerprint(POLICY.replace("max: 77", "max: 87")));
    assertNotEquals(base, fingerprint(POLICY.replace("gamma: 0.1", "gamma: 0.2")));
  }
}
