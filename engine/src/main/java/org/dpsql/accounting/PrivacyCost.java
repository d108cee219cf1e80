package org.dpsql.accounting;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An immutable privacy cost or budget, held exactly as {@link BigDecimal}s.
 *
 * <p>Guarantees: every instance has non-null components with ε ≥ 0, 0 ≤ δ &lt; 1 and ρ ≥ 0;
 * components an accounting does not use are {@link BigDecimal#ZERO}. Arithmetic ({@link #plus},
 * {@link #minus}) is exact. Equality is numerical: {@code 0.1} equals {@code 0.10}.
 *
 * @param epsilon ε, used by {@link Accounting#PURE} and {@link Accounting#APPROX}
 * @param delta δ, used by {@link Accounting#APPROX}
 * @param rho ρ, used by {@link Accounting#ZCDP}
 */
public record PrivacyCost(BigDecimal epsilon, BigDecimal delta, BigDecimal rho)
    implements Serializable {

  private static final long serialVersionUID = 1L;

  /** The zero cost: nothing spent. */
  public static final PrivacyCost ZERO =
      new PrivacyCost(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO);

  /**
   * Validates the components.
   *
   * @throws NullPointerException if a component is null
   * @throws IllegalArgumentException if a component is negative or δ ≥ 1
   */
  public PrivacyCost {
    Objects.requireNonNull(epsilon, "epsilon");
    Objects.requireNonNull(delta, "delta");
    Objects.requireNonNull(rho, "rho");
    if (epsilon.signum() < 0) {
      throw new IllegalArgumentException("epsilon must be >= 0, got " + epsilon.toPlainString());
    }
    if (delta.signum() < 0) {
      throw new IllegalArgumentException("delta must be >= 0, got " + delta.toPlainString());
    }
    if (delta.compareTo(BigDecimal.ONE) >= 0) {
      throw new IllegalArgumentException("delta must be < 1, got " + delta.toPlainString());
    }
    if (rho.signum() < 0) {
      throw new IllegalArgumentException("rho must be >= 0, got " + rho.toPlainString());
    }
  }

  /** An ε-DP cost (δ = ρ = 0). */
  public static PrivacyCost pure(BigDecimal epsilon) {
    return new PrivacyCost(epsilon, BigDecimal.ZERO, BigDecimal.ZERO);
  }

  /** An (ε,δ)-DP cost (ρ = 0). */
  public static PrivacyCost approx(BigDecimal epsilon, BigDecimal delta) {
    return new PrivacyCost(epsilon, delta, BigDecimal.ZERO);
  }

  /** A ρ-zCDP cost (ε = δ = 0). */
  public static PrivacyCost zcdp(BigDecimal rho) {
    return new PrivacyCost(BigDecimal.ZERO, BigDecimal.ZERO, rho);
  }

  /**
   * The exact component-wise sum.
   *
   * @throws IllegalArgumentException if the summed δ would reach 1
   */
  public PrivacyCost plus(PrivacyCost other) {
    Objects.requireNonNull(other, "other");
    return new PrivacyCost(
        epsilon.add(other.epsilon), delta.add(other.delta), rho.add(other.rho));
  }

  /**
   * The exact component-wise difference {@code this − other}.
   *
   * @throws IllegalArgumentException if any component of the result would be negative
   */
  public PrivacyCost minus(PrivacyCost other) {
    Objects.requireNonNull(other, "other");
    return new PrivacyCost(
        epsilon.subtract(other.epsilon), delta.subtract(other.delta), rho.subtract(other.rho));
  }

  /** Whether every component is zero. */
  public boolean isZero() {
    return epsilon.signum() == 0 && delta.signum() == 0 && rho.signum() == 0;
  }

  /** Numerical equality of every component (scale is ignored: {@code 0.1} equals {@code 0.10}). */
  @Override
  public boolean equals(Object o) {
    return o instanceof PrivacyCost c
        && epsilon.compareTo(c.epsilon) == 0
        && delta.compareTo(c.delta) == 0
        && rho.compareTo(c.rho) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        epsilon.stripTrailingZeros(), delta.stripTrailingZeros(), rho.stripTrailingZeros());
  }

  /**
   * The non-zero components, e.g. {@code "ε=0.1"}, {@code "ε=0.1, δ=1e-7"}, {@code "ρ=0.05"};
   * {@code "0"} for {@link #ZERO}.
   */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>(3);
    if (epsilon.signum() != 0) {
      parts.add("ε=" + format(epsilon));
    }
    if (delta.signum() != 0) {
      parts.add("δ=" + format(delta));
    }
    if (rho.signum() != 0) {
      parts.add("ρ=" + format(rho));
    }
    return parts.isEmpty() ? "0" : String.join(", ", parts);
  }

  /**
   * Formats a non-negative value for humans: plain notation ({@code 0.1}, {@code 5}) unless it is
   * very small or very large, then {@code 1e-7}/{@code 2.5e-10} style. Exact: no digits are lost.
   */
  public static String format(BigDecimal value) {
    if (value.signum() == 0) {
      return "0";
    }
    BigDecimal v = value.stripTrailingZeros();
    int exponent = v.precision() - v.scale() - 1; // position of the leading digit
    if (exponent < -4 || exponent > 15) {
      return v.movePointLeft(exponent).toPlainString() + "e" + exponent;
    }
    return v.toPlainString();
  }
}
