package org.dpsql.rewrite;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.SQLException;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.Clamp;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.OrderedDomain;

/**
 * The public grid of candidate values of a quantile of one column: {@code size} points {@code lo +
 * j * step}, {@code j = 0 .. size-1}, taken from the policy alone (never from the data).
 *
 * <ul>
 *   <li>A column with an ordered domain {@code {min, max, bin}}: the lower edges of its cells
 *       ({@code lo = min}, {@code step = bin}, one point per cell), as group keys show them.</li>
 *   <li>A column with only {@code clamp: [lo, hi]}: an integer column with integer bounds and at
 *       most {@link #CLAMP_INTERVALS} integers between them gets every integer of {@code [lo,
 *       hi]}; any other gets {@value #CLAMP_INTERVALS} equal intervals, {@code step = (hi −
 *       lo)/1000}, and their 1,001 edges, {@code lo} and {@code hi} included.</li>
 * </ul>
 *
 * <p>A row's value {@code v} is first clamped into {@code [lo, last]} ({@code last} the largest
 * point) and then rounded down to the grid: it counts at point {@link #indexOf}: {@code min(size −
 * 1, floor((v − lo) / step))}. The quantiles released are those of these rounded values, so they
 * are exact up to one step.
 */
public record QuantileGrid(BigDecimal lo, BigDecimal step, int size) {
  /** The number of equal intervals of a clamp range (one more candidate: both ends). */
  public static final int CLAMP_INTERVALS = 1000;

  public QuantileGrid {
    if (size < 1 || step.signum() <= 0) {
      throw new IllegalArgumentException("a grid needs a point and a positive step");
    }
  }

  /**
   * The grid of {@code column}, or XDP02 (no public range: the data owner must declare one) or
   * XDP03 (a time or categorical column has no numeric order to take quantiles in), naming the
   * column and the aggregate {@code what}.
   */
  public static QuantileGrid of(ColumnPolicy column, String what) throws SQLException {
    if (column.time().isPresent()) {
      throw SqlStates.notSupported(what + "(" + column.name() + "): quantiles of time columns "
          + "are not supported yet; use a numeric column with a public range");
    }
    if (column.ordered().isPresent()) {
      OrderedDomain d = column.ordered().get();
      return new QuantileGrid(d.min(), d.bin(), d.cells());
    }
    if (column.clamp().isEmpty() || !column.isNumeric()) {
      throw SqlStates.notAllowed(what + "(" + column.name() + "): the policy gives no public "
          + "range for " + column.name() + ", and a private quantile needs one to choose its "
          + "candidates from; the data owner must add clamp: [lo, hi] (or min/max/bin) for it");
    }
    Clamp c = column.clamp().get();
    BigDecimal width = c.width();
    if (width.signum() == 0) {
      return new QuantileGrid(c.lo(), BigDecimal.ONE, 1);
    }
    if (ColumnPolicy.isIntegerType(column.sqlType()) && Measurement.isWhole(c.lo())
        && Measurement.isWhole(c.hi())
        && width.compareTo(BigDecimal.valueOf(CLAMP_INTERVALS)) <= 0) {
      return new QuantileGrid(c.lo(), BigDecimal.ONE, width.intValueExact() + 1);
    }
    BigDecimal step = width.divide(BigDecimal.valueOf(CLAMP_INTERVALS)).stripTrailingZeros();
    return new QuantileGrid(c.lo(), step, CLAMP_INTERVALS + 1);
  }

  /** Point {@code j}: {@code lo + j * step}. */
  public BigDecimal value(int j) {
    if (j < 0 || j >= size) {
      throw new IndexOutOfBoundsException("point " + j + " of " + size);
    }
    return lo.add(step.multiply(BigDecimal.valueOf(j)));
  }

  /** The largest point. */
  public BigDecimal last() {
    return value(size - 1);
  }

  /** The point a value counts at: clamped into the grid's range, then rounded down to a point. */
  public int indexOf(BigDecimal v) {
    if (v.compareTo(lo) <= 0) {
      return 0;
    }
    if (v.compareTo(last()) >= 0) {
      return size - 1;
    }
    return v.subtract(lo).divide(step, 0, RoundingMode.FLOOR).intValueExact();
  }

  /** E.g. {@code 1001 points 0, 0.1, ..., 100}. */
  public String describe() {
    return size + " point" + (size == 1 ? " " : "s ") + lo.toPlainString()
        + (size > 2 ? ", " + value(1).toPlainString() + ", ..." : "")
        + (size > 1 ? ", " + last().toPlainString() : "");
  }
}
