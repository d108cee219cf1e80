package org.dpsql.policy;

import java.util.Objects;
import java.util.Optional;

/**
 * What the data owner declared about one column of a private table: its public domain (categorical,
 * ordered, or a calendar of time bins for a {@code DATE} or {@code TIMESTAMP} column) and/or the
 * clamp bounds used for SUM and AVG.
 *
 * <p>{@code computed} is present for a value the front end computes from a row's columns (an
 * aggregate's argument such as {@code FARE * 1.2}); the policy file declares none.
 *
 * <p>{@code privateKeys} is present for a column declared {@code keys: private}: a group key
 * without a public domain, whose groups are selected privately (see {@link PrivateKeys}).
 *
 * <p>Guarantees: at least one of {@code categorical}, {@code ordered}, {@code clamp}, {@code time},
 * {@code privateKeys} is present, never both {@code categorical} and {@code ordered}, a {@code
 * time} domain comes alone, and private keys come with no domain (a clamp is allowed). After the loader's schema check, {@code name}
 * is the backend's exact spelling, {@code sqlType} the backend's {@link java.sql.Types} code, an
 * ordered domain or a clamp is only on a numeric column, and categorical values have the column's
 * kind (see {@link CategoricalDomain}). A policy parsed without a backend has {@code sqlType}
 * {@link java.sql.Types#OTHER} and names as written in the file.
 */
public record ColumnPolicy(
    String name,
    int sqlType,
    Optional<CategoricalDomain> categorical,
    Optional<OrderedDomain> ordered,
    Optional<Clamp> clamp,
    Optional<ComputedValue> computed,
    Optional<TimeDomain> time,
    Optional<PrivateKeys> privateKeys) {

  /** A column or computed value without private keys. */
  public ColumnPolicy(String name, int sqlType, Optional<CategoricalDomain> categorical,
      Optional<OrderedDomain> ordered, Optional<Clamp> clamp, Optional<ComputedValue> computed,
      Optional<TimeDomain> time) {
    this(name, sqlType, categorical, ordered, clamp, computed, time, Optional.empty());
  }

  /** A column declared {@code keys: private}, with an optional clamp for SUM and AVG. */
  public static ColumnPolicy ofPrivateKeys(String name, int sqlType, PrivateKeys keys,
      Optional<Clamp> clamp) {
    return new ColumnPolicy(name, sqlType, Optional.empty(), Optional.empty(), clamp,
        Optional.empty(), Optional.empty(), Optional.of(keys));
  }

  /** A column of the table or a computed value, without a time domain. */
  public ColumnPolicy(String name, int sqlType, Optional<CategoricalDomain> categorical,
      Optional<OrderedDomain> ordered, Optional<Clamp> clamp, Optional<ComputedValue> computed) {
    this(name, sqlType, categorical, ordered, clamp, computed, Optional.empty());
  }

  /** A {@code DATE} or {@code TIMESTAMP} column with a time domain (see {@link TimeDomain}). */
  public static ColumnPolicy ofTime(String name, int sqlType, TimeDomain time) {
    return new ColumnPolicy(name, sqlType, Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.of(time));
  }

  /** A column of the table (not computed). */
  public ColumnPolicy(String name, int sqlType, Optional<CategoricalDomain> categorical,
      Optional<OrderedDomain> ordered, Optional<Clamp> clamp) {
    this(name, sqlType, categorical, ordered, clamp, Optional.empty());
  }

  /**
   * A value computed from a row's columns (an aggregate's argument, see {@link ComputedValue}),
   * measured as if it were a column named {@code name} clamped to {@code bounds}.
   */
  public static ColumnPolicy ofComputed(String name, int sqlType, Clamp bounds,
      ComputedValue value) {
    return new ColumnPolicy(name, sqlType, Optional.empty(), Optional.empty(),
        Optional.of(bounds), Optional.of(value));
  }

  /** Checks the invariants. */
  public ColumnPolicy {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(computed, "computed");
    Objects.requireNonNull(categorical, "categorical");
    Objects.requireNonNull(ordered, "ordered");
    Objects.requireNonNull(clamp, "clamp");
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(privateKeys, "privateKeys");
    if (privateKeys.isPresent() && (categorical.isPresent() || ordered.isPresent()
        || time.isPresent())) {
      throw new IllegalArgumentException(
          "column " + name + " has private keys and so no public domain");
    }
    if (time.isPresent() && (categorical.isPresent() || ordered.isPresent() || clamp.isPresent())) {
      throw new IllegalArgumentException(
          "column " + name + " has a time domain and so no other domain or clamp");
    }
    if (categorical.isPresent() && ordered.isPresent()) {
      throw new IllegalArgumentException(
          "column " + name + " cannot have both a categorical and an ordered domain");
    }
    if (categorical.isEmpty() && ordered.isEmpty() && clamp.isEmpty() && time.isEmpty()
        && privateKeys.isEmpty()) {
      throw new IllegalArgumentException("column " + name + " needs a domain or a clamp");
    }
  }

  /**
   * Whether the column has a public domain (categorical, ordered or time) and so can be a group
   * key.
   */
  public boolean hasDomain() {
    return categorical.isPresent() || ordered.isPresent() || time.isPresent();
  }

  /**
   * Whether the column is declared {@code keys: private}: a group key whose groups are selected
   * privately from the data rather than listed by the policy.
   */
  public boolean hasPrivateKeys() {
    return privateKeys.isPresent();
  }

  /**
   * The number of cells of the column's domain: the number of values of a categorical domain, the
   * number of bins of an ordered or time one, 0 when the column has only a clamp.
   */
  public int domainSize() {
    if (categorical.isPresent()) {
      return categorical.get().size();
    }
    if (time.isPresent()) {
      return time.get().cells();
    }
    return ordered.map(OrderedDomain::cells).orElse(0);
  }

  /**
   * Whether {@code sqlType} is numeric: {@link java.sql.Types} TINYINT, SMALLINT, INTEGER, BIGINT,
   * REAL, FLOAT, DOUBLE, NUMERIC or DECIMAL.
   */
  public boolean isNumeric() {
    return isNumericType(sqlType);
  }

  /** Whether the {@link java.sql.Types} code is in the numeric family. */
  public static boolean isNumericType(int sqlType) {
    switch (sqlType) {
      case java.sql.Types.TINYINT:
      case java.sql.Types.SMALLINT:
      case java.sql.Types.INTEGER:
      case java.sql.Types.BIGINT:
      case java.sql.Types.REAL:
      case java.sql.Types.FLOAT:
      case java.sql.Types.DOUBLE:
      case java.sql.Types.NUMERIC:
      case java.sql.Types.DECIMAL:
        return true;
      default:
        return false;
    }
  }

  /** Whether the {@link java.sql.Types} code is an exact integer type. */
  public static boolean isIntegerType(int sqlType) {
    return sqlType == java.sql.Types.TINYINT
        || sqlType == java.sql.Types.SMALLINT
        || sqlType == java.sql.Types.INTEGER
        || sqlType == java.sql.Types.BIGINT;
  }

  /** This column under another name (a column of a {@link UnitJoin} relation). */
  public ColumnPolicy renamed(String newName) {
    return new ColumnPolicy(newName, sqlType, categorical, ordered, clamp, computed, time,
        privateKeys);
  }

  /** This column with another name and SQL type (used when resolving against the backend). */
  ColumnPolicy withBackend(String backendName, int backendType, CategoricalDomain domain) {
    return new ColumnPolicy(backendName, backendType, Optional.ofNullable(domain), ordered, clamp,
        computed, time, privateKeys);
  }
}
