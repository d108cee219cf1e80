package org.dpsql.rewrite;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.sql.AggregateQuery;
import org.dpsql.sql.OutputItem;

/**
 * What must be measured to answer a private aggregate query: the cells, the distinct exact vectors
 * (each measured once even if several output columns use it: AVG(x) reuses SUM(x) and COUNT(x))
 * and the contribution bound that fixes their sensitivity. With group keys declared {@code keys:
 * private}, {@code cells} are those of the declared keys only: each released group is one of
 * them and a privately selected key (see {@code org.dpsql.release.PartitionRelease}).
 */
public record MeasurementPlan(AggregateQuery query, CellDomain cells, List<Measurement> measurements) {

  public MeasurementPlan {
    measurements = List.copyOf(measurements);
  }

  /** Rewrites a query into its plan. */
  public static MeasurementPlan of(AggregateQuery query) throws SQLException {
    org.dpsql.sql.Mechanism m = query.hint().mechanism();
    int limit = m == org.dpsql.sql.Mechanism.TOPDOWN || m == org.dpsql.sql.Mechanism.INFTDA
        ? CellDomain.MAX_TREE_CELLS : CellDomain.MAX_CELLS; // a tree release is sparse
    // with private keys the cells are those of the declared keys; each released group is a
    // declared cell and a selected private key, and a unit reaches at most max_groups_per_unit
    CellDomain cells = new CellDomain(query.declaredGroupBy(), limit);
    List<Measurement> ms = new ArrayList<>();
    for (OutputItem o : query.outputs()) {
      if (o.isGroupKey() || o.aggregate() == org.dpsql.sql.AggregateKind.QUANTILE) {
        continue; // a quantile is a histogram, not a noisy vector: see QuantileRelease
      }
      addOnce(ms, measurementOf(o, query, cells));
      if (o.aggregate() == org.dpsql.sql.AggregateKind.AVG) {
        addOnce(ms, Measurement.count(o.column()));
      }
    }
    return new MeasurementPlan(query, cells, ms);
  }

  /**
   * The measurement an aggregate output reads: its count or sum, the sum for AVG (whose count is
   * {@link Measurement#count} of the same column).
   */
  public Measurement measurementOf(OutputItem o) {
    return measurementOf(o, query, cells);
  }

  private static Measurement measurementOf(OutputItem o, AggregateQuery query, CellDomain cells) {
    // the number of groups one unit's bounded rows can reach
    long reach = query.hasPrivateKeys() ? query.maxGroupsPerUnit() : cells.size();
    return switch (o.aggregate()) {
      case COUNT_STAR -> Measurement.countStar();
      case COUNT -> Measurement.count(o.column());
      case SUM, AVG -> Measurement.sum(o.column());
      case COUNT_DISTINCT_UNIT -> Measurement.countDistinctUnits(reach);
      case COUNT_DISTINCT -> Measurement.countDistinct(o.column(), reach);
      case QUANTILE -> throw new IllegalArgumentException("quantiles are released by "
          + "QuantileRelease, without noise vectors");
    };
  }

  private static void addOnce(List<Measurement> ms, Measurement m) {
    if (!ms.contains(m)) {
      ms.add(m);
    }
  }

  /** Index of a measurement in {@link #measurements()}. */
  public int indexOf(Measurement m) {
    int i = measurements.indexOf(m);
    if (i < 0) {
      throw new IllegalArgumentException("not measured: " + m.describe());
    }
    return i;
  }

  /** The contribution bound k: rows per privacy unit that reach the aggregates. */
  public int maxRowsPerUnit() {
    return query.table().maxRowsPerUnit();
  }
}
