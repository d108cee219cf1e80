package org.dpsql.bench;

import java.math.BigDecimal;
import org.dpsql.discrete.Competitors;
import org.dpsql.discrete.DesignObjective;
import org.dpsql.discrete.Neighbourhood;
import org.dpsql.discrete.NoisePmf;
import org.dpsql.discrete.OptimalPmfLibrary;
import org.dpsql.discrete.PdpChecker;

/**
 * The error advantage of the optimal PMFs (seed 000) over the usual noise at equal (ε, δ), for a
 * count with add/remove-one neighbours (M = {1, n}) released modulo n+1: error rate and circular
 * MSE of the engine's certified designs against the two-sided geometric folded modulo n+1 (pure
 * ε-DP) and the discrete Gaussian folded modulo n+1 with the smallest σ² whose exact PDP δ at ε is
 * within the target. Run: {@code java -cp bench/target/benchmarks.jar org.dpsql.bench.OptimalPmfAdvantage}.
 */
public final class OptimalPmfAdvantage {
  private OptimalPmfAdvantage() {}

  public static void main(String[] args) {
    double delta = args.length > 0 ? Double.parseDouble(args[0]) : 0.01;
    System.out.println("Optimal PMF vs folded geometric / folded discrete Gaussian, M = {1, n}, ratios < 1 favour the optimal PMF");
    System.out.printf("%4s %5s | %-27s | %-27s | %-41s%n", "n", "eps", "delta = 0: ER  opt/geo", "delta = 0: MSE opt/geo",
        "delta = " + delta + ": ER opt/geo, opt/DG; MSE opt/DG");
    for (int n : new int[] {7, 15, 63}) {
      Neighbourhood m = Neighbourhood.addRemoveOne(n);
      for (String e : new String[] {"0.1", "0.5", "1", "2"}) {
        double eps = Double.parseDouble(e);
        BigDecimal epsilon = new BigDecimal(e);
        NoisePmf geo = Competitors.wrappedGeometric(n, Math.exp(-eps));
        NoisePmf er0 = OptimalPmfLibrary.design(m, epsilon, BigDecimal.ZERO, DesignObjective.ERROR_RATE);
        NoisePmf mse0 = OptimalPmfLibrary.design(m, epsilon, BigDecimal.ZERO, DesignObjective.CIRCULAR_MSE);
        BigDecimal d = new BigDecimal(Double.toString(delta));
        NoisePmf erD = OptimalPmfLibrary.design(m, epsilon, d, DesignObjective.ERROR_RATE);
        NoisePmf mseD = OptimalPmfLibrary.design(m, epsilon, d, DesignObjective.CIRCULAR_MSE);
        NoisePmf dg = smallestGaussian(n, m, epsilon, d);
        System.out.printf("%4d %5s | ER %.4f / %.4f = %.3f | MSE %8.3f / %8.3f = %.3f | ER %.3f, %.3f; MSE %8.3f / %8.3f = %.3f%n",
            n, e, er0.errorRate(), geo.errorRate(), er0.errorRate() / geo.errorRate(),
            mse0.circularMse(), geo.circularMse(), mse0.circularMse() / geo.circularMse(),
            erD.errorRate() / geo.errorRate(), erD.errorRate() / dg.errorRate(),
            mseD.circularMse(), dg.circularMse(), mseD.circularMse() / dg.circularMse());
      }
    }
  }

  /** The folded discrete Gaussian with the smallest σ² (to 0.1%) that is (ε, δ)-PDP exactly. */
  private static NoisePmf smallestGaussian(int n, Neighbourhood m, BigDecimal eps, BigDecimal delta) {
    double lo = 1e-3;
    double hi = 1e6;
    while (hi / lo > 1.001) {
      double mid = Math.sqrt(lo * hi);
      NoisePmf pmf = Competitors.wrappedDiscreteGaussian(n, mid);
      if (PdpChecker.delta(pmf, m, eps).compareTo(delta) <= 0) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return Competitors.wrappedDiscreteGaussian(n, hi);
  }
}
