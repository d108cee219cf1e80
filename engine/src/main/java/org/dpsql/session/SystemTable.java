package org.dpsql.session;

import java.util.List;
import org.dpsql.release.ResultColumn;

/**
 * A table of the {@code DPSQL} system schema (contract §5), such as the budget or the ledger.
 * Implementations are found with {@link java.util.ServiceLoader} (module {@code udf} provides the
 * standard ones). Their rows describe the connection's own state and never contain private data.
 */
public interface SystemTable {
  /** The table name inside schema {@code DPSQL}, upper case. */
  String name();

  /** The columns, in order. */
  List<ResultColumn> columns();

  /** The current rows for one connection; values match {@link #columns()}' Java classes. */
  List<Object[]> rows(SessionView session);
}
