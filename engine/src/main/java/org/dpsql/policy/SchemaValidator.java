package org.dpsql.policy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Checks a parsed policy against the backend's schema through {@link DatabaseMetaData} and returns
 * it with the backend's spellings, schemas and SQL types.
 */
final class SchemaValidator {
  private static final Set<String> SYSTEM_SCHEMAS =
      Set.of("INFORMATION_SCHEMA", "PG_CATALOG", "SYS", "SYSIBM", "SYSTEM", "MYSQL",
          "PERFORMANCE_SCHEMA");

  private record TableRef(String catalog, String schema, String name) {
    String qualified() {
      return schema == null || schema.isEmpty() ? name : schema + "." + name;
    }
  }

  private record ColumnRef(String name, int type, String typeName, int position) {}

  private final String source;
  private final Connection backend;
  private final PolicyParser parser;
  private DatabaseMetaData metaData;
  private String catalog;
  private String currentSchema;
  private List<TableRef> allTables;

  SchemaValidator(String source, Connection backend) {
    this.source = source;
    this.backend = Objects.requireNonNull(backend, "backend");
    this.parser = new PolicyParser(source);
  }

  Policy validate(Policy policy) throws SQLException {
    try {
      metaData = backend.getMetaData();
      catalog = backend.getCatalog();
      if (catalog != null && catalog.isEmpty()) {
        catalog = null; // "" would mean "tables without a catalog" to getTables
      }
    } catch (SQLException e) {
      throw PolicyProblems.at(source, "", "cannot read the backend schema: " + e.getMessage(), e);
    }
    currentSchema = currentSchema(backend);
    Map<String, TablePolicy> out = new LinkedHashMap<>();
    for (TablePolicy t : policy.tables().values()) {
      TablePolicy checked = table(t, "tables." + t.name());
      out.put(TablePolicy.key(checked.name()), checked);
    }
    checkSharedUnits(out.values(), policy);
    Map<String, AdaptiveTablePolicy> adaptive = new LinkedHashMap<>();
    for (Map.Entry<String, AdaptiveTablePolicy> e : policy.adaptiveTables().entrySet()) {
      adaptive.put(e.getKey(), adaptiveTable(e.getValue(), "adaptive_tables."
          + e.getValue().name(), out));
    }
    return new Policy(policy.allowSeed(), policy.budget(), out, policy.source(), policy.synopses(),
        policy.synopsisStore(), adaptive, policy.limits(), policy.unitBounds());
  }

  /** The backend type of each private table's unit column, by table key, as {@link #table} saw it. */
  private final Map<String, ColumnRef> unitColumns = new LinkedHashMap<>();

  /**
   * Refuses tables that share a unit name but whose unit columns could not be compared without a
   * conversion (a number with text, say): the join on the units would fail or match wrongly.
   */
  private void checkSharedUnits(java.util.Collection<TablePolicy> tables, Policy written)
      throws SQLException {
    Map<String, TablePolicy> firstByUnit = new LinkedHashMap<>();
    for (TablePolicy t : tables) {
      if (t.sharedUnit() == null) {
        continue;
      }
      TablePolicy first = firstByUnit.putIfAbsent(TablePolicy.key(t.sharedUnit()), t);
      if (first == null) {
        continue;
      }
      ColumnRef a = unitColumns.get(TablePolicy.key(first.name()));
      ColumnRef b = unitColumns.get(TablePolicy.key(t.name()));
      if (typeFamily(a.type()) != typeFamily(b.type())) {
        String asWritten = written.table(t.name()).map(TablePolicy::name).orElse(t.name());
        throw problem("tables." + asWritten + ".unit", "shares the unit " + t.sharedUnit()
            + " with " + first.name() + ", but its unit column " + t.name() + "."
            + t.privacyUnit() + " is " + b.typeName() + " and " + first.name() + "."
            + first.privacyUnit() + " is " + a.typeName() + "; tables share a unit only when "
            + "their unit columns hold the same kind of value (both numbers, or both text)");
      }
    }
  }

