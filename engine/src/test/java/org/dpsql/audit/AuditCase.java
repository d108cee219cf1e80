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
 */
record AuditCase(String name, String description, List<String> schemaAndBackground,
    List<String> unitRows, String policyYaml, String sql, ReleasedValue value,
    BackendFault fault, List<String> before) {

  /** A path audited by one statement on a fresh connection. */
  AuditCase(String name, String description, List<String> schemaAndBackground,
      List<String> unitRows, String policyYaml, String sql, ReleasedValue value,
      BackendFault fault) {
    this(name, description, schemaAndBackground, unitRows, policyYaml, sql, value, fault,
        List.of());
  }
}
