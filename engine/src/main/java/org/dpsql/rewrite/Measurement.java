package org.dpsql.rewrite;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.dpsql.policy.Clamp;
import org.dpsql.policy.ColumnPolicy;

/**
 * One exact vector the backend computes per cell, before noise: a row count, a non-null count of a
 * column, or a sum of a column's values clamped to the policy bounds and expressed as an integer
 * number of {@code resolution} steps (so that integer noise can be added exactly).
 *
 * <p>Sensitivity: one row changes one cell of a count by 1, and one cell of a sum by at most
 * {@link #perRowBound()} steps (the rounded clamp bound of largest magnitude). With at most
 * {@code k} rows per privacy unit, adding or removing a unit changes the vector by at most
 * {@code k * perRowBound()} in L1 norm, and by the same in L2 norm (the worst case puts all k rows
 * in one cell). Both are returned by {@link #sensitivity(int)}.
 */
public record Measurement(Kind kind, ColumnPolicy column, BigDecimal resolution, long perRowBound,
    long cells) {

  /** What is measured. */
  public enum Kind { COUNT_STAR, COUNT, SUM, COUNT_DISTINCT_UNIT, COUNT_DISTINCT }

  /** A measurement whose data vector's number of cells does not matter for its sensitivity. */
  public Measurement(Kind kind, ColumnPolicy column, BigDecimal resolution, long perRowBound) {
    this(kind, column, resolution, perRowBound, Long.MAX_VALUE);
  }

  /**
   * The number of distinct privacy units per cell, counted over each unit's bounded rows, on a data
   * vector of {@code cells} cells.
   *
   * <p>Sensitivity: a unit's at most k rows lie in at most min(k, cells) cells, and in each of
   * them the distinct count changes by exactly 1 when the unit is added or removed; other units'
   * rows are untouched (each unit's rows are bounded independently). So the L1 sensitivity is
   * min(k, cells) and the L2 sensitivity √min(k, cells), at most the L1 one, which {@link
   * #sensitivity(int)} returns for both.
   */
  public static Measurement countDistinctUnits(long cells) {
    return new Measurement(Kind.COUNT_DISTINCT_UNIT, null, BigDecimal.ONE, 1, cells);
  }

  /**
   * The number of distinct non-null values of {@code column} per cell, counted over each unit's
   * bounded rows, on a data vector of {@code cells} cells.
   *
   * <p>Sensitivity: adding or removing a unit adds or removes its at most k bounded rows, and each
   * row can add (or remove) at most one distinct value of the cell it lies in; other units' rows
   * are untouched (each unit is bounded independently). So the changes over all cells add up to at
   * most k in L1 norm, and the L2 norm is at most the L1 one; a column whose domain lists m values
   * changes a cell by at most m, so the bound is min(k, m · cells).
   */
  public static Measurement countDistinct(ColumnPolicy column, long cells) {
    long values = column.hasDomain() ? column.domainSize() : Long.MAX_VALUE;
    long reach = values == Long.MAX_VALUE || cells > Long.MAX_VALUE / Math.max(1, values)
        ? Long.MAX_VALUE : values * cells;
    return new Measurement(Kind.COUNT_DISTINCT, column, BigDecimal.ONE, 1, reach);
  }

  public static Measurement countStar() {
    return new Measurement(Kind.COUNT_STAR, null, BigDecimal.ONE, 1);
  }

  public static Measurement count(ColumnPolicy column) {
    return new Measurement(Kind.COUNT, column, BigDecimal.ONE, 1);
  }

  /**
   * A clamped sum of {@code column}. The resolution is 1 for integer columns with integer bounds,
   * otherwise 10^(ceil(log10(max|bound|)) - 6): six significant digits per row value, so the
   * rounding error per row is at most half a millionth of the largest bound.
   */
  public static Measurement sum(ColumnPolicy column) {
    Clamp clamp = bounds(column);
    BigDecimal maxAbs = clamp.maxAbs();
    BigDecimal resolution;
    if (ColumnPolicy.isIntegerType(column.sqlType()) && isWhole(clamp.lo()) && isWhole(clamp.hi())) {
      resolution = BigDecimal.ONE;
    } else if (maxAbs.signum() == 0) {
      resolution = BigDecimal.ONE;
    } else {
      int magnitude = maxAbs.precision() - maxAbs.scale(); // digits before the point
      resolution = BigDecimal.ONE.scaleByPowerOfTen(magnitude - 6);
    }
    long bound = maxAbs.divide(resolution, 0, RoundingMode.CEILING).longValueExact();
    return new Measurement(Kind.SUM, column, resolution, Math.max(bound, 1));
  }

  /** The clamp bounds of a column: its {@code clamp}, else its ordered domain's min and max. */
  public static Clamp bounds(ColumnPolicy column) {
    return column.clamp().orElseGet(() -> new Clamp(
        column.ordered().orElseThrow().min(), column.ordered().orElseThrow().max()));
  }

  /** L1 (= L2) sensitivity of the whole cell vector when a unit contributes at most k rows. */
  public long sensitivity(int maxRowsPerUnit) {
    if (kind == Kind.COUNT_DISTINCT_UNIT || kind == Kind.COUNT_DISTINCT) {
      return Math.min(maxRowsPerUnit, cells);
    }
    return Math.multiplyExact(perRowBound, (long) maxRowsPerUnit);
  }

  /** A short readable name, e.g. {@code COUNT(*)} or {@code SUM(FARE)}. */
  public String describe() {
    return switch (kind) {
      case COUNT_STAR -> "COUNT(*)";
      case COUNT -> "COUNT(" + column.name() + ")";
      case SUM -> "SUM(" + column.name() + ")";
      case COUNT_DISTINCT_UNIT -> "COUNT(DISTINCT unit)";
      case COUNT_DISTINCT -> "COUNT(DISTINCT " + column.name() + ")";
    };
  }

  /** Whether a policy number is a whole number (such as 3 or 3.00). */
  public static boolean isWhole(BigDecimal v) {
    return v.stripTrailingZeros().scale() <= 0;
  }
}
