package org.dpsql.sql.relational;

import java.sql.Types;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.backend.BackendColumn;
import org.dpsql.backend.BackendTable;

/**
 * The Calcite view of the backend that statements are validated against: one Calcite schema per
 * backend schema, holding exactly the tables the policy names; a private table shows only its
 * policy columns and its privacy-unit column (what {@code SELECT *} expands to and what a BI
 * tool's schema probe shows), a public table all its columns. A reference to a backend column
 * outside the policy is reported by the planner as such (XDP02), not as unknown.
 */
final class ValidationSchema {
  private ValidationSchema() {}

  /** The schema of {@code catalog}'s tables as {@code policy} exposes them (all columns if null). */
  static CalciteSchema build(BackendCatalog catalog, org.dpsql.policy.Policy policy) {
    CalciteSchema root = CalciteSchema.createRootSchema(false, false);
    Map<String, Map<String, Table>> bySchema = new HashMap<>();
    for (BackendTable t : catalog.tables()) {
      List<BackendColumn> columns = t.columns();
      java.util.Optional<org.dpsql.policy.TablePolicy> tp =
          policy == null ? java.util.Optional.empty() : policy.table(t.name());
      if (tp.isPresent() && !tp.get().isPublic()) {
        org.dpsql.policy.TablePolicy p = tp.get();
        columns = columns.stream().filter(c -> p.column(c.name()).isPresent()
            || c.name().equalsIgnoreCase(p.privacyUnit())).toList();
      }
      bySchema.computeIfAbsent(t.schema() == null ? "" : t.schema(), k -> new HashMap<>())
          .put(t.name(), new ColumnsTable(columns));
    }
    bySchema.forEach((schemaName, tables) -> root.add(schemaName, new AbstractSchema() {
      @Override
      protected Map<String, Table> getTableMap() {
        return tables;
      }
    }));
    return root;
  }

  /** Maps a JDBC type to the Calcite type used for validation. */
  static RelDataType toCalcite(RelDataTypeFactory tf, BackendColumn c) {
    SqlTypeName name = SqlTypeName.getNameForJdbcType(c.jdbcType());
    RelDataType type;
    if (name == null || c.jdbcType() == Types.OTHER || c.jdbcType() == Types.JAVA_OBJECT) {
      type = tf.createSqlType(SqlTypeName.ANY);
    } else if (name == SqlTypeName.DECIMAL && c.precision() > 0 && c.precision() <= 38) {
      type = tf.createSqlType(name, c.precision(), Math.max(0, c.scale()));
    } else if ((name == SqlTypeName.VARCHAR || name == SqlTypeName.CHAR)
        && c.precision() > 0 && c.precision() <= 65536) {
      type = tf.createSqlType(name, c.precision());
    } else {
      type = tf.createSqlType(name);
    }
    return tf.createTypeWithNullability(type, c.nullable());
  }

  private static final class ColumnsTable extends AbstractTable {
    private final List<BackendColumn> columns;

    ColumnsTable(List<BackendColumn> columns) {
      this.columns = columns;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory tf) {
      RelDataTypeFactory.Builder b = tf.builder();
      for (BackendColumn c : columns) {
        b.add(c.name(), toCalcite(tf, c));
      }
      return b.build();
    }
  }
}
