package org.dpsql.rewrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dpsql.policy.CategoricalDomain;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TimeDomain;
import org.dpsql.sql.DpHint;
import org.dpsql.sql.FamilyQuery;
import org.junit.jupiter.api.Test;

/**
 * Workload families over time columns: their cells are the policy's bins, each query is described
 * by the SQL that selects its bins (the bin starts and the next bin's start, the domain's end for
 * the last bin), and a family too large to return is refused unless asked for as cells.
 */
class FamilyWorkloadTimeTest {
  private static final ColumnPolicy HOURS = ColumnPolicy.ofTime("AT", Types.TIMESTAMP,
      new TimeDomain(LocalDateTime.of(2025, 3, 1, 0, 0), LocalDateTime.of(2025, 3, 1, 5, 0),
          TimeDomain.Unit.HOUR));
  private static final ColumnPolicy DAYS = ColumnPolicy.ofTime("D", Types.DATE,
      new TimeDomain(LocalDateTime.of(2024, 2, 27, 0, 0), LocalDateTime.of(2024, 3, 2, 0, 0),
          TimeDomain.Unit.DAY));
  private static final ColumnPolicy WEEKS = ColumnPolicy.ofTime("W", Types.DATE,
      new TimeDomain(LocalDateTime.of(2024, 12, 30, 0, 0), LocalDateTime.of(2025, 1, 19, 0, 0),
          TimeDomain.Unit.WEEK));
  private static final ColumnPolicy YEARS = ColumnPolicy.ofTime("Y", Types.TIMESTAMP,
      new TimeDomain(LocalDateTime.of(2000, 1, 1, 0, 0), LocalDateTime.of(2025, 12, 31, 23, 0),
          TimeDomain.Unit.HOUR));

  private static FamilyQuery family(FamilyQuery.Family f, FamilyQuery.Output output,
      ColumnPolicy... cols) throws SQLException {
    return new FamilyQuery(null, f, List.of(cols), cols.length, DpHint.parse(Map.of()), output);
  }

  @Test
  void timestampBinsAreDescribedByTheirStartAndTheNextBinsStart() {
    assertEquals("AT >= TIMESTAMP '2025-03-01 02:00:00' AND AT < TIMESTAMP '2025-03-01 05:00:00'",
        FamilyWorkload.range(HOURS, 2, 4));
    // the last bin ends where the domain ends: the start of the bin after the one holding max
    assertEquals("AT >= TIMESTAMP '2025-03-01 05:00:00' AND AT < TIMESTAMP '2025-03-01 06:00:00'",
        FamilyWorkload.range(HOURS, 5, 5));
  }

  @Test
  void dateColumnsInDayBinsAreDescribedByTheirDates() {
    assertEquals("D = DATE '2024-02-29'", FamilyWorkload.range(DAYS, 2, 2)); // a leap day
    assertEquals("D BETWEEN DATE '2024-02-27' AND DATE '2024-03-02'",
        FamilyWorkload.range(DAYS, 0, 4));
    assertEquals("W >= DATE '2025-01-06' AND W < DATE '2025-01-20'",
        FamilyWorkload.range(WEEKS, 1, 2));
  }

  @Test
  void rangesAndPrefixesOverTheBinsAndTheirProductsWithOtherColumns() throws SQLException {
    FamilyWorkload all = FamilyWorkload.of(family(FamilyQuery.Family.ALL_RANGES,
        FamilyQuery.Output.QUERIES, HOURS));
    assertEquals(6, all.cells().size());
    assertEquals(21, all.workload().queries());
    assertEquals(21, all.descriptions().size());
    assertEquals(6, all.cellDescriptions().size());
    assertEquals(FamilyWorkload.range(HOURS, 0, 5), all.descriptions().get(5));
    FamilyWorkload prefix = FamilyWorkload.of(family(FamilyQuery.Family.PREFIX,
        FamilyQuery.Output.CELLS, DAYS));
    assertEquals(prefix.cellDescriptions(), prefix.rowDescriptions());
    ColumnPolicy region = new ColumnPolicy("REGION", Types.VARCHAR,
        Optional.of(new CategoricalDomain(List.of("N", "S"))), Optional.empty(), Optional.empty());
    FamilyWorkload product = FamilyWorkload.of(family(FamilyQuery.Family.ALL_RANGES,
        FamilyQuery.Output.CELLS, HOURS, region));
    assertEquals(12, product.cells().size());
    assertEquals(FamilyWorkload.range(HOURS, 0, 0) + " AND REGION = 'S'",
        product.rowDescriptions().get(1));
  }

  @Test
  void aFamilyTooLargeToReturnIsRefusedUnlessAskedForAsCells() throws SQLException {
    // all ranges over 227,928 hours: 2.6e10 queries
    SQLException e = assertThrows(SQLException.class, () -> FamilyWorkload.of(
        family(FamilyQuery.Family.ALL_RANGES, FamilyQuery.Output.QUERIES, YEARS)));
    assertEquals("XDP03", e.getSQLState());
    assertTrue(e.getMessage().contains("output=cells"), e.getMessage());
    assertEquals(YEARS.domainSize(), FamilyWorkload.of(family(FamilyQuery.Family.ALL_RANGES,
        FamilyQuery.Output.CELLS, YEARS)).cells().size());
  }
}
