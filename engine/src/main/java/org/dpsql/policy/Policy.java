package org.dpsql.policy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A data owner's privacy policy: the budget, whether a fixed noise seed is allowed, and the tables
 * an analyst may reach. Tables the policy does not name are not reachable.
 *
 * <p>Guarantees: immutable; {@code tables} is keyed by upper-cased table name in policy order and
 * {@link #table} looks names up case-insensitively. A policy returned by {@link
 * PolicyLoader#load} has been checked in full against the backend's schema; one returned by {@link
 * PolicyLoader#parse} only against the rules of the file format.
 *
 * <p>{@code synopses} are the owner's published releases ({@link SynopsisSpec}), keyed by
 * upper-cased name; {@code synopsisStore} is the directory where their releases are kept (null
 * when the policy has none: the default is the policy file's directory).
 *
 * <p>{@code adaptiveTables} are the owner's SafeTab tabulations ({@link AdaptiveTablePolicy}),
 * keyed by upper-cased name in policy order.
 *
 * <p>{@code limits} are the owner's statement timeout and cell limit ({@link QueryLimits}; {@link
 * QueryLimits#NONE} when the policy sets none).
 */
public record Policy(
    boolean allowSeed, BudgetPolicy budget, Map<String, TablePolicy> tables, String source,
    Map<String, SynopsisSpec> synopses, String synopsisStore,
    Map<String, AdaptiveTablePolicy> adaptiveTables, QueryLimits limits) {

  /** Copies the maps. */
  public Policy {
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(limits, "limits");
    tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
    synopses = Collections.unmodifiableMap(new LinkedHashMap<>(synopses));
    adaptiveTables = Collections.unmodifiableMap(new LinkedHashMap<>(adaptiveTables));
  }

  /** A policy without limits beyond the engine's own. */
  public Policy(
      boolean allowSeed, BudgetPolicy budget, Map<String, TablePolicy> tables, String source,
      Map<String, SynopsisSpec> synopses, String synopsisStore,
      Map<String, AdaptiveTablePolicy> adaptiveTables) {
    this(allowSeed, budget, tables, source, synopses, synopsisStore, adaptiveTables,
        QueryLimits.NONE);
  }

  /** A policy without adaptive tables. */
  public Policy(
      boolean allowSeed, BudgetPolicy budget, Map<String, TablePolicy> tables, String source,
      Map<String, SynopsisSpec> synopses, String synopsisStore) {
    this(allowSeed, budget, tables, source, synopses, synopsisStore, Map.of(), QueryLimits.NONE);
  }

  /** A policy without published synopses or adaptive tables. */
  public Policy(
      boolean allowSeed, BudgetPolicy budget, Map<String, TablePolicy> tables, String source) {
    this(allowSeed, budget, tables, source, Map.of(), null, Map.of(), QueryLimits.NONE);
  }

  /** The adaptive table named {@code name}, compared case-insensitively. */
  public Optional<AdaptiveTablePolicy> adaptiveTable(String name) {
    return name == null ? Optional.empty()
        : Optional.ofNullable(adaptiveTables.get(AdaptiveTablePolicy.key(name.strip())));
  }

  /** The table named {@code name}, compared case-insensitively. */
  public Optional<TablePolicy> table(String name) {
    return name == null ? Optional.empty() : Optional.ofNullable(tables.get(TablePolicy.key(name)));
  }
}
