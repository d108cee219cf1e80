package org.dpsql.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The join of private tables that protect the same kind of person (the same {@code unit:} name in
 * the policy), on their privacy-unit columns, seen as one private table: its rows are the join's
 * rows, its privacy unit is the shared unit, its columns are the members' policy columns.
 *
 * <p>Why it is one private relation with the members' unit: every join condition equates the unit
 * columns of two members, so the member rows that make up one row of the join (those not
 * null-extended by an outer join) all carry the same unit value, and the row belongs to exactly
 * that person (the relation's unit column is that value: the first member's unit, or with outer
 * joins the first non-null one). Whether a person's row is matched or null-extended depends only
 * on that person's rows in the other tables. Adding or removing one person therefore adds or
 * removes exactly the join rows of that person and changes no row of anyone else: the join is a
 * stable transformation from the members' neighbouring relation (add/remove one unit's rows) to
 * the same relation on the join, whatever its fan-out. Contribution bounding is then applied to
 * the join's rows ({@link TablePolicy#maxRowsPerUnit} of this relation: the policy's {@code units:}
 * bound, else the largest of the members' bounds), so one person still changes at most {@code k}
 * rows of anything measured, and every sensitivity derived for a single table with bound {@code
 * k} holds unchanged.
 *
 * <p>Guarantees: at least two distinct private members, each with a privacy-unit column and the
 * same shared unit; member {@code i ≥ 1} is joined to the members before it by {@code links[i-1]}
 * (its kind, and the earlier member whose unit it equals), a left-deep join; every column of the
 * relation maps to one member column; column names that occur in more than one member are
 * qualified by their table ({@code RIDERS.REGION}), the others keep their name.
 */
public record UnitJoin(List<TablePolicy> members, List<Link> links, Map<String, Source> columns) {
  // columns: the relation's column names as spelled (the unit column included), in order

  /** The kinds of join, as SQL writes them before {@code JOIN}. */
  public enum Kind { INNER, LEFT, RIGHT, FULL }

  /**
   * How one member joins the members before it: {@code kind}, on its unit being equal to the unit
   * of member {@code target}.
   */
  public record Link(Kind kind, int target) {}

  /** Where a column of the relation comes from: a member (by index) and its column there. */
  public record Source(int member, String column) {}