  /** 0 for numbers, 1 for text, 2 for dates and times, the type itself otherwise. */
  private static int typeFamily(int type) {
    if (ColumnPolicy.isNumericType(type)) {
      return 0;
    }
    return switch (type) {
      case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR,
          Types.LONGNVARCHAR -> 1;
      case Types.DATE, Types.TIMESTAMP, Types.TIME -> 2;
      default -> 1000 + type;
    };
  }

  // ---------------------------------------------------------------- SafeTab adaptive tables

  /**
   * Resolves an adaptive table's tables and columns in the backend, checks the age column is
   * numeric and every declared value fits its column's type (numbers are rewritten in canonical
   * form), refuses tables the policy makes public or protects with another unit, and records
   * whether the backend keeps one persons row per person.
   */
  private AdaptiveTablePolicy adaptiveTable(AdaptiveTablePolicy a, String path,
      Map<String, TablePolicy> tables) throws SQLException {
    String pPath = path + ".persons";
    TableRef persons = resolveTable(a.persons().name(), pPath + ".table");
    List<ColumnRef> pCols = columns(persons, pPath + ".table");
    ColumnRef person = resolveColumn(a.person().name(), pCols, persons, pPath + ".person", "");
    ColumnRef sex = resolveColumn(a.sex().name(), pCols, persons, pPath + ".sex", "");
    ColumnRef age = resolveColumn(a.age().name(), pCols, persons, pPath + ".age", "");
    if (!ColumnPolicy.isNumericType(age.type())) {
      throw problem(pPath + ".age", "the age column must be numeric (years), but "
          + persons.qualified() + "." + age.name() + " is " + age.typeName());
    }
    String iPath = path + ".iterations";
    TableRef mapping = resolveTable(a.iterations().name(), iPath + ".table");
    List<ColumnRef> iCols = columns(mapping, iPath + ".table");
    ColumnRef itPerson = resolveColumn(a.iterationPerson().name(), iCols, mapping,
        iPath + ".person", "");
    ColumnRef iteration = resolveColumn(a.iteration().name(), iCols, mapping,
        iPath + ".iteration", "");
    privateTable(persons, person, tables, pPath + ".table");
    privateTable(mapping, itPerson, tables, iPath + ".table");

    org.dpsql.adaptive.AdaptiveTabulationSpec spec = a.spec();
    List<String> sexes = typed(spec.sexes(), sex, persons, path + ".sexes");
    List<org.dpsql.adaptive.PopulationLevel> levels = new ArrayList<>();
    List<AdaptiveTablePolicy.Column> geoColumns = new ArrayList<>();
    for (int i = 0; i < spec.levels().size(); i++) {
      org.dpsql.adaptive.PopulationLevel l = spec.levels().get(i);
      String lPath = path + ".levels." + l.name();
      AdaptiveTablePolicy.Column g = a.geographyColumns().get(i);
      List<String> geographies = l.geographies();
      if (g != null) {
        ColumnRef geo = resolveColumn(g.name(), pCols, persons, lPath + ".geography", "");
        geographies = typed(geographies, geo, persons, lPath + ".geographies");
        geoColumns.add(new AdaptiveTablePolicy.Column(geo.name(), geo.type()));
      } else {
        geoColumns.add(null);
      }
      List<String> its = typed(l.iterations(), iteration, mapping, lPath + ".iterations");
      java.util.Set<String> totalOnly = new java.util.LinkedHashSet<>();
      for (String t : l.totalOnlyIterations()) {
        totalOnly.add(its.get(l.iterations().indexOf(t)));
      }
      try {
        levels.add(new org.dpsql.adaptive.PopulationLevel(l.name(), l.budget(), l.stability(),
            geographies, its, totalOnly));
      } catch (IllegalArgumentException e) {
        throw problem(lPath, e.getMessage() + " (numbers are compared by value)");
      }
    }
    org.dpsql.adaptive.AdaptiveTabulationSpec checked;
    try {
      checked = new org.dpsql.adaptive.AdaptiveTabulationSpec(spec.mechanism(), levels,
          spec.gamma(), spec.theta1(), spec.theta2(), spec.theta3(), sexes, spec.ageBinnings());
    } catch (IllegalArgumentException e) {
      throw problem(path, e.getMessage() + " (numbers are compared by value)");
    }
    return new AdaptiveTablePolicy(a.name(),
        new AdaptiveTablePolicy.Table(persons.schema(), persons.name()),
        new AdaptiveTablePolicy.Column(person.name(), person.type()),
        new AdaptiveTablePolicy.Column(sex.name(), sex.type()),
        new AdaptiveTablePolicy.Column(age.name(), age.type()),
        new AdaptiveTablePolicy.Table(mapping.schema(), mapping.name()),
        new AdaptiveTablePolicy.Column(itPerson.name(), itPerson.type()),
        new AdaptiveTablePolicy.Column(iteration.name(), iteration.type()),
        geoColumns, a.binLowerYears(), a.finestLowerYears(), a.maxAge(),
        uniqueColumn(persons, person.name()), checked);
  }

