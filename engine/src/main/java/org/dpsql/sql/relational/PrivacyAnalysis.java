package org.dpsql.sql.relational;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.prepare.RelOptTableImpl;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.rel2sql.RelToSqlConverter;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.dialect.H2SqlDialect;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;

/**
 * Finds the private aggregates of a plan and splits it into a {@link ReleasePlan}.
 *
 * <p>A <em>private aggregate</em> is an {@link Aggregate} whose input reaches a private table
 * without passing another aggregate. It is replaced by a release node: a table of its released
 * (noisy) rows. Every maximal part of the plan that reads only public tables is replaced by a
 * public input, run in the backend. What remains above is post-processing and runs over released
 * rows and public data only.
 *
 * <p>Guarantees: a private table is never reached except through a private aggregate; a plan that
 * would return its rows (a projection or filter of it without an aggregate) is refused with XDP02,
 * unless the plan is provably empty (a schema probe), which reads nothing. The same aggregate
 * reached twice (a self-join, a CTE used twice) is one release.
 */
public final class PrivacyAnalysis {
  private final Policy policy;
  private final SqlDialect backendDialect;
  /** Whether the backend declares a private table's unit column unique and not null. */
  private volatile java.util.function.Predicate<TablePolicy> oneRowPerUnit = t -> false;

  /** An analysis for {@code policy}; public parts are written in {@code backendDialect}. */
  public PrivacyAnalysis(Policy policy, SqlDialect backendDialect) {
    this.policy = policy;
    this.backendDialect = backendDialect;
  }

  /**
   * Tells the analysis which private tables the backend declares to have one row per unit (see
   * {@code org.dpsql.backend.UniqueUnits}): the distinct units of such a table are its rows, so a
   * filter {@code unit IN (SELECT unit FROM table WHERE ...)} is the join on the unit.
   */
  public void oneRowPerUnit(java.util.function.Predicate<TablePolicy> declaredUnique) {
    this.oneRowPerUnit = java.util.Objects.requireNonNull(declaredUnique);
  }

  /**
   * Splits {@code plan} at its private aggregates; the releases' hints are set by the caller
   * ({@link ReleasePlan#withHint}: the statement's budget split among {@link
   * ReleasePlan#chargedReleases}).
   */
  public ReleasePlan split(RelNode plan) throws SQLException {
    try {
      return splitChecked(plan);
    } catch (UnsupportedOperationException | IllegalStateException e) {
      throw unwritable(e);
    }
  }

  /**
   * {@code split} with its post-processing statement written (it is written on first use, and a
   * statement answered by its one release never uses it): XDP03 when Calcite cannot write it.
   */
  public static ReleasePlan postProcessed(ReleasePlan split) throws SQLException {
    try {
      split.postSql();
      return split;
    } catch (UnsupportedOperationException | IllegalStateException e) {
      throw unwritable(e);
    }
  }

  /** A construct Calcite cannot write back as SQL (the plan itself was valid). */
  private static SQLException unwritable(RuntimeException e) {
    return SqlStates.notSupported("this statement cannot be answered privately: a part of it "
        + "cannot be written as SQL for the backend (" + e.getClass().getSimpleName()
        + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "); write it more simply");
  }

