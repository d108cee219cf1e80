package org.dpsql.policy;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A categorical public domain: the complete, ordered list of values a column may take, declared by
 * the data owner. Every value is a group (cell) of its own, so group presence reveals nothing.
 *
 * <p>Guarantees: the list is non-empty, unmodifiable, free of nulls and duplicates (numbers are
 * compared by value, so 1 and 1.0 are the same value). After the loader has checked the policy
 * against the backend, values are {@link java.math.BigDecimal} for numeric columns, {@link
 * Boolean} for boolean columns and {@link String} otherwise. A domain nested in a hierarchy's
 * coarser level ({@code within}) says which coarser value each of its values lies in: the data
 * owner's declaration, from which the cells a (coarse, fine) pair can never hold follow.
 */
public record CategoricalDomain(List<Object> values, List<Object> within) {

  /** A domain whose values are not nested in a coarser column's. */
  public CategoricalDomain(List<Object> values) {
    this(values, null);
  }

  /**
   * Copies the values and checks they are non-empty and free of nulls; {@code within}, when not
   * null, gives for each value the value of the hierarchy's level above that it lies in (the
   * policy's {@code values: {NY: [Kings, ...], ...}}), as written.
   */
  public CategoricalDomain {
    Objects.requireNonNull(values, "values");
    values = List.copyOf(values);
    if (within != null) {
      within = List.copyOf(within);
      if (within.size() != values.size()) {
        throw new IllegalArgumentException("one parent value per value");
      }
    }
    if (values.isEmpty()) {
      throw new IllegalArgumentException("a categorical domain needs at least one value");
    }
    Set<Object> seen = new HashSet<>();
    for (Object v : values) {
      Object k = v instanceof BigDecimal ? normalize((BigDecimal) v) : v;
      if (!seen.add(k)) {
        throw new IllegalArgumentException("duplicate value " + v + " in a categorical domain");
      }
    }
  }

  /** A number's value without its scale, so that 1 and 1.0 compare equal. */
  static BigDecimal normalize(BigDecimal v) {
    return v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros();
  }

  /** Whether the values are declared nested in the values of the hierarchy's level above. */
  public boolean isNested() {
    return within != null;
  }

  /** The number of cells, one per value. */
  public int size() {
    return values.size();
  }
}
