package org.dpsql.sql;

import java.util.Locale;
import org.apache.calcite.sql.SqlCall;

/** Reading calls of a parse tree before validation, when operators are known by name only. */
final class SqlCalls {
  private SqlCalls() {}

  /** The upper-case name of a function call (parsed calls are not yet resolved to kinds). */
  static String name(SqlCall call) {
    return call.getOperator().getName().toUpperCase(Locale.ROOT);
  }
}
