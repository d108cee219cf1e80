package org.dpsql.hierarchy;

import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Generator of the paper's synthetic O/D data sets (Section 5, Table 1) and of larger ones for the
 * benchmarks. Deterministic for a given seed ({@link SplittableRandom}: test data, not noise).
 *
 * <p><b>Partitions.</b> {@link Partition#BINARY}: 8 levels, every area split in 2 (256 finest areas,
 * 65,536 O/D pairs, destination tree of depth 16). {@link Partition#RANDOM}: 4 levels, every area
 * split into {@code k ~ U{2..10}} areas, independently; the paper's 189,225 O/D pairs are 435²,
 * so the partition used is the first seed {@code s = 0, 1, 2, ...} of {@link
 * #randomPartition(int, int, int, long)} with exactly 435 finest areas (found at run time).
 *
 * <p><b>Flows.</b> The non-empty O/D pairs are a uniformly random subset of the finest pairs (all
 * of them for the complete sets), of exactly the size of Table 1. Each gets a flow {@code 1 + (X −
 * 1)·κ} with {@code X} continuous Pareto ({@code P(x) ∝ x^{−2.5}} for {@code x >= 1}, shape {@code
 * α = 1.5} — the paper's exponent is truncated in its text, this is our choice), {@code κ} chosen
 * so the flows sum to the number of users of Table 1, then rounded to integers by largest
 * remainders (so the total is exact and every flow is {@code >= 1}). A scaled Pareto is Pareto, so
 * this keeps the heavy tail while matching the published totals exactly.
 *
 * <table>
 *   <caption>Table 1 of the paper, reproduced exactly</caption>
 *   <tr><th>data set</th><th>users</th><th>non-empty O/D pairs</th></tr>
 *   <tr><td>binary complete</td><td>1,051,271</td><td>65,536</td></tr>
 *   <tr><td>binary dense</td><td>734,688</td><td>32,768</td></tr>
 *   <tr><td>binary sparse</td><td>23,302</td><td>655</td></tr>
 *   <tr><td>random complete</td><td>2,019,580</td><td>189,225</td></tr>
 *   <tr><td>random dense</td><td>1,003,943</td><td>95,612 (the paper's count; 50.5%)</td></tr>
 *   <tr><td>random sparse</td><td>67,840</td><td>1,892</td></tr>
 * </table>
 */
public final class SyntheticOdData {
  /** Pareto shape {@code α} of the flows ({@code P(x) ∝ x^{−(α+1)}}). */
  public static final double PARETO_SHAPE = 1.5;
  /** Number of finest areas of the paper's random partition ({@code 435² = 189,225}). */
  public static final int RANDOM_PARTITION_LEAVES = 435;

  private static final long FLOW_SEED = 20250131L;

  private SyntheticOdData() {}

  /** The two partitions of the paper. */
  public enum Partition {
    BINARY,
    RANDOM
  }

  /** The three densities of the paper. */
  public enum Density {
    COMPLETE,
    DENSE,
    SPARSE
  }

  /**
   * A generated O/D data set: its destination tree and true counts.
   *
   * @param name e.g. {@code "random sparse"}
   * @param domain the destination tree of the partition with itself
   * @param counts the true tree (leaf flows aggregated)
   */
  public record Dataset(String name, OdTreeDomain domain, HierarchicalCounts counts) {
    /** Number of users (= trips, one per user): the root count. */
    public long users() {
      return counts.total();
    }

    /** Number of non-empty finest O/D pairs. */
    public long pairs() {
      return counts.level(counts.depth()).size();
    }
  }

  /** One of the six data sets of Table 1 (destination tree). */
  public static Dataset table1(Partition partition, Density density) {
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(density, "density");
    Hierarchy areas =
        partition == Partition.BINARY ? binaryPartition(8) : table1RandomPartition();
    OdTreeDomain domain = OdTreeDomain.destinationTree(areas);
    long users;
    long pairs;
    if (partition == Partition.BINARY) {
      users = density == Density.COMPLETE ? 1_051_271 : density == Density.DENSE ? 734_688 : 23_302;
      pairs = density == Density.COMPLETE ? 65_536 : density == Density.DENSE ? 32_768 : 655;
    } else {
      users = density == Density.COMPLETE ? 2_019_580 : density == Density.DENSE ? 1_003_943 : 67_840;
      pairs = density == Density.COMPLETE ? 189_225 : density == Density.DENSE ? 95_612 : 1_892;
    }
    long seed = FLOW_SEED + 10L * partition.ordinal() + density.ordinal();
    HierarchicalCounts counts = paretoFlows(domain, pairs, users, PARETO_SHAPE, seed);
    String name =
        partition.name().toLowerCase(java.util.Locale.ROOT) + " "
            + density.name().toLowerCase(java.util.Locale.ROOT);
    return new Dataset(name, domain, counts);
  }

  /** The binary partition with {@code levels} levels ({@code 2^levels} finest areas). */
  public static Hierarchy binaryPartition(int levels) {
    if (levels < 1) {
      throw new IllegalArgumentException("levels must be >= 1: " + levels);
    }
    int[] f = new int[levels];
    java.util.Arrays.fill(f, 2);
    return Hierarchy.uniform(f);
  }

  /**
   * A random partition: {@code levels} levels, every area split into {@code k} areas with {@code k}
   * uniform on {@code {minK..maxK}}, independently (drawn level by level, node by node).
   */
  public static Hierarchy randomPartition(int levels, int minK, int maxK, long seed) {
    if (levels < 1 || minK < 1 || maxK < minK) {
      throw new IllegalArgumentException(
          "need levels >= 1 and 1 <= minK <= maxK: " + levels + ", " + minK + ", " + maxK);
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    int[][] fanOuts = new int[levels][];
    int size = 1;
    for (int l = 0; l < levels; l++) {
      fanOuts[l] = new int[size];
      long next = 0;
      for (int i = 0; i < size; i++) {
        fanOuts[l][i] = minK + rnd.nextInt(maxK - minK + 1);
        next += fanOuts[l][i];
      }
      if (next > 50_000_000) {
        throw new IllegalArgumentException("partition too large");
      }
      size = (int) next;
    }
    return Hierarchy.ofFanOuts(fanOuts);
  }

  /** The random partition of Table 1: the first seed with exactly 435 finest areas. */
  public static Hierarchy table1RandomPartition() {
    for (long seed = 0; ; seed++) {
      Hierarchy h = randomPartition(4, 2, 10, seed);
      if (h.size(4) == RANDOM_PARTITION_LEAVES) {
        return h;
      }
    }
  }

  /**
   * Pareto flows on {@code pairs} uniformly chosen leaves of {@code domain}, summing to {@code
   * users} exactly, every flow {@code >= 1} (see the class comment).
   *
   * @throws IllegalArgumentException if {@code pairs} is not in {@code [1, leaves]} or {@code users
   *     < pairs}
   */
  public static HierarchicalCounts paretoFlows(
      TreeDomain domain, long pairs, long users, double shape, long seed) {
    Objects.requireNonNull(domain, "domain");
    long leaves = domain.levelSize(domain.depth());
    if (pairs < 1 || pairs > leaves || pairs > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("pairs must be in [1, " + leaves + "]: " + pairs);
    }
    if (users < pairs) {
      throw new IllegalArgumentException("need at least one user per pair: " + users + " < " + pairs);
    }
    if (!(shape > 0)) {
      throw new IllegalArgumentException("shape must be positive: " + shape);
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    int n = (int) pairs;
    long[] ids = new long[n];
    // Selection sampling (Knuth, Algorithm S): a uniform n-subset, in increasing order.
    int chosen = 0;
    for (long leaf = 0; leaf < leaves && chosen < n; leaf++) {
      if ((leaves - leaf) * rnd.nextDouble() < n - chosen) {
        ids[chosen++] = leaf;
      }
    }
    double[] excess = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      double u = 1.0 - rnd.nextDouble(); // (0, 1]
      excess[i] = Math.pow(u, -1.0 / shape) - 1.0; // X − 1 >= 0
      sum += excess[i];
    }
    long extra = users - pairs; // to distribute on top of the minimum flow 1
    double kappa = sum > 0 ? extra / sum : 0;
    long[] flows = new long[n];
    double[] frac = new double[n];
    long assigned = 0;
    for (int i = 0; i < n; i++) {
      double v = excess[i] * kappa;
      long f = (long) Math.floor(v);
      flows[i] = 1 + f;
      frac[i] = v - f;
      assigned += f;
    }
    long remainder = extra - assigned; // in [0, n) up to rounding; distribute by largest remainder
    if (remainder > 0) {
      Integer[] order = new Integer[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      java.util.Arrays.sort(order, (a, b) -> Double.compare(frac[b], frac[a]));
      for (int k = 0; remainder > 0; k = (k + 1) % n) {
        flows[order[k]]++;
        remainder--;
      }
    } else if (remainder < 0) {
      // floating error made the floors overshoot: take it back from the largest flows
      for (int k = 0; remainder < 0; k = (k + 1) % n) {
        int i = argMax(flows);
        flows[i]--;
        remainder++;
      }
    }
    return HierarchicalCounts.fromLeafCounts(domain, ids, flows);
  }

  private static int argMax(long[] v) {
    int best = 0;
    for (int i = 1; i < v.length; i++) {
      if (v[i] > v[best]) {
        best = i;
      }
    }
    return best;
  }
}