  /** Refuses a table the policy makes public, or protects with another privacy unit. */
  private void privateTable(TableRef ref, ColumnRef person, Map<String, TablePolicy> tables,
      String path) throws SQLException {
    for (TablePolicy t : tables.values()) {
      if (t.name().equals(ref.name()) && Objects.equals(t.schema(), ref.schema())) {
        if (t.isPublic()) {
          throw problem(path, ref.qualified() + " is public under tables." + t.name()
              + ": its rows can be read exactly, so tabulating it privately protects nothing; "
              + "make it private or leave it out of tables");
        }
        if (!t.unitIsRow() && !t.privacyUnit().equals(person.name())) {
          throw problem(path, "the adaptive table protects persons identified by "
              + person.name() + ", but tables." + t.name() + ".privacy_unit is "
              + t.privacyUnit() + "; use the same unit");
        }
      }
    }
  }

  /**
   * The declared values in the kind of their column: numbers (canonical plain form, integers for
   * integer columns) for a numeric column, the text as written otherwise.
   */
  private List<String> typed(List<String> values, ColumnRef col, TableRef table, String path)
      throws SQLException {
    if (!ColumnPolicy.isNumericType(col.type())) {
      return values;
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      BigDecimal d;
      try {
        d = new BigDecimal(values.get(i).strip());
      } catch (NumberFormatException e) {
        throw problem(path + "[" + i + "]", "must be a number because " + table.qualified() + "."
            + col.name() + " is " + col.typeName() + ", got '" + values.get(i) + "'");
      }
      if (ColumnPolicy.isIntegerType(col.type())) {
        try {
          d = new BigDecimal(d.toBigIntegerExact());
        } catch (ArithmeticException e) {
          throw problem(path + "[" + i + "]", "must be an integer because " + table.qualified()
              + "." + col.name() + " is " + col.typeName() + ", got " + values.get(i));
        }
      }
      out.add(d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString());
    }
    return out;
  }

  /** Whether the backend declares {@code column} alone a primary key or unique index of the table. */
  private boolean uniqueColumn(TableRef t, String column) {
    try {
      try (ResultSet rs = metaData.getPrimaryKeys(t.catalog(), t.schema(), t.name())) {
        List<String> key = new ArrayList<>();
        while (rs.next()) {
          key.add(rs.getString("COLUMN_NAME"));
        }
        if (key.size() == 1 && key.get(0).equals(column)) {
          return true;
        }
      }
      Map<String, List<String>> indexes = new LinkedHashMap<>();
      try (ResultSet rs = metaData.getIndexInfo(t.catalog(), t.schema(), t.name(), true, true)) {
        while (rs.next()) {
          if (rs.getBoolean("NON_UNIQUE") || rs.getString("COLUMN_NAME") == null) {
            continue;
          }
          indexes.computeIfAbsent(String.valueOf(rs.getString("INDEX_NAME")),
              k -> new ArrayList<>()).add(rs.getString("COLUMN_NAME"));
        }
      }
      for (List<String> cols : indexes.values()) {
        if (cols.size() == 1 && cols.get(0).equals(column)) {
          return true;
        }
      }
    } catch (SQLException | RuntimeException e) {
      return false; // unknown: the engine keeps one row per person itself
    }
    return false;
  }

