package org.dpsql;

/**
 * The size of the long-running tests. The default build runs a short version of each (fewer
 * samples, statements, kills or rows: the same checks, with less statistical power or fewer
 * repetitions); {@code mvn -B verify -Plong} (what {@code .ci/run} runs) sets the system property
 * {@code dpsql.long=true} and runs the long version.
 */
public final class TestScale {
  private TestScale() {}

  /** Whether the long versions run ({@code -Plong}, or {@code -Ddpsql.long=true}). */
  public static boolean isLong() {
    return Boolean.getBoolean("dpsql.long");
  }

  /** {@code shortValue} in the default build, {@code longValue} under {@code -Plong}. */
  public static int pick(int shortValue, int longValue) {
    return isLong() ? longValue : shortValue;
  }
}
