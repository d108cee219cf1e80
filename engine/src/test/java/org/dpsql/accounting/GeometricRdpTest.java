package org.dpsql.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The exact Rényi curve of the geometric (discrete Laplace) mechanism. */
class GeometricRdpTest {

  /**
   * D_α(L_ℤ(b) ‖ L_ℤ(b) + k) by direct summation over the integers, written without cancellation:
   * Σ_x p(x)^α q(x)^{1−α} = 1 + Σ_x p(x)·expm1((α−1)·L(x)) with the privacy loss L(x) = ln
   * p(x)/q(x) = t(|x−k| − |x|).
   */
  static double bruteForce(double alpha, double t, long k) {
    double c = Math.tanh(t / 2); // normaliser (1 − e^{−t})/(1 + e^{−t})
    int range = (int) Math.ceil(80 / t) + 4 * (int) Math.abs(k) + 100; // tail terms < e^{−80}
    if ((alpha - 1) * t * Math.abs(k) < 1) { // small divergence: the cancellation-free form
      double s = 0;
      for (int x = -range; x <= range; x++) {
        double loss = t * (Math.abs(x - k) - Math.abs(x));
        s += c * Math.exp(-Math.abs(x) * t) * Math.expm1((alpha - 1) * loss);
      }
      return Math.log1p(s) / (alpha - 1);
    }
    // large divergence: log-sum-exp of ln p(x) + (α−1) L(x)
    double max = Double.NEGATIVE_INFINITY;
    double[] terms = new double[2 * range + 1];
    for (int x = -range; x <= range; x++) {
      double loss = t * (Math.abs(x - k) - Math.abs(x));
      terms[x + range] = Math.log(c) - Math.abs(x) * t + (alpha - 1) * loss;
      max = Math.max(max, terms[x + range]);
    }
    double sum = 0;
    for (double v : terms) {
      sum += Math.exp(v - max);
    }
    return (max + Math.log(sum)) / (alpha - 1);
  }

  /** The paper's eq. 17 (integral of the pmf over ℝ), for comparison only. */
  static double paperEquation17(double alpha, double eps) {
    return Math.log(
            (Math.exp(eps) - 1)
                / (Math.exp(eps) + 1)
                * (2 * alpha / (eps * (2 * alpha - 1)) * Math.exp((alpha - 1) * eps)
                    + 2 * (alpha - 1) / (eps * (2 * alpha - 1)) * Math.exp(-alpha * eps)))
        / (alpha - 1);
  }

  @Test
  void closedFormEqualsSummationOverTheIntegers() {
    double maxRel = 0;
    for (double t : new double[] {0.005, 0.0474, 0.427, 1, 3}) {
      for (double alpha : new double[] {1.01, 1.5, 2, 4.9, 7.36, 50, 1000}) {
        for (long k : new long[] {1, 2, 3, 7}) {
          double exact = new GeometricRdp(t, k).epsilon(alpha);
          double brute = bruteForce(alpha, t, k);
          double rel = Math.abs(exact - brute) / brute;
          maxRel = Math.max(maxRel, rel);
          assertEquals(
              brute, exact, 1e-9 * brute + 1e-13, "t=" + t + " alpha=" + alpha + " k=" + k);
        }
      }
    }
    System.out.printf("GeometricRdp: max relative deviation from brute-force sum = %.2e%n", maxRel);
  }

  @Test
  void curveIsTheWorstShiftAndBelowPureAndZcdpBounds() {
    for (double t : new double[] {0.01, 0.3, 2}) {
      for (double alpha : new double[] {1.1, 3, 20, 500}) {
        for (long k = 1; k <= 4; k++) {
          double curve = new GeometricRdp(t, k).epsilon(alpha);
          for (long j = 1; j <= k; j++) { // smaller shifts, both signs (symmetric distribution)
            assertTrue(bruteForce(alpha, t, j) <= curve * (1 + 1e-9));
            assertTrue(bruteForce(alpha, t, -j) <= curve * (1 + 1e-9));
          }
          double pure = k * t;
          assertTrue(curve <= pure * (1 + 1e-12), "RDP <= pure epsilon");
          assertTrue(curve <= alpha * pure * pure / 2 * (1 + 1e-12), "RDP <= alpha eps^2/2 (zCDP)");
        }
      }
    }
  }

  @Test
  void paperEquation17UnderstatesTheDiscreteDivergence() {
    // The paper integrates the pmf over the reals; the true divergence sums over the integers.
    double t = 0.427;
    double alpha = 7.36;
    double exact = GeometricRdp.ofEpsilon(t).epsilon(alpha);
    double paper = paperEquation17(alpha, t);
    System.out.printf("t=0.427 alpha=7.36: exact %.4f, paper eq.17 %.4f%n", exact, paper);
    assertEquals(0.3485, exact, 5e-5);
    assertEquals(0.3271, paper, 5e-5);
    for (double e : new double[] {0.01, 0.1, 1, 3}) {
      for (double a : new double[] {1.5, 4, 10}) {
        assertTrue(paperEquation17(a, e) < GeometricRdp.ofEpsilon(e).epsilon(a));
      }
    }
  }

  @Test
  void rejectsInvalidParameters() {
    assertThrows(IllegalArgumentException.class, () -> new GeometricRdp(0, 1));
    assertThrows(IllegalArgumentException.class, () -> new GeometricRdp(1, 0));
    assertThrows(IllegalArgumentException.class, () -> GeometricRdp.ofEpsilon(1).epsilon(1.0));
    assertThrows(
        IllegalArgumentException.class, () -> GeometricRdp.ofEpsilon(1).epsilon(Double.NaN));
  }
}
