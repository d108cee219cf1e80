package org.dpsql.policy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the data owner declared about one table: either it is public (any read-only SQL passes
 * through) or it is private, with a privacy unit, a contribution bound and the columns that may be
 * used.
 *
 * <p>Guarantees: a public table has no unit ({@code privacyUnit} null, {@code maxRowsPerUnit} 0),
 * no columns and no hierarchies. A private table either has {@code unitIsRow} (each row is its own
 * unit, {@code privacyUnit} null, {@code maxRowsPerUnit} 1) or names a privacy-unit column with
 * {@code maxRowsPerUnit >= 1}. Column and hierarchy maps are unmodifiable, keyed by upper-cased
 * name, in policy order; every hierarchy member is a column of this table with a domain, and every
 * spatial index names two columns with ordered domains (x, then y). {@code sharedUnit} (policy
 * key {@code unit:}, null when absent) names the kind of person the unit is, so that private
 * tables with the same shared unit can be joined on their units; {@code join} is non-null only
 * for such a join seen as one private table ({@link UnitJoin#relation}). After the
 * loader's schema check, {@code name}, {@code schema}, {@code privacyUnit} and column names have
 * the backend's exact spelling.
 */
public record TablePolicy(
    String name,
    String schema,
    boolean isPublic,
    boolean unitIsRow,
    String privacyUnit,
    int maxRowsPerUnit,
    Map<String, ColumnPolicy> columns,
    Map<String, List<String>> hierarchies,
    Bounding bounding,
    AnswerRange answerRange,
    Map<String, List<String>> spatial,
    String sharedUnit,
    UnitJoin join) {

  /** The most grid cells of a spatial index ({@code spatial:}, x bins × y bins). */
  public static final long MAX_SPATIAL_CELLS = 4_194_304L;

  /** A table of the backend (not a join) without a shared unit name. */
  public TablePolicy(String name, String schema, boolean isPublic, boolean unitIsRow,
      String privacyUnit, int maxRowsPerUnit, Map<String, ColumnPolicy> columns,
      Map<String, List<String>> hierarchies, Bounding bounding, AnswerRange answerRange,
      Map<String, List<String>> spatial) {
    this(name, schema, isPublic, unitIsRow, privacyUnit, maxRowsPerUnit, columns, hierarchies,
        bounding, answerRange, spatial, null, null);
  }

  /** A table without spatial indexes. */
  public TablePolicy(String name, String schema, boolean isPublic, boolean unitIsRow,
      String privacyUnit, int maxRowsPerUnit, Map<String, ColumnPolicy> columns,
      Map<String, List<String>> hierarchies, Bounding bounding, AnswerRange answerRange) {
    this(name, schema, isPublic, unitIsRow, privacyUnit, maxRowsPerUnit, columns, hierarchies,
        bounding, answerRange, Map.of());
  }

  /** A table with the default {@link Bounding#PER_QUERY} contribution bounding. */
  public TablePolicy(String name, String schema, boolean isPublic, boolean unitIsRow,
      String privacyUnit, int maxRowsPerUnit, Map<String, ColumnPolicy> columns,
      Map<String, List<String>> hierarchies) {
    this(name, schema, isPublic, unitIsRow, privacyUnit, maxRowsPerUnit, columns, hierarchies,
        Bounding.PER_QUERY, null);
  }

  /** Copies the maps and checks the invariants. */
  public TablePolicy {
    Objects.requireNonNull(bounding, "bounding");
    Objects.requireNonNull(name, "name");
    columns = Collections.unmodifiableMap(new LinkedHashMap<>(columns));
    Map<String, List<String>> h = new LinkedHashMap<>();
    hierarchies.forEach((k, v) -> h.put(k, List.copyOf(v)));
    hierarchies = Collections.unmodifiableMap(h);
    Map<String, List<String>> sp = new LinkedHashMap<>();
    spatial.forEach((k, v) -> sp.put(k, List.copyOf(v)));
    spatial = Collections.unmodifiableMap(sp);
    if (isPublic) {
      if (unitIsRow || privacyUnit != null || maxRowsPerUnit != 0
          || !columns.isEmpty() || !hierarchies.isEmpty() || !spatial.isEmpty()) {
        throw new IllegalArgumentException("public table " + name + " takes no other settings");
      }
    } else if (unitIsRow) {
      if (privacyUnit != null || maxRowsPerUnit != 1) {
        throw new IllegalArgumentException(
            "table " + name + ": a ROW unit has no unit column and one row per unit");
      }
    } else if (privacyUnit == null || maxRowsPerUnit < 1) {
      throw new IllegalArgumentException(
          "table " + name + " needs a privacy-unit column and max_rows_per_unit >= 1");
    }
    if ((isPublic || unitIsRow) && sharedUnit != null) {
      throw new IllegalArgumentException(
          "table " + name + ": only a table with a privacy-unit column shares a unit");
    }
    if (join != null && sharedUnit == null) {
      throw new IllegalArgumentException("the unit join " + name + " needs its shared unit");
    }
    for (Map.Entry<String, List<String>> e : hierarchies.entrySet()) {
      for (String member : e.getValue()) {
        ColumnPolicy c = columns.get(key(member));
        if (c == null || !c.hasDomain()) {
          throw new IllegalArgumentException(
              "hierarchy " + e.getKey() + " names " + member + ", not a column with a domain");
        }
      }
    }
    for (Map.Entry<String, List<String>> e : spatial.entrySet()) {
      if (e.getValue().size() != 2) {
        throw new IllegalArgumentException("spatial index " + e.getKey() + " needs two columns");
      }
      for (String member : e.getValue()) {
        ColumnPolicy c = columns.get(key(member));
        if (c == null || c.ordered().isEmpty()) {
          throw new IllegalArgumentException(
              "spatial index " + e.getKey() + " names " + member + ", not an ordered column");
        }
      }
    }
  }

  /** The spatial index named {@code name}: its x and y columns, compared case-insensitively. */
  public Optional<List<String>> spatialIndex(String name) {
    return name == null ? Optional.empty() : Optional.ofNullable(spatial.get(key(name)));
  }

  /** A public table: any read-only SQL on it passes through. */
  public static TablePolicy publicTable(String name, String schema) {
    return new TablePolicy(name, schema, true, false, null, 0, Map.of(), Map.of());
  }

  /**
   * This table with {@code columns} instead of its own (the columns a query adds for the analysis:
   * public lookups, derived and computed columns, keyed as {@link #column} looks them up).
   */
  public TablePolicy withColumns(Map<String, ColumnPolicy> columns) {
    return new TablePolicy(name, schema, isPublic, unitIsRow, privacyUnit, maxRowsPerUnit, columns,
        hierarchies, bounding, answerRange, spatial, sharedUnit, join);
  }

  /** This table with the shared unit name {@code unit} (policy key {@code unit:}). */
  public TablePolicy withSharedUnit(String unit) {
    return new TablePolicy(name, schema, isPublic, unitIsRow, privacyUnit, maxRowsPerUnit, columns,
        hierarchies, bounding, answerRange, spatial, unit, join);
  }

  /** The column named {@code name}, compared case-insensitively. */
  public Optional<ColumnPolicy> column(String name) {
    return name == null ? Optional.empty() : Optional.ofNullable(columns.get(key(name)));
  }

  /** The hierarchy named {@code name} (coarse to fine), compared case-insensitively. */
  public Optional<List<String>> hierarchy(String name) {
    return name == null ? Optional.empty() : Optional.ofNullable(hierarchies.get(key(name)));
  }

  /** {@code schema.name}, or {@code name} when the backend has no schema. */
  public String qualifiedName() {
    return schema == null || schema.isEmpty() ? name : schema + "." + name;
  }

  /** The key under which names are stored in the policy's maps. */
  static String key(String name) {
    return name.toUpperCase(Locale.ROOT);
  }
}