  /** Copies the lists and checks the links. */
  public UnitJoin {
    members = List.copyOf(members);
    links = List.copyOf(links);
    columns = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(columns));
    if (links.size() != members.size() - 1) {
      throw new IllegalArgumentException("one link per member after the first");
    }
    for (int i = 0; i < links.size(); i++) {
      if (links.get(i).target() < 0 || links.get(i).target() > i) {
        throw new IllegalArgumentException("member " + (i + 1) + " must join an earlier member");
      }
    }
  }

  /**
   * Whether member {@code i}'s row may be missing (null-extended) in a row of the join: it is
   * joined by a {@code LEFT} or {@code FULL} join, or a later {@code RIGHT} or {@code FULL} join
   * null-extends the tables before it. A member that is never missing has the relation's unit as
   * its unit; a member that may be has its own unit column in the relation ({@code
   * RIDERS.RIDER_ID}), NULL where it is missing.
   */
  public boolean nullable(int i) {
    boolean[] missing = new boolean[members.size()];
    for (int m = 1; m < members.size(); m++) {
      Kind kind = links.get(m - 1).kind();
      if (kind == Kind.RIGHT || kind == Kind.FULL) {
        for (int before = 0; before < m; before++) {
          missing[before] = true;
        }
      }
      missing[m] = kind == Kind.LEFT || kind == Kind.FULL;
    }
    return missing[i];
  }

  /** Whether a member is joined by an outer join (rows may be null-extended). */
  public boolean outer() {
    return links.stream().anyMatch(l -> l.kind() != Kind.INNER);
  }

  /**
   * The join of {@code members} (in this order, linked by {@code links}) as a private table, with
   * contribution bound {@code bound}, or the largest of the members' bounds when {@code bound} is
   * null.
   *
   * @throws IllegalArgumentException when the members are not distinct private tables with the
   *     same shared unit
   */
  public static TablePolicy relation(List<TablePolicy> members, List<Link> links, Integer bound) {
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
    // the unit column of each member an outer join may null-extend (not a policy column)
    UnitJoin shape = new UnitJoin(members, links, sources);
    for (int i = 0; i < members.size(); i++) {
      if (shape.nullable(i)) {
        sources.put(members.get(i).name() + "." + members.get(i).privacyUnit(),
            new Source(i, members.get(i).privacyUnit()));
      }
    }
    int k = bound != null ? bound
        : members.stream().mapToInt(TablePolicy::maxRowsPerUnit).max().orElseThrow();
    UnitJoin join = new UnitJoin(members, links, sources);
    return new TablePolicy(join.name(), first.schema(), false, false, unitName, k, columns,
        hierarchies, Bounding.PER_QUERY, null, spatial, unit, join);
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

  /**
   * The relation's name: the members' names joined as SQL would join them, {@code TRIPS JOIN
   * RIDERS}, {@code TRIPS LEFT JOIN RIDERS}, with {@code ON <member>} when a member is joined to
   * another than the first.
   */
  public String name() {
    StringBuilder b = new StringBuilder(members.get(0).name());
    for (int i = 1; i < members.size(); i++) {
      Link l = links.get(i - 1);
      b.append(l.kind() == Kind.INNER ? " " : " " + l.kind() + " ").append("JOIN ")
          .append(members.get(i).name());
      if (l.target() != 0) {
        b.append(" ON ").append(members.get(l.target()).name());
      }
    }
    return b.toString();
  }

  /** A relation's name read back: the member names, and the links after the first. */
  record Written(List<String> members, List<Kind> kinds, List<String> targets) {}

  private static final java.util.regex.Pattern PART = java.util.regex.Pattern.compile(
      "(?i)^(?:(LEFT|RIGHT|FULL) )?JOIN (\\S+)(?: ON (\\S+))?$");

  /** The members and links a relation's name lists, or empty when {@code name} names no join. */
  static Optional<Written> written(String name) {
    String[] parts = name.strip().split("(?i)(?<!LEFT|RIGHT|FULL) (?=(?:(?:LEFT|RIGHT|FULL) )?JOIN )");
    if (parts.length < 2 || parts[0].contains(" ")) {
      return Optional.empty();
    }
    List<String> members = new ArrayList<>(List.of(parts[0]));
    List<Kind> kinds = new ArrayList<>();
    List<String> targets = new ArrayList<>();
    for (int i = 1; i < parts.length; i++) {
      java.util.regex.Matcher m = PART.matcher(parts[i]);
      if (!m.matches()) {
        return Optional.empty();
      }
      kinds.add(m.group(1) == null ? Kind.INNER
          : Kind.valueOf(m.group(1).toUpperCase(Locale.ROOT)));
      members.add(m.group(2));
      targets.add(m.group(3));
    }
    return Optional.of(new Written(members, kinds, targets));
  }

  /**
   * The join as a derived table of the backend's dialect, aliased {@code DPSQL_J}: {@code (SELECT
   * J0.unit AS unit, J0.col AS col, ..., J1.col AS "RIDERS.col" FROM t0 J0 [LEFT] JOIN t1 J1 ON
   * J1.unit = J0.unit ...) DPSQL_J}, its columns named as the relation's; with outer joins the
   * unit column is the first non-null unit of the row's members.
   */
  public String fromSql(SqlDialect dialect) {
    List<String> select = new ArrayList<>();
    for (String name : columns.keySet()) {
      select.add(flatColumn(name).toSqlString(dialect).getSql() + " AS "
          + dialect.quoteIdentifier(name));
    }
    return "(SELECT " + String.join(", ", select) + " FROM " + flatFromSql(dialect) + ") "
        + dialect.quoteIdentifier("DPSQL_J");
  }

  /**
   * The join without a derived table around it: {@code t0 J0 [LEFT] JOIN t1 J1 ON J1.unit =
   * J0.unit ...}, the rows of {@link #fromSql}, whose columns {@link #flatColumn} reads. A
   * filter written over these columns is the same filter as over the derived table's (both are
   * applied to the join's rows, after the join), and spares an embedded backend a second row per
   * row of the join.
   */
  public String flatFromSql(SqlDialect dialect) {
    StringBuilder sql = new StringBuilder();
    for (int i = 0; i < members.size(); i++) {
      TablePolicy m = members.get(i);
      if (i > 0) {
        Kind kind = links.get(i - 1).kind();
        sql.append(kind == Kind.INNER ? " JOIN " : " " + kind + " JOIN ");
      }
      sql.append(m.schema() == null ? "" : dialect.quoteIdentifier(m.schema()) + ".")
          .append(dialect.quoteIdentifier(m.name())).append(' ').append(alias(i, dialect));
      if (i > 0) {
        int target = links.get(i - 1).target();
        sql.append(" ON ").append(alias(i, dialect)).append('.')
            .append(dialect.quoteIdentifier(m.privacyUnit())).append(" = ")
            .append(alias(target, dialect)).append('.')
            .append(dialect.quoteIdentifier(members.get(target).privacyUnit()));
      }
    }
    return sql.toString();
  }

  /**
   * The expression that reads the relation's column {@code name} (as spelled in {@link
   * #columns()}, else the one column whose name equals it ignoring case) in {@link #flatFromSql}:
   * its member's column qualified by the member's alias ({@code J1.PLAN}); the relation's unit
   * column with outer joins is the first non-null unit of the row's members. Null when the
   * relation has no such column.
   */
  public SqlNode flatColumn(String name) {
    String key = name;
    Source s = columns.get(name);
    if (s == null) {
      for (Map.Entry<String, Source> e : columns.entrySet()) {
        if (e.getKey().equalsIgnoreCase(name)) {
          if (s != null) {
            return null; // two columns differ only in case: not resolved here
          }
          s = e.getValue();
          key = e.getKey();
        }
      }
      if (s == null) {
        return null;
      }
    }
    boolean unit = s.member() == 0 && s.column().equals(members.get(0).privacyUnit())
        && key.equals(relationUnit());
    if (unit && outer()) {
      List<SqlNode> units = new ArrayList<>();
      for (int i = 0; i < members.size(); i++) {
        units.add(memberColumn(i, members.get(i).privacyUnit()));
      }
      return SqlStdOperatorTable.COALESCE.createCall(SqlParserPos.ZERO, units);
    }
    return memberColumn(s.member(), s.column());
  }

  private static SqlIdentifier memberColumn(int member, String column) {
    return new SqlIdentifier(List.of("J" + member, column), SqlParserPos.ZERO);
  }

  /** The name of the relation's unit column (the first member's unit, maybe qualified). */
  public String relationUnit() {
    for (Map.Entry<String, Source> e : columns.entrySet()) {
      Source s = e.getValue();
      if (s.member() == 0 && s.column().equals(members.get(0).privacyUnit())) {
        return e.getKey(); // member 0's own column, when it may be missing, comes later
      }
    }
    throw new IllegalStateException("no unit column");
  }

  private static String alias(int member, SqlDialect dialect) {
    return dialect.quoteIdentifier("J" + member);
  }
}