  private static String currentSchema(Connection c) {
    try {
      return c.getSchema();
    } catch (SQLException | AbstractMethodError e) {
      return null; // drivers before JDBC 4.1, or without schemas
    }
  }

  private TablePolicy table(TablePolicy t, String path) throws SQLException {
    TableRef ref = resolveTable(t.name(), path);
    if (t.isPublic()) {
      return TablePolicy.publicTable(ref.name(), ref.schema());
    }
    List<ColumnRef> backendColumns = columns(ref, path);
    String unit = null;
    if (!t.unitIsRow()) {
      ColumnRef unitColumn = resolveColumn(t.privacyUnit(), backendColumns, ref,
          path + ".privacy_unit", t.privacyUnit() + " ");
      unit = unitColumn.name();
      unitColumns.put(TablePolicy.key(ref.name()), unitColumn);
    }
    Map<String, ColumnPolicy> columns = new LinkedHashMap<>();
    Map<String, ColumnPolicy> byPolicyKey = new LinkedHashMap<>();
    for (Map.Entry<String, ColumnPolicy> entry : t.columns().entrySet()) {
      ColumnPolicy c = entry.getValue();
      String cPath = path + ".columns." + c.name();
      ColumnRef col = resolveColumn(c.name(), backendColumns, ref, cPath, "");
      ColumnPolicy checked = column(c, col, ref, cPath);
      String key = TablePolicy.key(checked.name());
      if (columns.containsKey(key)) {
        throw problem(cPath, "names the same backend column as another entry: "
            + columns.get(key).name());
      }
      columns.put(key, checked);
      byPolicyKey.put(entry.getKey(), checked);
    }
    Map<String, List<String>> hierarchies = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> h : t.hierarchies().entrySet()) {
      List<String> members = new ArrayList<>();
      for (String m : h.getValue()) {
        members.add(byPolicyKey.get(TablePolicy.key(m)).name());
      }
      hierarchies.put(h.getKey(), members);
    }
    Map<String, List<String>> spatial = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> h : t.spatial().entrySet()) {
      List<String> members = new ArrayList<>();
      for (String m : h.getValue()) {
        members.add(byPolicyKey.get(TablePolicy.key(m)).name());
      }
      spatial.put(h.getKey(), members);
    }
    return new TablePolicy(ref.name(), ref.schema(), false, t.unitIsRow(), unit,
        t.maxRowsPerUnit(), columns, hierarchies, t.bounding(), t.answerRange(), spatial,
        t.sharedUnit(), null);
  }

  private ColumnPolicy column(ColumnPolicy c, ColumnRef col, TableRef table, String path)
      throws SQLException {
    String what = table.qualified() + "." + col.name() + " is " + col.typeName();
    boolean numeric = ColumnPolicy.isNumericType(col.type());
    if (c.time().isPresent()) {
      boolean date = col.type() == java.sql.Types.DATE;
      if (!date && col.type() != java.sql.Types.TIMESTAMP) {
        throw problem(path + ".min", "a time domain needs a DATE or TIMESTAMP column (without "
            + "time zone), but " + what);
      }
      if (date && c.time().get().unit() == TimeDomain.Unit.HOUR) {
        throw problem(path + ".bin", "a DATE column holds whole days, so its bins are days or "
            + "longer, but " + what);
      }
    }
    if (c.ordered().isPresent() && !numeric) {
      throw problem(path + ".min", "min/max/bin need a numeric column, but " + what
          + "; use values to list its domain");
    }
    if (c.clamp().isPresent() && !numeric) {
      throw problem(path + ".clamp", "clamp needs a numeric column, but " + what);
    }
    CategoricalDomain domain = null;
    if (c.categorical().isPresent()) {
      List<Object> raw = c.categorical().get().values();
      List<Object> converted = new ArrayList<>();
      String vPath = path + ".values";
      for (int i = 0; i < raw.size(); i++) {
        converted.add(value(raw.get(i), col, what, vPath + "[" + i + "]"));
      }
      parser.checkDistinct(converted, vPath, raw);
      domain = new CategoricalDomain(converted, c.categorical().get().within());
    }
    return c.withBackend(col.name(), col.type(), domain);
  }

  /** One categorical value in the kind of its column. */
  private Object value(Object v, ColumnRef col, String what, String path) throws SQLException {
    if (ColumnPolicy.isNumericType(col.type())) {
      if (v instanceof Boolean) {
        throw problem(path, "must be a number because " + what + ", got boolean " + v);
      }
      BigDecimal d;
      try {
        d = parser.decimal(v, path);
      } catch (SQLException e) {
        throw problem(path, "must be a number because " + what + ", got "
            + PolicyParser.describe(v));
      }
      if (ColumnPolicy.isIntegerType(col.type())) {
        try {
          return new BigDecimal(d.toBigIntegerExact());
        } catch (ArithmeticException e) {
          throw problem(path, "must be an integer because " + what + ", got " + d);
        }
      }
      return d;
    }
    if (col.type() == Types.BOOLEAN || col.type() == Types.BIT) {
      if (v instanceof Boolean) {
        return v;
      }
      if (v instanceof String && ((String) v).strip().matches("(?i)true|false")) {
        return Boolean.valueOf(((String) v).strip());
      }
      throw problem(path, "must be true or false because " + what + ", got "
          + PolicyParser.describe(v));
    }
    if (v instanceof String) {
      return v;
    }
    String hint = v instanceof Boolean
        ? "; YAML reads true/false/yes/no/on/off as booleans, so quote the value"
        : "; write the value in quotes, e.g. '" + PolicyParser.describe(v) + "'";
    throw problem(path, "must be a string because " + what + ", got "
        + (v instanceof Boolean ? "" : "number ") + PolicyParser.describe(v) + hint);
  }

  // ---------------------------------------------------------------- backend lookups

  private List<TableRef> tables(String path) throws SQLException {
    if (allTables == null) {
      List<TableRef> out = new ArrayList<>();
      try (ResultSet rs = metaData.getTables(catalog, null, "%", null)) {
        while (rs.next()) {
          out.add(new TableRef(rs.getString("TABLE_CAT"), rs.getString("TABLE_SCHEM"),
              rs.getString("TABLE_NAME")));
        }
        if (currentSchema != null && out.stream().noneMatch(t -> currentSchema.equals(t.schema()))) {
          // a schema that exists without being listed (Trino's tpch connector answers for
          // tpch.sf10, which SHOW SCHEMAS does not list): its tables, asked for by name
          String escape = metaData.getSearchStringEscape();
          try (ResultSet current = metaData.getTables(catalog, pattern(currentSchema, escape),
              "%", null)) {
            while (current.next()) {
              if (currentSchema.equals(current.getString("TABLE_SCHEM"))) {
                out.add(new TableRef(current.getString("TABLE_CAT"),
                    current.getString("TABLE_SCHEM"), current.getString("TABLE_NAME")));
              }
            }
          }
        }
      } catch (SQLException e) {
        throw PolicyProblems.at(source, path, "cannot list the backend's tables: "
            + e.getMessage(), e);
      }
      allTables = out;
    }
    return allTables;
  }

  private TableRef resolveTable(String name, String path) throws SQLException {
    List<TableRef> all = tables(path);
    List<TableRef> matches = all.stream()
        .filter(t -> t.name().equalsIgnoreCase(name))
        .collect(Collectors.toList());
    if (matches.isEmpty()) {
      List<TableRef> user = all.stream()
          .filter(t -> !isSystemSchema(t.schema()))
          .collect(Collectors.toList());
      Set<String> names = new LinkedHashSet<>();
      user.forEach(t -> names.add(t.name()));
      throw problem(path, "no such table in the backend"
          + PolicyProblems.didYouMean(name, names)
          + "; tables: " + (user.isEmpty() ? "(none)"
              : PolicyProblems.list(user.stream().map(TableRef::qualified)
                  .collect(Collectors.toList()))));
    }
    matches = prefer(matches, t -> currentSchema != null && currentSchema.equals(t.schema()));
    matches = prefer(matches, t -> t.name().equals(name));
    matches = prefer(matches, t -> !isSystemSchema(t.schema()));
    if (matches.size() > 1) {
      // (a table of the current schema would have been preferred above)
      throw problem(path, "ambiguous: the backend has "
          + matches.stream().map(TableRef::qualified).collect(Collectors.joining(", "))
          + (currentSchema != null ? "; the connection's current schema, "
              + currentSchema + ", has no such table (is it the schema you meant?)" : "")
          + "; connect with the intended schema as the current schema");
    }
    return matches.get(0);
  }

  private List<ColumnRef> columns(TableRef t, String path) throws SQLException {
    List<ColumnRef> out = new ArrayList<>();
    String escape;
    try {
      escape = metaData.getSearchStringEscape();
    } catch (SQLException e) {
      escape = null;
    }
    try (ResultSet rs = metaData.getColumns(t.catalog(), pattern(t.schema(), escape),
        pattern(t.name(), escape), "%")) {
      while (rs.next()) {
        if ((t.catalog() == null || t.catalog().equals(rs.getString("TABLE_CAT")))
            && Objects.equals(rs.getString("TABLE_SCHEM"), t.schema())
            && Objects.equals(rs.getString("TABLE_NAME"), t.name())) {
          out.add(new ColumnRef(rs.getString("COLUMN_NAME"), rs.getInt("DATA_TYPE"),
              rs.getString("TYPE_NAME"), rs.getInt("ORDINAL_POSITION")));
        }
      }
    } catch (SQLException e) {
      throw PolicyProblems.at(source, path, "cannot read the columns of " + t.qualified() + ": "
          + e.getMessage(), e);
    }
    out.sort(Comparator.comparingInt(ColumnRef::position));
    return out;
  }

  private ColumnRef resolveColumn(String name, List<ColumnRef> columns, TableRef table,
      String path, String subject) throws SQLException {
    List<ColumnRef> matches = columns.stream()
        .filter(c -> c.name().equalsIgnoreCase(name))
        .collect(Collectors.toList());
    matches = prefer(matches, c -> c.name().equals(name));
    if (matches.isEmpty()) {
      List<String> names = columns.stream().map(ColumnRef::name).collect(Collectors.toList());
      throw problem(path, "no such column " + subject + "in backend table " + table.qualified()
          + PolicyProblems.didYouMean(name, names)
          + " (columns: " + PolicyProblems.list(names) + ")");
    }
    if (matches.size() > 1) {
      throw problem(path, "ambiguous: backend table " + table.qualified() + " has columns "
          + matches.stream().map(ColumnRef::name).collect(Collectors.joining(", "))
          + "; write the exact spelling");
    }
    return matches.get(0);
  }

  private static <T> List<T> prefer(List<T> items, Predicate<T> p) {
    List<T> preferred = items.stream().filter(p).collect(Collectors.toList());
    return preferred.isEmpty() ? items : preferred;
  }

  private static boolean isSystemSchema(String schema) {
    return schema != null && SYSTEM_SCHEMAS.contains(schema.toUpperCase(Locale.ROOT));
  }

  private static String pattern(String name, String escape) {
    if (name == null) {
      return null;
    }
    if (escape == null || escape.isEmpty()) {
      return name; // rows are filtered by exact name afterwards
    }
    return name.replace(escape, escape + escape)
        .replace("_", escape + "_")
        .replace("%", escape + "%");
  }

  private SQLException problem(String path, String reason) {
    return PolicyProblems.at(source, path, reason);
  }
}
