package org.dpsql.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

/** Calendar bins: their count, starts and membership follow the calendar, not fixed lengths. */
class TimeDomainTest {
  private static LocalDateTime at(String text) {
    return TimeDomain.parseInstant(text);
  }

  @Test
  void monthsHaveTheirRealLengths() {
    TimeDomain d = new TimeDomain(at("2024-01-01"), at("2024-12-31 23:59"), TimeDomain.Unit.MONTH);
    assertEquals(12, d.cells());
    assertEquals(at("2024-02-01"), d.binStart(1));
    assertEquals(1, d.cellOf(at("2024-02-29 23:59:59")));
    assertEquals(2, d.cellOf(at("2024-03-01")));
    assertEquals(at("2025-01-01"), d.end());
    assertEquals(-1, d.cellOf(at("2025-01-01")));
    assertEquals(-1, d.cellOf(at("2023-12-31 23:59")));
  }

  @Test
  void daysWeeksQuartersYearsAndHours() {
    TimeDomain days = new TimeDomain(at("2024-01-01"), at("2025-12-31"), TimeDomain.Unit.DAY);
    assertEquals(366 + 365, days.cells());
    assertEquals(365, days.cellOf(at("2024-12-31 18:00")));
    TimeDomain weeks = new TimeDomain(at("2024-01-01"), at("2024-12-31"), TimeDomain.Unit.WEEK);
    assertEquals(53, weeks.cells()); // Monday 30 December starts the 53rd
    assertEquals(0, weeks.cellOf(at("2024-01-07 23:00")));
    assertEquals(1, weeks.cellOf(at("2024-01-08")));
    TimeDomain quarters = new TimeDomain(at("2024-04-01"), at("2025-03-31"),
        TimeDomain.Unit.QUARTER);
    assertEquals(4, quarters.cells());
    assertEquals(at("2024-10-01"), quarters.binStart(2));
    TimeDomain years = new TimeDomain(at("2020-01-01"), at("2024-06-01"), TimeDomain.Unit.YEAR);
    assertEquals(5, years.cells());
    TimeDomain hours = new TimeDomain(at("2024-03-31"), at("2024-03-31 23:00"),
        TimeDomain.Unit.HOUR);
    assertEquals(24, hours.cells()); // local time: no daylight-saving gap
    assertEquals(13, hours.cellOf(at("2024-03-31 13:59:59")));
  }

  @Test
  void aDomainStartsABin() {
    assertThrows(IllegalArgumentException.class,
        () -> new TimeDomain(at("2024-01-02"), at("2024-12-31"), TimeDomain.Unit.WEEK));
    assertThrows(IllegalArgumentException.class,
        () -> new TimeDomain(at("2024-02-01"), at("2024-12-31"), TimeDomain.Unit.QUARTER));
    assertThrows(IllegalArgumentException.class,
        () -> new TimeDomain(at("2024-01-01 06:30"), at("2024-12-31"), TimeDomain.Unit.HOUR));
    assertThrows(IllegalArgumentException.class,
        () -> new TimeDomain(at("2024-01-01"), at("2023-12-31"), TimeDomain.Unit.DAY));
  }

  @Test
  void binsAndUnitsAsWritten() {
    assertEquals(TimeDomain.Unit.DAY, TimeDomain.parseBin("1 day"));
    assertEquals(TimeDomain.Unit.MONTH, TimeDomain.parseBin("months"));
    assertEquals(TimeDomain.Unit.HOUR, TimeDomain.parseBin("1 HOUR"));
    assertNull(TimeDomain.parseBin("2 days"));
    assertNull(TimeDomain.parseBin("1 fortnight"));
    assertNull(TimeDomain.parseInstant("2024-13-01"));
    assertEquals(at("2024-01-01T06:00"), at("2024-01-01 06:00:00"));
  }

  @Test
  void whichBinsNestInWhichTruncations() {
    assertTrue(TimeDomain.Unit.DAY.refines(TimeDomain.Unit.MONTH));
    assertTrue(TimeDomain.Unit.DAY.refines(TimeDomain.Unit.WEEK));
    assertFalse(TimeDomain.Unit.DAY.refines(TimeDomain.Unit.HOUR));
    assertFalse(TimeDomain.Unit.WEEK.refines(TimeDomain.Unit.MONTH));
    assertTrue(TimeDomain.Unit.MONTH.refines(TimeDomain.Unit.QUARTER));
    assertFalse(TimeDomain.Unit.QUARTER.refines(TimeDomain.Unit.MONTH));
    assertTrue(TimeDomain.Unit.HOUR.refines(TimeDomain.Unit.YEAR));
  }
}
