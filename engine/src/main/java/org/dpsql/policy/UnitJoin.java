package org.dpsql.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.sql.SqlDialect;

/**
 * The inner join of private tables that protect the same kind of person (the same {@code unit:}
 * name in the policy), on their privacy-unit columns, seen as one private table: its rows are the
 * join's rows, its privacy unit is the shared unit, its columns are the members' policy columns.
 *
 * <p>Why it is one private relation with the members' unit: a row of the join pairs rows of the
 * members whose unit values are equal, so every row of the join belongs to exactly one person.
 * Adding or removing one person adds or removes that person's rows in every member table, and so
 * exactly the join rows that carry that person's unit value, and no row of anyone else. The
 * join is therefore a stable transformation from the members' neighbouring relation (add/remove
 * one unit's rows) to the same relation on the join, whatever its fan-out; contribution bounding
 * is then applied to the join's rows ({@link TablePolicy#maxRowsPerUnit} of this relation: the
 * policy's {@code units:} bound, else the largest of the members' bounds), so one person still
 * changes at most {@code k} rows of anything measured, and every sensitivity derived for a single
 * table with bound {@code k} holds unchanged.
 *
 * <p>Guarantees: at least two distinct private members, each with a privacy-unit column and the
 * same shared unit; every column of the relation maps to one member column; column names that
 * occur in more than one member are qualified by their table ({@code RIDERS.REGION}), the others
 * keep their name; the first member's unit column is the relation's unit.
 */
public record UnitJoin(List<TablePolicy> members, Map<String, Source> columns) {
  // columns: the relation's column names as spelled (the unit column included), in order
  /** The words between the members' names in the relation's name. */
  public static final String SEPARATOR = " JOIN ";

  /** Where a column of the relation comes from: a member (by index) and its column there. */
  public record Source(int member, String column) {}

