package org.dpsql.matrix;

/** Fixed inputs from the seed papers, shared by the tests of the matrix packages. */
public final class PaperExamples {
  private PaperExamples() {}

  /**
   * Seed 001 Fig. 1(b), rows q1..q8 over 8 cells (the matrix is authoritative, spec pitfall P1):
   * rank 4, {@code ||W||₂ = √5}, svdb {@code 7.5 + √221/2}.
   */
  public static double[][] figure1b() {
    return new double[][] {
      {1, 1, 1, 1, 1, 1, 1, 1},
      {1, 1, 1, 1, 0, 0, 0, 0},
      {0, 0, 0, 0, 1, 1, 1, 1},
      {1, 1, 0, 0, 1, 1, 0, 0},
      {0, 0, 1, 1, 0, 0, 1, 1},
      {0, 0, 0, 0, 0, 0, 1, 1},
      {1, 1, 0, 0, 0, 0, 0, 0},
      {1, 1, 1, 1, -1, -1, -1, -1}
    };
  }
}
