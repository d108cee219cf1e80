package org.dpsql.rewrite;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.dpsql.policy.CategoricalDomain;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.OrderedDomain;

/**
 * A refinement of a cell domain on which a filter is decided exactly: every integer column with
 * an ordered domain is replaced by representative values, one per piece of each bin between the
 * numbers the filter compares with (every comparison of the column with one of those numbers has
 * the same truth on a whole piece), and the other columns are kept. A bin of {@code AGE} in
 * {@code [16, 26)} under {@code AGE < 20 AND AGE > 22} becomes the values 16, 20, 21, 22 and 23,
 * none of which satisfies the filter, where the bin as a whole is "mixed" for each condition.
 *
 * <p>Guarantee: for a filter whose conditions compare columns with numbers (literals or
 * parameters), a refined cell satisfies the filter exactly when every row value of its piece does,
 * so the cells that may hold a satisfying row are those with some refined cell that may. Absent
 * (null) when the refined domain would exceed {@link #MAX_POINTS} cells or there is no integer
 * ordered column: the bins are then decided as a whole.
 */
final class FilterPoints {
  /** The largest refined domain evaluated. */
  static final long MAX_POINTS = 2_000_000;

  private final CellDomain refined;
  /** Per column: the bin of each refined value (null for a column kept as it is). */
  private final int[][] binOf;
  private final CellDomain cells;

  private FilterPoints(CellDomain refined, int[][] binOf, CellDomain cells) {
    this.refined = refined;
    this.binOf = binOf;
    this.cells = cells;
  }

  /** The refinement of {@code cells} for {@code where}, or null (see the class comment). */
  static FilterPoints of(SqlNode where, CellDomain cells, List<Object> parameters) {
    List<BigDecimal> constants = constants(where, parameters);
    List<ColumnPolicy> columns = new ArrayList<>();
    int[][] binOf = new int[cells.columns().size()][];
    long size = 1;
    boolean refinedAny = false;
    for (int i = 0; i < cells.columns().size(); i++) {
      ColumnPolicy c = cells.columns().get(i);
      if (c.ordered().isPresent() && ColumnPolicy.isIntegerType(c.sqlType())) {
        List<Object> values = new ArrayList<>();
        List<Integer> bins = new ArrayList<>();
        OrderedDomain d = c.ordered().get();
        for (int b = 0; b < d.cells(); b++) {
          for (BigDecimal v : representatives(d, b, constants)) {
            values.add(v);
            bins.add(b);
          }
          if (values.size() > MAX_POINTS) {
            return null;
          }
        }
        binOf[i] = bins.stream().mapToInt(Integer::intValue).toArray();
        columns.add(new ColumnPolicy(c.name(), c.sqlType(),
            Optional.of(new CategoricalDomain(values)), Optional.empty(), Optional.empty()));
        size *= values.size();
        refinedAny = true;
      } else {
        columns.add(c);
        size *= Math.max(1, c.domainSize());
      }
      if (size > MAX_POINTS) {
        return null;
      }
    }
    if (!refinedAny) {
      return null;
    }
    try {
      return new FilterPoints(new CellDomain(columns, (int) MAX_POINTS), binOf, cells);
    } catch (SQLException | RuntimeException e) {
      return null;
    }
  }

  /** The refined domain. */
  CellDomain domain() {
    return refined;
  }

  /** The cell of the original domain a refined cell lies in. */
  int cellOf(int refinedCell) {
    int[] positions = refined.positionsOf(refinedCell);
    int cell = 0;
    for (int i = 0; i < positions.length; i++) {
      int v = binOf[i] == null ? positions[i] : binOf[i][positions[i]];
      cell = cell * cells.columns().get(i).domainSize() + v;
    }
    return cell;
  }

  /**
   * One integer of each non-empty piece of bin {@code b}'s integers, the pieces cut at the
   * {@code constants} (each constant that is an integer of the bin is a piece of its own).
   */
  private static List<BigDecimal> representatives(OrderedDomain d, int b,
      List<BigDecimal> constants) {
    BigDecimal lo = d.lowerEdge(b);
    BigDecimal hi = lo.add(d.bin());
    boolean closed = hi.compareTo(d.max()) > 0;
    BigDecimal ilo = lo.setScale(0, RoundingMode.CEILING);
    BigDecimal ihi = closed ? d.max().setScale(0, RoundingMode.FLOOR)
        : hi.setScale(0, RoundingMode.CEILING).subtract(BigDecimal.ONE);
    List<BigDecimal> out = new ArrayList<>();
    if (ilo.compareTo(ihi) > 0) {
      return out; // no integer: no row, and no refined value
    }
    // the gaps between consecutive cut points, and the integer cut points themselves
    BigDecimal from = ilo; // smallest integer of the current gap
    for (BigDecimal k : constants) {
      if (k.compareTo(ilo) < 0) {
        continue;
      }
      if (k.compareTo(ihi) > 0) {
        break;
      }
      BigDecimal below = k.setScale(0, RoundingMode.CEILING).subtract(BigDecimal.ONE);
      if (from.compareTo(below) <= 0) {
        out.add(from); // an integer strictly below k, in the gap
      }
      boolean integral = k.stripTrailingZeros().scale() <= 0;
      if (integral) {
        out.add(k.setScale(0, RoundingMode.UNNECESSARY));
      }
      from = k.setScale(0, RoundingMode.FLOOR).add(BigDecimal.ONE);
    }
    if (from.compareTo(ihi) <= 0) {
      out.add(from);
    }
    return out;
  }

  /** The distinct numbers of the filter (literals and numeric parameter values), ascending. */
  private static List<BigDecimal> constants(SqlNode where, List<Object> parameters) {
    TreeSet<BigDecimal> out = new TreeSet<>();
    where.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlLiteral literal) {
        if (literal instanceof SqlNumericLiteral n && n.getValue() instanceof BigDecimal b) {
          out.add(b);
          out.add(b.negate()); // as the operand of a unary minus
        }
        return null;
      }

      @Override
      public Void visit(SqlDynamicParam param) {
        if (param.getIndex() < parameters.size()) {
          Object v = parameters.get(param.getIndex());
          if (v instanceof Number num) {
            try {
              out.add(new BigDecimal(num.toString()));
            } catch (NumberFormatException e) {
              // not a finite number: its conditions are undecided anyway
            }
          }
        }
        return null;
      }

      @Override
      public Void visit(SqlCall call) {
        for (SqlNode o : call.getOperandList()) {
          if (o != null) {
            o.accept(this);
          }
        }
        return null;
      }
    });
    return new ArrayList<>(out);
  }
}
