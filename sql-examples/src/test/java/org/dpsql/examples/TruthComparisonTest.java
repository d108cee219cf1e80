package org.dpsql.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TruthComparisonTest {

  @Test
  void joinsOnKeysAndTreatsMissingCountsAsZero() {
    QueryResult noisy =
        new QueryResult(
            List.of("STATE", "TRIP_COUNT"),
            List.of(List.of("NY", 103L), List.of("CA", 96L), List.of("TX", -4L)));
    QueryResult truth =
        new QueryResult(List.of("STATE", "COUNT(*)"), List.of(List.of("CA", 100L), List.of("NY", 100L)));
    TruthComparison comparison = TruthComparison.compare(noisy, truth, 1, List.of(true));
    TruthComparison.ColumnError error = comparison.errors().get(0);
    assertEquals(3, error.cells());
    assertEquals(Math.sqrt((9 + 16 + 16) / 3.0), error.rmse(), 1e-9);
    assertEquals(4.0, error.maxAbsError(), 1e-9);
    assertEquals(List.of("STATE", "TRIP_COUNT", "true", "|error|"), comparison.table().headers());
    String text = comparison.table().render();
    assertTrue(text.contains("| TX    |         -4 |    0 |       4 |"), text);
    assertTrue(comparison.notes().isEmpty());
    assertTrue(comparison.summary().get(0).startsWith("TRIP_COUNT: RMSE 3.70 over 3 cells"), comparison.summary().get(0));
  }

  @Test
  void averagesOfEmptyGroupsAreUndefined() {
    QueryResult noisy =
        new QueryResult(List.of("PAYMENT", "AVG_FARE"), List.of(List.of("CARD", 20.5), List.of("CASH", 3.0)));
    QueryResult truth = new QueryResult(List.of("PAYMENT", "AVG"), List.of(List.of("CARD", new BigDecimal("20.00"))));
    TruthComparison comparison = TruthComparison.compare(noisy, truth, 1, List.of(false));
    assertEquals(1, comparison.errors().get(0).cells());
    assertEquals(0.5, comparison.errors().get(0).rmse(), 1e-9);
    String text = comparison.table().render();
    assertTrue(text.contains("| CASH    |        3 | NULL |    NULL |"), text);
    assertTrue(text.contains("| CARD    |    20.50 |   20 |     0.5 |"), text);
  }

  @Test
  void numericKeysMatchWhateverTheirType() {
    QueryResult noisy = new QueryResult(List.of("HOUR", "N"), List.of(List.of(8L, 10L), List.of(new BigDecimal("9.0"), 5L)));
    QueryResult truth = new QueryResult(List.of("HOUR", "N"), List.of(List.of(8, 12L), List.of(9.0, 5L)));
    TruthComparison comparison = TruthComparison.compare(noisy, truth, 1, List.of(true));
    assertEquals(2.0, comparison.errors().get(0).maxAbsError(), 1e-9);
    assertEquals(Math.sqrt(2.0), comparison.errors().get(0).rmse(), 1e-9);
  }

  @Test
  void confidenceBoundsTravelWithTheirColumn() {
    QueryResult noisy =
        new QueryResult(
            List.of("PAYMENT", "N", "N_LOW", "N_HIGH"),
            List.of(List.of("CARD", 100L, 90L, 110L), List.of("CASH", 50L, 45L, 55L)));
    QueryResult truth = new QueryResult(List.of("PAYMENT", "N"), List.of(List.of("CARD", 105L), List.of("CASH", 60L)));
    TruthComparison comparison = TruthComparison.compare(noisy, truth, 1, List.of(true));
    assertEquals(
        List.of("PAYMENT", "N", "N_LOW", "N_HIGH", "true", "|error|", "in CI"), comparison.table().headers());
    TruthComparison.ColumnError error = comparison.errors().get(0);
    assertEquals(2, error.intervals());
    assertEquals(1, error.covered());
    assertTrue(comparison.summary().get(1).contains("inside the confidence interval in 1 of 2 cells"));
  }

  @Test
  void singleRowWithoutKeysAndNullSumMeansZero() {
    QueryResult noisy = new QueryResult(List.of("REVENUE", "AVG_FARE"), List.of(List.of(12.0, 1.0)));
    QueryResult truth = new QueryResult(List.of("SUM", "AVG"), List.of(Arrays.asList(null, null)));
    TruthComparison comparison = TruthComparison.compare(noisy, truth, 0, List.of(true, false));
    assertEquals(12.0, comparison.errors().get(0).rmse(), 1e-9);
    assertEquals(0, comparison.errors().get(1).cells());
    assertEquals(List.of("REVENUE", "REVENUE true", "REVENUE |error|", "AVG_FARE", "AVG_FARE true", "AVG_FARE |error|"),
        comparison.table().headers());
  }

  @Test
  void reportsTrueGroupsMissingFromTheAnswer() {
    QueryResult noisy = new QueryResult(List.of("STATE", "N"), List.of(List.of("NY", 1L)));
    QueryResult truth = new QueryResult(List.of("STATE", "N"), List.of(List.of("NY", 1L), List.of("ZZ", 2L)));
    TruthComparison comparison = TruthComparison.compare(noisy, truth, 1, List.of(true));
    assertEquals(1, comparison.notes().size());
    assertTrue(comparison.notes().get(0).contains("[ZZ]"));
  }

  @Test
  void refusesResultsOfDifferentShapes() {
    QueryResult noisy = new QueryResult(List.of("STATE", "N", "S"), List.of(List.of("NY", 1L, 2L)));
    QueryResult truth = new QueryResult(List.of("STATE", "N"), List.of(List.of("NY", 1L)));
    assertThrows(IllegalArgumentException.class, () -> TruthComparison.compare(noisy, truth, 1, List.of(true, true)));
  }

  @Test
  void percentagesKeepTwoDigits() {
    assertEquals("216%", TruthComparison.percent(2.16));
    assertEquals("2.4%", TruthComparison.percent(0.024));
    assertEquals("0.031%", TruthComparison.percent(0.00031));
    assertEquals("less than 0.01%", TruthComparison.percent(0.0000001));
  }

  @Test
  void oneCellSummarySaysErrorNotRmse() {
    QueryResult noisy = new QueryResult(List.of("N"), List.of(List.of(200058L)));
    QueryResult truth = new QueryResult(List.of("N"), List.of(List.of(200000L)));
    TruthComparison comparison = TruthComparison.compare(noisy, truth, 0, List.of(true));
    assertEquals("N: error 58, that is 0.029% of the true value 200000", comparison.summary().get(0));
    assertNull(TruthComparison.toDouble("x"));
  }
}
