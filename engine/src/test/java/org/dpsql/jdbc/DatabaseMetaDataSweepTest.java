package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every DatabaseMetaData method of an embedded connection answers, and truthfully. */
public class DatabaseMetaDataSweepTest {
  static TestDatabase db;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(50, TestDatabase.ZCDP, null);
  }

  @AfterAll
  static void tearDown() throws Exception {
    db.close();
  }

  @Test
  void everyMethodAnswersWithoutARuntimeException() throws Exception {
    try (Connection c = db.connect()) {
      MetaDataSweep.Result r = MetaDataSweep.sweep(c);
      assertTrue(r.methodsCalled() >= 170, "methods called: " + r.methodsCalled());
      assertEquals(java.util.List.of(), r.failures());
      assertEquals(java.util.List.of(), r.notSupported(), "nothing is left 'not supported'");
    }
  }

  @Test
  void readOnlyForwardOnlyAnswersAreTruthful() throws Exception {
    try (Connection c = db.connect()) {
      assertReadOnlyForwardOnly(c.getMetaData());
    }
  }

  /** What every dpsql connection, embedded or thin, says about its result sets. */
  public static void assertReadOnlyForwardOnly(DatabaseMetaData md) throws Exception {
    assertTrue(md.isReadOnly());
    assertTrue(md.supportsResultSetType(ResultSet.TYPE_FORWARD_ONLY));
    assertFalse(md.supportsResultSetType(ResultSet.TYPE_SCROLL_SENSITIVE));
    assertTrue(md.supportsResultSetConcurrency(ResultSet.TYPE_FORWARD_ONLY,
        ResultSet.CONCUR_READ_ONLY));
    assertFalse(md.supportsResultSetConcurrency(ResultSet.TYPE_FORWARD_ONLY,
        ResultSet.CONCUR_UPDATABLE));
    for (int type : new int[] {ResultSet.TYPE_FORWARD_ONLY, ResultSet.TYPE_SCROLL_INSENSITIVE}) {
      assertFalse(md.ownUpdatesAreVisible(type) || md.ownDeletesAreVisible(type)
          || md.ownInsertsAreVisible(type) || md.othersUpdatesAreVisible(type)
          || md.othersDeletesAreVisible(type) || md.othersInsertsAreVisible(type)
          || md.updatesAreDetected(type) || md.deletesAreDetected(type)
          || md.insertsAreDetected(type), "a read-only connection sees no changes");
    }
    assertTrue(md.supportsResultSetHoldability(md.getResultSetHoldability()));
    int other = md.getResultSetHoldability() == ResultSet.HOLD_CURSORS_OVER_COMMIT
        ? ResultSet.CLOSE_CURSORS_AT_COMMIT : ResultSet.HOLD_CURSORS_OVER_COMMIT;
    assertFalse(md.supportsResultSetHoldability(other));
  }
}