  private ReleasePlan splitChecked(RelNode plan) throws SQLException {
    plan = distinctUnitsAsRows(plan);
    if (isEmpty(plan)) {
      RelNode empty = plan;
      return new ReleasePlan(List.of(), List.of(), null, plan.getRowType(),
          ReleasePlan.Text.of(() -> RelOptUtil.toString(empty)), true, null);
    }
    List<Aggregate> aggregates = new ArrayList<>();
    collectPrivateAggregates(plan, aggregates);
    if (aggregates.isEmpty()) {
      throw rawRows(plan);
    }
    // a subtree the plan shares (a self-join's two sides) is one aggregate
    java.util.Set<RelNode> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    aggregates.removeIf(a -> !seen.add(a));
    List<CoreAggregate.Canonical> canonical = new ArrayList<>();
    for (Aggregate a : aggregates) {
      CoreAggregate.Canonical c = CoreAggregate.of(a, policy, backendDialect);
      if (c.listsDomain() && !outermost(plan, a)) {
        throw nestedListing(a);
      }
      canonical.add(c);
    }
    Map<RelNode, ReleasePlan.Release> releases = new IdentityHashMap<>();
    for (int i = 0; i < aggregates.size(); i++) {
      CoreAggregate.Canonical c = canonical.get(i);
      releases.put(aggregates.get(i), new ReleasePlan.Release("R" + i, c, ""));
    }
    List<ReleasePlan.PublicInput> inputs = new ArrayList<>();
    RelNode post = unpadded(replace(plan, releases, inputs));
    ReleasePlan.Text postSql = ReleasePlan.Text.statement(() -> new RelToSqlConverter(
        H2SqlDialect.DEFAULT).visitRoot(post).asStatement().toSqlString(H2SqlDialect.DEFAULT));
    List<ReleasePlan.Release> ordered = new ArrayList<>();
    aggregates.forEach(a -> ordered.add(releases.get(a)));
    return new ReleasePlan(ordered, inputs, postSql, plan.getRowType(),
        ReleasePlan.Text.of(() -> RelOptUtil.toString(post)), false, post);
  }

