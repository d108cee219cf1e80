package org.dpsql.audit;

import java.util.List;

/**
 * One release path under audit: the data of the two neighbouring databases, the policy, the
 * statement, the released value to look at, and the fault that breaks this path.
 *
 * @param name short name of the path (a row of the report)
 * @param description the mechanism and what the statement releases
 * @param schemaAndBackground DDL and the rows both databases hold (D)
 * @param unitRows the added unit's rows (D' = D plus these), worst case for the policy
 * @param policyYaml the data owner's policy (with {@code allow_seed: true})
 * @param sql the statement audited
 * @param value the released value the events are defined on
 * @param fault the deliberate bug of the broken variant
 * @param before statements run first on the same connection (a synopsis the audited statement is
 *     answered from); their charges are part of the claimed cost
 * @param parameters values bound to the statement's parameters (empty: none)
 * @param clock the instant relative dates read (null: the system clock)
 */
record AuditCase(String name, String description, List<String> schemaAndBackground,
    List<String> unitRows, String policyYaml, String sql, ReleasedValue value,
    BackendFault fault, List<String> before, List<Object> parameters, java.time.Instant clock) {

  /**
   * A path audited by {@code sql} after {@code before}; {@code parameters} are bound to its
   * {@code ?} (a prepared statement, as applications run it; empty: a plain statement) and
   * {@code clock}, when not null, is the instant the session's relative dates read.
   */
  AuditCase {
    parameters = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(parameters));
  }

  /** A path audited by one statement after {@code before}, with no values bound. */
  AuditCase(String name, String description, List<String> schemaAndBackground,
      List<String> unitRows, String policyYaml, String sql, ReleasedValue value,
      BackendFault fault, List<String> before) {
    this(name, description, schemaAndBackground, unitRows, policyYaml, sql, value, fault, before,
        List.of(), null);
  }

  /** A path audited by one statement on a fresh connection. */
  AuditCase(String name, String description, List<String> schemaAndBackground,
      List<String> unitRows, String policyYaml, String sql, ReleasedValue value,
      BackendFault fault) {
    this(name, description, schemaAndBackground, unitRows, policyYaml, sql, value, fault,
        List.of());
  }
}
