package org.dpsql.rewrite;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.sql.AggregateQuery;
import org.dpsql.sql.OutputItem;

/**
 * What must be measured to answer a private aggregate query: the cells, the distinct exact vectors
 * (each measured once even if several output columns use it: AVG(x) reuses SUM(x) and COUNT(x))
 * and the contribution bound that fixes their sensitivity.
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
    CellDomain cells = new CellDomain(query.groupBy(), limit);
    List<Measurement> ms = new ArrayList<>();
    for (OutputItem o : query.outputs()) {
      if (o.isGroupKey()) {
        continue;
      }
      switch (o.aggregate()) {
        case COUNT_STAR -> addOnce(ms, Measurement.countStar());
        case COUNT -> addOnce(ms, Measurement.count(o.column()));
        case SUM -> addOnce(ms, Measurement.sum(o.column()));
        case AVG -> {
          addOnce(ms, Measurement.sum(o.column()));
          addOnce(ms, Measurement.count(o.column()));
        }
        case COUNT_DISTINCT_UNIT -> addOnce(ms, Measurement.countDistinctUnits(cells.size()));
        case COUNT_DISTINCT -> addOnce(ms, Measurement.countDistinct(o.column(), cells.size()));
        case QUANTILE -> { } // a histogram, not a noisy vector: see QuantileRelease
        default -> throw new IllegalStateException(o.aggregate().name());
      }
    }
    return new MeasurementPlan(query, cells, ms);
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