  /**
   * {@code node} with every {@code SELECT DISTINCT unit FROM t [WHERE ...]} (an aggregate without
   * calls grouping by the privacy-unit column of a private table {@code t}, through filters and
   * projections) replaced by its rows' units, when the backend declares t's unit column unique and
   * not null: the distinct units are then the rows' units, the same values. This is what {@code
   * unit IN (SELECT unit FROM t WHERE ...)} becomes, and after it the statement joins t on the
   * shared unit, which the analysis answers as a join of private tables (each unit's rows of both
   * tables, bounded after the join).
   */
  private RelNode distinctUnitsAsRows(RelNode node) {
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : node.getInputs()) {
      RelNode r = distinctUnitsAsRows(input);
      changed |= r != input;
      inputs.add(r);
    }
    RelNode n = changed ? node.copy(node.getTraitSet(), inputs) : node;
    if (!(n instanceof Aggregate a) || !a.getAggCallList().isEmpty()
        || a.getGroupType() != Aggregate.Group.SIMPLE || a.getGroupCount() != 1) {
      return n;
    }
    int key = a.getGroupSet().nth(0);
    int field = key;
    RelNode below = a.getInput();
    while (below instanceof Project || below instanceof Filter) {
      if (below instanceof Project p) {
        if (!(p.getProjects().get(field) instanceof org.apache.calcite.rex.RexInputRef ref)) {
          return n;
        }
        field = ref.getIndex();
      }
      below = below.getInput(0);
    }
    if (!(below instanceof TableScan scan) || !isPrivate(scan)) {
      return n;
    }
    TablePolicy t = policyOf(scan).orElse(null);
    String column = scan.getRowType().getFieldNames().get(field);
    if (t == null || t.unitIsRow() || t.join() != null
        || !column.equalsIgnoreCase(t.privacyUnit()) || !oneRowPerUnit.test(t)) {
      return n;
    }
    return org.apache.calcite.rel.logical.LogicalProject.create(a.getInput(), List.of(),
        List.of(org.apache.calcite.rex.RexInputRef.of(key, a.getInput().getRowType())),
        a.getRowType().getFieldNames(), java.util.Set.of());
  }

  /** The policy of the table a scan reads (empty for a table the policy does not name). */
  private java.util.Optional<TablePolicy> policyOf(TableScan scan) {
    List<String> name = scan.getTable().getQualifiedName();
    return policy.table(name.get(name.size() - 1));
  }

  /** The first private table {@code node} reads, or null. */
  private TablePolicy privateTableOf(RelNode node) {
    if (node instanceof TableScan scan && isPrivate(scan)) {
      return policyOf(scan).orElse(null);
    }
    for (RelNode input : node.getInputs()) {
      TablePolicy t = privateTableOf(input);
      if (t != null) {
        return t;
      }
    }
    return null;
  }

  /** The private aggregates of {@code node}, outermost first. */
  private void collectPrivateAggregates(RelNode node, List<Aggregate> out) throws SQLException {
    if (node instanceof Aggregate a && reachesPrivateTable(a.getInput())) {
      out.add(a);
      return;
    }
    if (node instanceof TableScan scan && isPrivate(scan)) {
      throw rawRows(node);
    }
    for (RelNode input : node.getInputs()) {
      collectPrivateAggregates(input, out);
    }
  }

  /** Whether {@code node} reads a private table other than through an aggregate. */
  private boolean reachesPrivateTable(RelNode node) {
    return scans(node, this::isPrivate, true);
  }

  /** Whether {@code node} reads a private table at all. */
  /**
   * Whether {@code plan} reads a private table (or a table the policy does not name): a statement
   * whose plan reads none is public, passed to the backend as it is.
   */
  public boolean readsPrivateTable(RelNode plan) {
    return containsPrivate(plan);
  }

  private boolean containsPrivate(RelNode node) {
    return scans(node, this::isPrivate, false);
  }

  private static boolean readsTables(RelNode node) {
    return scans(node, scan -> true, false);
  }

  /**
   * Whether {@code node} has a table scan matching {@code which} below it, not looking below
   * aggregates when {@code stopAtAggregates}.
   */
  private static boolean scans(RelNode node, java.util.function.Predicate<TableScan> which,
      boolean stopAtAggregates) {
    if (node instanceof TableScan scan) {
      return which.test(scan);
    }
    if (stopAtAggregates && node instanceof Aggregate) {
      return false;
    }
    for (RelNode input : node.getInputs()) {
      if (scans(input, which, stopAtAggregates)) {
        return true;
      }
    }
    return false;
  }

  private boolean isPrivate(TableScan scan) {
    return policyOf(scan).map(t -> !t.isPublic()).orElse(true);
  }

  /**
   * {@code node} with each private aggregate replaced by its release table and each maximal public
   * part that reads tables replaced by a public input table.
   */
  private RelNode replace(RelNode node, Map<RelNode, ReleasePlan.Release> releases,
      List<ReleasePlan.PublicInput> inputs) {
    ReleasePlan.Release release = releases.get(node);
    if (release != null) {
      return table(node, release.table());
    }
    if (!containsPrivate(node) && readsTables(node)) {
      String name = "P" + inputs.size();
      RelToSqlConverter toBackend = new RelToSqlConverter(backendDialect);
      org.apache.calcite.sql.util.SqlString sql = toBackend.visitRoot(node).asStatement()
          .toSqlString(backendDialect);
      inputs.add(new ReleasePlan.PublicInput(name, sql.getSql(), node.getRowType(),
          sql.getDynamicParameters() == null ? List.of() : sql.getDynamicParameters()));
      return table(node, name);
    }
    List<RelNode> newInputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : node.getInputs()) {
      RelNode r = replace(input, releases, inputs);
      changed |= r != input;
      newInputs.add(r);
    }
    return changed ? node.copy(node.getTraitSet(), newInputs) : node;
  }

  /**
   * {@code node} without the blank padding that SQL's CHAR typing adds to text literals (see
   * {@link CoreAggregate#unpadding}): the post-processing shows 'few' as written, as the backends do.
   */
  private static RelNode unpadded(RelNode node) {
    org.apache.calcite.rex.RexShuttle literals =
        CoreAggregate.unpadding(node.getCluster().getRexBuilder());
    return node.accept(new org.apache.calcite.rel.RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        return super.visit(other).accept(literals);
      }
    });
  }

  /** A scan of table {@code name} with {@code node}'s field types and columns C0, C1, .... */
  private static RelNode table(RelNode node, String name) {
    RelDataTypeFactory tf = node.getCluster().getTypeFactory();
    RelDataTypeFactory.Builder b = tf.builder();
    int i = 0;
    for (RelDataTypeField f : node.getRowType().getFieldList()) {
      b.add("C" + i++, f.getType());
    }
    RelDataType rowType = b.build();
    return LogicalTableScan.create(node.getCluster(),
        RelOptTableImpl.create(null, rowType, List.of(name), null), List.of());
  }

  /**
   * Whether {@code node} returns no rows whatever the data: an empty VALUES, a LIMIT 0, a filter
   * that is always false, or an operator that keeps only rows of such an input.
   */
  static boolean isEmpty(RelNode node) {
    if (node instanceof Values v) {
      return v.getTuples().isEmpty();
    }
    if (node instanceof Sort s) {
      if (s.fetch instanceof RexLiteral lit && lit.getValueAs(Long.class) != null
          && lit.getValueAs(Long.class) == 0L) {
        return true;
      }
      return isEmpty(s.getInput());
    }
    if (node instanceof Filter f) {
      RexSimplify simplify = new RexSimplify(f.getCluster().getRexBuilder(),
          RelOptPredicateList.EMPTY, RexUtil.EXECUTOR);
      RexNode c = simplify.simplifyUnknownAsFalse(f.getCondition());
      return c.isAlwaysFalse() || isEmpty(f.getInput());
    }
    if (node instanceof Project || node instanceof Window) {
      return isEmpty(node.getInput(0));
    }
    if (node instanceof Aggregate a) {
      return !a.getGroupSet().isEmpty() && isEmpty(a.getInput());
    }
    if (node instanceof Join j) {
      return j.getJoinType() == JoinRelType.INNER
          && (isEmpty(j.getLeft()) || isEmpty(j.getRight()));
    }
    if (node instanceof Union u) {
      return u.getInputs().stream().allMatch(PrivacyAnalysis::isEmpty);
    }
    return false;
  }

  /**
   * Whether only projections, sorts and filters lie above {@code a} in {@code plan}: a listing of
   * declared domains answers the statement itself there. Below a join, an aggregate or a set
   * operation its values would stand for the values that occur in the data (which ones do is
   * private), and the declared domain would change the statement's answer without saying so.
   */
  private static boolean outermost(RelNode plan, Aggregate a) {
    RelNode node = plan;
    while (node != a) {
      if (!(node instanceof Project || node instanceof Filter
          || node instanceof org.apache.calcite.rel.core.Sort)) {
        return false;
      }
      node = node.getInput(0);
    }
    return true;
  }

  /** XDP02 for a listing of a private column's values that the statement uses as data. */
  private SQLException nestedListing(Aggregate a) {
    TablePolicy t = privateTableOf(a);
    String table = t == null ? "?" : t.name();
    return SqlStates.notAllowed("this statement uses the values that occur in a column of "
        + "private table " + table + " (an IN subquery, a join or an aggregate over its distinct "
        + "values); which values occur is private. dpsql lists a column's declared domain only "
        + "as a statement of its own (SELECT DISTINCT col FROM " + table + "); write the "
        + "condition on the column itself (col IN ('a', 'b')), or ask the counts (SELECT col, "
        + "COUNT(*) FROM " + table + " WHERE ... GROUP BY col)");
  }

  /** XDP02 naming the private table whose rows {@code node} would return. */
  private SQLException rawRows(RelNode node) {
    TablePolicy t = privateTableOf(node);
    String table = t == null ? "T" : t.name();
    return SqlStates.notAllowed("this statement would return raw rows of "
        + (t == null ? "a private table" : "private table " + table) + " (or rows that depend on "
        + "them) and releases no aggregate; ask for aggregates instead (COUNT(*), COUNT(col), "
        + "SUM(col), AVG(col), with GROUP BY over columns with a public domain), e.g. SELECT "
        + "COUNT(*) FROM " + table);
  }

}
