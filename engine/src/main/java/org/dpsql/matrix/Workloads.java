package org.dpsql.matrix;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Factories for the named workload families of seed 001 (spec §2.11) over multi-attribute domains. */
public final class Workloads {
  private Workloads() {}

  /**
   * The marginal on the attributes in {@code subset} (indices into {@code dims}): one query per value
   * combination of those attributes, summing over the others; {@code ⊗ₐ (I if a ∈ S else 1ᵀ)}.
   */
  public static Workload marginal(int[] dims, int... subset) {
    return product(dims, subset, false);
  }

  /**
   * The range-marginal on {@code subset}: all ranges over each attribute of the subset, summed over
   * the others; {@code ⊗ₐ (AllRanges if a ∈ S else 1ᵀ)}.
   */
  public static Workload rangeMarginal(int[] dims, int... subset) {
    return product(dims, subset, true);
  }

  /** All {@code k}-way marginals of {@code dims}: the union over every {@code k}-subset. */
  public static Workload marginals(int[] dims, int k) {
    List<Workload> parts = new ArrayList<>();
    for (int[] s : subsets(dims.length, k)) {
      parts.add(marginal(dims, s));
    }
    return parts.size() == 1 ? parts.get(0) : new UnionWorkload(parts);
  }

  /** All {@code k}-way range-marginals of {@code dims}. */
  public static Workload rangeMarginals(int[] dims, int k) {
    List<Workload> parts = new ArrayList<>();
    for (int[] s : subsets(dims.length, k)) {
      parts.add(rangeMarginal(dims, s));
    }
    return parts.size() == 1 ? parts.get(0) : new UnionWorkload(parts);
  }

  /**
   * {@code m} predicate queries with i.i.d. Bernoulli(1/2) 0/1 coefficients over {@code n} cells,
   * from a seeded generator (the "uniformly sampled predicate queries" of Table 2).
   */
  public static Workload randomPredicates(int m, int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[][] w = new double[m][n];
    for (double[] row : w) {
      for (int j = 0; j < n; j++) {
        row[j] = r.nextBoolean() ? 1 : 0;
      }
    }
    return new ExplicitWorkload(w);
  }

  private static Workload product(int[] dims, int[] subset, boolean ranges) {
    boolean[] in = new boolean[dims.length];
    for (int a : subset) {
      if (a < 0 || a >= dims.length || in[a]) {
        throw new IllegalArgumentException("bad attribute subset " + java.util.Arrays.toString(subset));
      }
      in[a] = true;
    }
    List<Workload> f = new ArrayList<>();
    for (int a = 0; a < dims.length; a++) {
      if (in[a]) {
        f.add(ranges ? new AllRangesWorkload(dims[a]) : new IdentityWorkload(dims[a]));
      } else {
        f.add(new TotalWorkload(dims[a]));
      }
    }
    return f.size() == 1 ? f.get(0) : new KroneckerWorkload(f);
  }

  /** All {@code k}-subsets of {@code {0..d-1}} in lexicographic order. */
  public static List<int[]> subsets(int d, int k) {
    if (k < 0 || k > d) {
      throw new IllegalArgumentException("no " + k + "-way subsets of " + d + " attributes");
    }
    List<int[]> out = new ArrayList<>();
    int[] s = new int[k];
    for (int i = 0; i < k; i++) {
      s[i] = i;
    }
    while (true) {
      out.add(s.clone());
      int i = k - 1;
      while (i >= 0 && s[i] == d - k + i) {
        i--;
      }
      if (i < 0) {
        return out;
      }
      s[i]++;
      for (int j = i + 1; j < k; j++) {
        s[j] = s[j - 1] + 1;
      }
    }
  }
}
