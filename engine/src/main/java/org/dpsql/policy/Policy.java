package org.dpsql.policy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
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
 *
 * <p>{@code unitBounds} are the owner's contribution bounds for joins of private tables that share
 * a unit (policy key {@code units:}, by upper-cased unit name); such a join is a private table of
 * its own ({@link UnitJoin}), found by {@link #table} under its name ({@code TRIPS JOIN RIDERS}).
 */
public record Policy(
    boolean allowSeed, BudgetPolicy budget, Map<String, TablePolicy> tables, String source,
    Map<String, SynopsisSpec> synopses, String synopsisStore,
    Map<String, AdaptiveTablePolicy> adaptiveTables, QueryLimits limits,
    Map<String, Integer> unitBounds) {

  /** Copies the maps. */
  public Policy {
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(limits, "limits");
    unitBounds = Map.copyOf(unitBounds);
    tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
    synopses = Collections.unmodifiableMap(new LinkedHashMap<>(synopses));
    adaptiveTables = Collections.unmodifiableMap(new LinkedHashMap<>(adaptiveTables));
  }

  /** A policy without explicit bounds for unit joins. */
  public Policy(
      boolean allowSeed, BudgetPolicy budget, Map<String, TablePolicy> tables, String source,
      Map<String, SynopsisSpec> synopses, String synopsisStore,
      Map<String, AdaptiveTablePolicy> adaptiveTables, QueryLimits limits) {
    this(allowSeed, budget, tables, source, synopses, synopsisStore, adaptiveTables, limits,
        Map.of());
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

  /**
   * The table named {@code name}, compared case-insensitively; a name that lists private tables
   * sharing a unit ({@code TRIPS JOIN RIDERS}) names their {@link UnitJoin}.
   */
  public Optional<TablePolicy> table(String name) {
    if (name == null) {
      return Optional.empty();
    }
    TablePolicy t = tables.get(TablePolicy.key(name));
    if (t != null) {
      return Optional.of(t);
    }
    Optional<UnitJoin.Written> written = UnitJoin.written(name);
    if (written.isEmpty()) {
      return Optional.empty();
    }
    List<TablePolicy> members = new java.util.ArrayList<>();
    for (String n : written.get().members()) {
      TablePolicy m = tables.get(TablePolicy.key(n));
      if (m == null) {
        return Optional.empty();
      }
      members.add(m);
    }
    List<UnitJoin.Link> links = new java.util.ArrayList<>();
    for (int i = 0; i < written.get().kinds().size(); i++) {
      String target = written.get().targets().get(i);
      int to = 0;
      if (target != null) {
        to = -1;
        for (int j = 0; j <= i; j++) {
          if (members.get(j).name().equalsIgnoreCase(target)) {
            to = j;
          }
        }
        if (to < 0) {
          return Optional.empty();
        }
      }
      links.add(new UnitJoin.Link(written.get().kinds().get(i), to));
    }
    return unitJoin(members, links);
  }

  /**
   * The left-deep join of {@code members} by {@code links} (one per member after the first) as one
   * private table, or empty when they are not two or more distinct private tables with the same
   * {@code unit:} name.
   */
  public Optional<TablePolicy> unitJoin(List<TablePolicy> members, List<UnitJoin.Link> links) {
    if (members.size() < 2 || members.stream().anyMatch(m -> m.sharedUnit() == null)) {
      return Optional.empty();
    }
    try {
      return Optional.of(UnitJoin.relation(members, links,
          unitBounds.get(TablePolicy.key(members.get(0).sharedUnit()))));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
