package org.dpsql.discrete;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Optimal joint noise PMFs for vector queries (spec §2.6, paper Remark 4): the answer is a
 * {@code k}-tuple in {@code [n]^k}, the noise {@code (eta_1..eta_k)} is added component-wise
 * modulo {@code n+1}, and the neighbourhood is a set of vector differences {@code mu in [n]^k}
 * (not all zero). The {@code delta = 0} design is the LP (eq. 14) on the {@code (n+1)^k} joint
 * masses: {@code f(eta) <= e^eps f(eta + mu)} component-wise modulo. The optimum is in general
 * <em>not</em> a product of per-coordinate PMFs.
 *
 * <p>Layout: flattened row-major, index {@code sum_i eta_i (n+1)^{k-1-i}} (the last coordinate
 * varies fastest; for {@code k = 2}, {@code joint[eta_1 * (n+1) + eta_2]}).
 *
 * <p>Costs: {@link DesignObjective#ERROR_RATE} is {@code 1[eta != 0]} (the vector is released
 * wrong; {@code 1 - f(0,..,0)}), the MSE objectives are the sum over coordinates of the scalar cost
 * (squared Euclidean error, circular or not).
 *
 * <p>Size (P15): at most {@value #MAX_JOINT_POINTS} joint masses. The same safeguards as {@link
 * PmfDesigner} apply (eps in [1e-4, 50], eps margin, repair, verification in doubles); the engine
 * re-verifies every PMF with the exact checker.
 */
public final class VectorDesigner {
  /** Largest accepted number of joint masses {@code (n+1)^k}. */
  public static final int MAX_JOINT_POINTS = 4_096;

  private VectorDesigner() {}

  /**
   * Optimal {@code (eps, 0)}-PDP joint noise PMF.
   *
   * @param n each coordinate lives in {@code [0..n]}, {@code n >= 1}
   * @param k number of coordinates, {@code k >= 1}
   * @param differences vector differences, each of length {@code k}; components are reduced
   *     modulo {@code n+1}; a difference that is zero in every component is rejected
   * @param eps privacy parameter in {@code [1e-4, 50]}
   * @param objective the cost (see class doc)
   * @return the joint PMF, flattened row-major, non-negative, summing to 1
   */
  public static double[] lp(
      int n, int k, List<int[]> differences, double eps, DesignObjective objective) {
    int size = checkShape(n, k);
    Objects.requireNonNull(differences, "differences");
    Objects.requireNonNull(objective, "objective");
    PmfDesigner.checkEps(eps);
    if (differences.isEmpty()) {
      throw new IllegalArgumentException("differences must not be empty");
    }
    int base = n + 1;
    List<int[]> mus = new ArrayList<>();
    for (int[] mu : differences) {
      if (mu == null || mu.length != k) {
        throw new IllegalArgumentException(
            "every difference must have length k = " + k + ": " + Arrays.toString(mu));
      }
      int[] r = new int[k];
      boolean zero = true;
      for (int i = 0; i < k; i++) {
        r[i] = Math.floorMod(mu[i], base);
        zero &= r[i] == 0;
      }
      if (zero) {
        throw new IllegalArgumentException(
            "a difference must be non-zero modulo n+1: " + Arrays.toString(mu));
      }
      boolean dup = false;
      for (int[] seen : mus) {
        dup |= Arrays.equals(seen, r);
      }
      if (!dup) {
        mus.add(r);
      }
    }
    PmfDesigner.checkLpSize(size, mus.size());
    int[][] succ = new int[mus.size()][size];
    int[] eta = new int[k];
    for (int idx = 0; idx < size; idx++) {
      decode(idx, base, eta);
      for (int m = 0; m < mus.size(); m++) {
        int[] mu = mus.get(m);
        int j = 0;
        for (int i = 0; i < k; i++) {
          j = j * base + (eta[i] + mu[i]) % base;
        }
        succ[m][idx] = j;
      }
    }
    double[] cost = new double[size];
    for (int idx = 0; idx < size; idx++) {
      decode(idx, base, eta);
      if (objective == DesignObjective.ERROR_RATE) {
        cost[idx] = idx == 0 ? 0.0 : 1.0;
      } else {
        double c = 0.0;
        for (int i = 0; i < k; i++) {
          c += objective.cost(eta[i], n);
        }
        cost[idx] = c;
      }
    }
    return PmfDesigner.designMinCost(succ, cost, eps, 0.0, null);
  }

  /**
   * The marginal PMF of coordinate {@code axis} of a row-major joint PMF over {@code [n]^k}.
   *
   * @return {@code n+1} masses
   */
  public static double[] marginal(double[] joint, int n, int k, int axis) {
    int size = checkShape(n, k);
    Objects.requireNonNull(joint, "joint");
    if (joint.length != size) {
      throw new IllegalArgumentException(
          "joint has " + joint.length + " masses, expected (n+1)^k = " + size);
    }
    if (axis < 0 || axis >= k) {
      throw new IllegalArgumentException("axis must be in [0, " + (k - 1) + "], got " + axis);
    }
    int base = n + 1;
    double[] out = new double[base];
    int[] eta = new int[k];
    for (int idx = 0; idx < size; idx++) {
      decode(idx, base, eta);
      out[eta[axis]] += joint[idx];
    }
    return out;
  }

  /** Row-major flat index of {@code eta} in {@code [n]^k} ({@code k = eta.length}). */
  public static int index(int n, int... eta) {
    Objects.requireNonNull(eta, "eta");
    int base = n + 1;
    int j = 0;
    for (int v : eta) {
      if (v < 0 || v > n) {
        throw new IllegalArgumentException("coordinate out of [0, " + n + "]: " + v);
      }
      j = j * base + v;
    }
    return j;
  }

  private static int checkShape(int n, int k) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1, got " + n);
    }
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1, got " + k);
    }
    long size = 1;
    for (int i = 0; i < k; i++) {
      size *= n + 1;
      if (size > MAX_JOINT_POINTS) {
        throw new IllegalArgumentException(
            "(n+1)^k = "
                + (n + 1)
                + "^"
                + k
                + " exceeds "
                + MAX_JOINT_POINTS
                + " joint masses (P15)");
      }
    }
    return (int) size;
  }

  private static void decode(int idx, int base, int[] eta) {
    for (int i = eta.length - 1; i >= 0; i--) {
      eta[i] = idx % base;
      idx /= base;
    }
  }
}
