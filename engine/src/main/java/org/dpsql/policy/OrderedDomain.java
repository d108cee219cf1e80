package org.dpsql.policy;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * An ordered public domain {@code [min, max]} of a numeric column split into cells of width
 * {@code bin}: cell {@code i} holds the values {@code v} with {@code floor((v - min) / bin) = i},
 * and there are {@code floor((max - min) / bin) + 1} cells.
 *
 * <p>Guarantees: {@code min < max}, {@code bin > 0}, all three exact decimals from the policy, and
 * the number of cells is at most {@link #MAX_CELLS}.
 */
public record OrderedDomain(BigDecimal min, BigDecimal max, BigDecimal bin) {
  /** The largest number of cells a domain may have. */
  public static final int MAX_CELLS = 10_000_000;

  /** Checks the invariants; the loader reports friendlier messages before this can fail. */
  public OrderedDomain {
    Objects.requireNonNull(min, "min");
    Objects.requireNonNull(max, "max");
    Objects.requireNonNull(bin, "bin");
    if (bin.signum() <= 0) {
      throw new IllegalArgumentException("bin must be > 0, got " + bin);
    }
    if (min.compareTo(max) >= 0) {
      throw new IllegalArgumentException("min " + min + " must be < max " + max);
    }
    BigDecimal cells = cellCount(min, max, bin);
    if (cells.compareTo(BigDecimal.valueOf(MAX_CELLS)) > 0) {
      throw new IllegalArgumentException(
          "domain has " + cells.toPlainString() + " cells, more than " + MAX_CELLS);
    }
  }

  /** {@code floor((max - min) / bin) + 1}, exactly, for any arguments with {@code bin > 0}. */
  static BigDecimal cellCount(BigDecimal min, BigDecimal max, BigDecimal bin) {
    return max.subtract(min).divideToIntegralValue(bin).add(BigDecimal.ONE);
  }

  /** The number of cells: {@code floor((max - min) / bin) + 1}. */
  public int cells() {
    return cellCount(min, max, bin).intValueExact();
  }

  /**
   * The smallest value in cell {@code cell}: {@code min + cell * bin}.
   *
   * @throws IndexOutOfBoundsException if {@code cell} is not in {@code [0, cells())}
   */
  public BigDecimal lowerEdge(int cell) {
    BigDecimal edge = min.add(bin.multiply(BigDecimal.valueOf(cell)));
    // cell < cells()  <=>  cell * bin <= max - min  <=>  edge <= max (for integer cell >= 0)
    if (cell < 0 || edge.compareTo(max) > 0) {
      throw new IndexOutOfBoundsException("cell " + cell + " out of [0, " + cells() + ")");
    }
    return edge;
  }

  /**
   * The cell holding {@code v}, {@code floor((v - min) / bin)}, or -1 when {@code v} lies outside
   * {@code [min, max]}.
   */
  public int cellOf(BigDecimal v) {
    if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
      return -1;
    }
    return v.subtract(min).divide(bin, 0, RoundingMode.FLOOR).intValueExact();
  }
}