  /** Copies the lists. */
  public UnitJoin {
    members = List.copyOf(members);
    columns = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(columns));
  }

  /**
   * The join of {@code members} (in this order) as a private table, with contribution bound
   * {@code bound}, or the largest of the members' bounds when {@code bound} is null.
   *
   * @throws IllegalArgumentException when the members are not distinct private tables with the
   *     same shared unit
   */
  public static TablePolicy relation(List<TablePolicy> members, Integer bound) {
    if (members.size() < 2) {
      throw new IllegalArgumentException("a unit join needs two tables or more");
    }
    String unit = members.get(0).sharedUnit();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (TablePolicy m : members) {
      if (m.isPublic() || m.unitIsRow() || m.sharedUnit() == null
          || !m.sharedUnit().equalsIgnoreCase(unit) || m.join() != null) {
        throw new IllegalArgumentException(m.name() + " does not share the unit " + unit);
      }
      if (!seen.add(TablePolicy.key(m.qualifiedName()))) {
        throw new IllegalArgumentException(m.name() + " appears twice");
      }
    }
    Map<String, Integer> occurrences = new HashMap<>();
    for (TablePolicy m : members) {
      for (ColumnPolicy c : m.columns().values()) {
        occurrences.merge(TablePolicy.key(c.name()), 1, Integer::sum);
      }
    }
    TablePolicy first = members.get(0);
    // the unit column keeps its name unless a policy column of another member has it
    occurrences.merge(TablePolicy.key(first.privacyUnit()), 1, Integer::sum);
    Map<String, Source> sources = new LinkedHashMap<>();
    Map<String, ColumnPolicy> columns = new LinkedHashMap<>();
    Map<String, List<String>> hierarchies = new LinkedHashMap<>();
    Map<String, List<String>> spatial = new LinkedHashMap<>();
    String unitName = first.privacyUnit();
    for (int i = 0; i < members.size(); i++) {
      TablePolicy m = members.get(i);
      Map<String, String> renamed = new HashMap<>();
      for (ColumnPolicy c : m.columns().values()) {
        String name = occurrences.get(TablePolicy.key(c.name())) > 1
            ? m.name() + "." + c.name() : c.name();
        renamed.put(TablePolicy.key(c.name()), name);
        sources.put(name, new Source(i, c.name()));
        columns.put(TablePolicy.key(name), c.renamed(name));
      }
      if (i == 0) {
        if (occurrences.get(TablePolicy.key(unitName)) > 1) {
          unitName = m.name() + "." + unitName;
        }
        sources.put(unitName, new Source(0, first.privacyUnit()));
      }
      for (Map.Entry<String, List<String>> h : m.hierarchies().entrySet()) {
        String key = hierarchies.containsKey(h.getKey()) || clashes(members, i, h.getKey(), true)
            ? TablePolicy.key(m.name() + "." + h.getKey()) : h.getKey();
        hierarchies.put(key, h.getValue().stream()
            .map(c -> renamed.get(TablePolicy.key(c))).toList());
      }
      for (Map.Entry<String, List<String>> s : m.spatial().entrySet()) {
        String key = spatial.containsKey(s.getKey()) || clashes(members, i, s.getKey(), false)
            ? TablePolicy.key(m.name() + "." + s.getKey()) : s.getKey();
        spatial.put(key, s.getValue().stream().map(c -> renamed.get(TablePolicy.key(c))).toList());
      }
    }
    int k = bound != null ? bound
        : members.stream().mapToInt(TablePolicy::maxRowsPerUnit).max().orElseThrow();
    return new TablePolicy(name(members), first.schema(), false, false, unitName, k, columns,
        hierarchies, Bounding.PER_QUERY, null, spatial, unit,
        new UnitJoin(members, sources));
  }

  /** Whether another member has a hierarchy (or spatial index) named {@code name}. */
  private static boolean clashes(List<TablePolicy> members, int self, String name,
      boolean hierarchy) {
    for (int j = 0; j < members.size(); j++) {
      TablePolicy o = members.get(j);
      if (j != self && (hierarchy ? o.hierarchy(name) : o.spatialIndex(name)).isPresent()) {
        return true;
      }
    }
    return false;
  }

  /** The relation's name: the members' names joined by {@link #SEPARATOR}. */
  public static String name(List<TablePolicy> members) {
    return String.join(SEPARATOR, members.stream().map(TablePolicy::name).toList());
  }

  /** The member names a relation's name lists, or empty when {@code name} names no join. */
  static Optional<List<String>> memberNames(String name) {
    if (!name.toUpperCase(Locale.ROOT).contains(SEPARATOR)) {
      return Optional.empty();
    }
    List<String> out = new ArrayList<>();
    for (String part : name.split("(?i)" + SEPARATOR)) {
      out.add(part.strip());
    }
    return Optional.of(out);
  }

  /**
   * The join as a derived table of the backend's dialect, aliased {@code DPSQL_J}: {@code (SELECT
   * J0.unit AS unit, J0.col AS col, ..., J1.col AS "RIDERS.col" FROM t0 J0 JOIN t1 J1 ON J1.unit =
   * J0.unit ...) DPSQL_J}, its columns named as the relation's.
   */
  public String fromSql(SqlDialect dialect) {
    List<String> select = new ArrayList<>();
    for (Map.Entry<String, Source> e : columns.entrySet()) {
      Source s = e.getValue();
      select.add(alias(s.member(), dialect) + "." + dialect.quoteIdentifier(s.column()) + " AS "
          + dialect.quoteIdentifier(e.getKey()));
    }
    StringBuilder sql = new StringBuilder("(SELECT ").append(String.join(", ", select))
        .append(" FROM ");
    for (int i = 0; i < members.size(); i++) {
      TablePolicy m = members.get(i);
      if (i > 0) {
        sql.append(" JOIN ");
      }
      sql.append(m.schema() == null ? "" : dialect.quoteIdentifier(m.schema()) + ".")
          .append(dialect.quoteIdentifier(m.name())).append(' ').append(alias(i, dialect));
      if (i > 0) {
        sql.append(" ON ").append(alias(i, dialect)).append('.')
            .append(dialect.quoteIdentifier(m.privacyUnit())).append(" = ")
            .append(alias(0, dialect)).append('.')
            .append(dialect.quoteIdentifier(members.get(0).privacyUnit()));
      }
    }
    return sql.append(") ").append(dialect.quoteIdentifier("DPSQL_J")).toString();
  }

  private static String alias(int member, SqlDialect dialect) {
    return dialect.quoteIdentifier("J" + member);
  }
}
