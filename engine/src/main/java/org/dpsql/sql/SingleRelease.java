package org.dpsql.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlNode;
import org.dpsql.sql.relational.ReleasePlan;

/**
 * A statement whose post-processing only picks, names and orders the columns of its one release
 * ({@code SELECT G, COUNT(*) AS n FROM T GROUP BY G ORDER BY n DESC LIMIT 5}, or the same through a
 * subquery): answered by the release itself, its outputs renamed and ordered and its rows sorted
 * and cut as the statement asks, with no post-processing database. The release keeps its own
 * identity, so every statement over the same private aggregate (this one, or one with other
 * post-processing) is answered by one release, charged once.
 *
 * <p>Guarantees: the result has the statement's columns (names from validation, in order) and
 * rows, as the post-processing plan would compute them from the released rows: a projection of
 * input fields is a choice of outputs, a sort by fields with a literal offset and fetch is the
 * release's sort keys and limits (a limit or offset may be a parameter, applied as the rows are
 * shown). Anything else (arithmetic, filters such as HAVING, joins, a second release, public
 * inputs) is left to post-processing: {@link #of} returns null.
 */
public final class SingleRelease {
  private SingleRelease() {}

  /**
   * The statement {@code split} answered by its one release {@code part} (the release's analysis),
   * or null when the statement computes more than a choice, naming and ordering of its columns.
   * {@code parameters} are the statement's; {@code normalizedSql} identifies the statement.
   */
  static AnalyzedStatement of(ReleasePlan split, AnalyzedStatement part,
      List<AnalyzedStatement.ParameterInfo> parameters, String normalizedSql) {
    if (split.empty() || split.releases().size() != 1 || !split.publicInputs().isEmpty()
        || split.post() == null) {
      return null;
    }
    RelNode node = split.post();
    Sort sort = null;
    if (node instanceof Sort s) {
      sort = s;
      node = s.getInput();
    }
    int width = split.rowType().getFieldCount();
    int[] pick = new int[width];
    if (node instanceof Project p) {
      if (p.getProjects().size() != width) {
        return null;
      }
      for (int i = 0; i < width; i++) {
        if (!(p.getProjects().get(i) instanceof RexInputRef ref)) {
          return null;
        }
        pick[i] = ref.getIndex();
      }
      node = p.getInput();
    } else {
      if (node.getRowType().getFieldCount() != width) {
        return null;
      }
      for (int i = 0; i < width; i++) {
        pick[i] = i;
      }
    }
    if (!(node instanceof TableScan scan)) {
      return null;
    }
    List<String> name = scan.getTable().getQualifiedName();
    if (name.size() != 1 || !name.get(0).equals(split.releases().get(0).table())) {
      return null;
    }
    Long offset = null;
    Long fetch = null;
    int offsetParameter = -1;
    int fetchParameter = -1;
    List<SortKey> keys = new ArrayList<>();
    if (sort != null) {
      offset = literal(sort.offset);
      fetch = literal(sort.fetch);
      offsetParameter = parameter(sort.offset);
      fetchParameter = parameter(sort.fetch);
      if ((sort.offset != null && offset == null && offsetParameter < 0)
          || (sort.fetch != null && fetch == null && fetchParameter < 0)) {
        return null; // an expression: post-processing
      }
      for (RelFieldCollation c : sort.getCollation().getFieldCollations()) {
        keys.add(new SortKey(c.getFieldIndex(), c.getDirection().isDescending()));
      }
    }
    List<String> labels = split.rowType().getFieldNames();
    List<Integer> picks = new ArrayList<>();
    for (int i : pick) {
      picks.add(i);
    }
    // the release has its own parameters, bound to the statement's values at their indexes
    AnalyzedStatement.Released released = new AnalyzedStatement.Released(part, picks,
        split.releases().get(0).statementText(), split.releases().get(0).parameters(),
        offsetParameter, fetchParameter);
    if (part instanceof AnalyzedStatement.PrivateAggregate p) {
      AggregateQuery q = p.query();
      return new AnalyzedStatement.PrivateAggregate(new AggregateQuery(q.table(), q.groupBy(),
          picked(q.outputs(), pick, labels), q.where(), q.hint(), keys, offset, fetch, q.joins()),
          normalizedSql, parameters, released);
    }
    if (part instanceof AnalyzedStatement.PrivateWorkload w
        && (sort == null || sort.offset == null && sort.fetch == null)) {
      WorkloadQuery q = w.query();
      List<AggregateQuery> parts = new ArrayList<>();
      for (AggregateQuery a : q.parts()) {
        parts.add(new AggregateQuery(a.table(), a.groupBy(), picked(a.outputs(), pick, labels),
            a.where(), a.hint(), List.of(), null, null, a.joins()));
      }
      return new AnalyzedStatement.PrivateWorkload(new WorkloadQuery(q.shape(), q.table(), parts,
          q.hint(), keys), normalizedSql, parameters, released);
    }
    return null;
  }

  /**
   * A {@code UNION ALL} of private aggregates over one table, each branch a choice of its
   * release's columns, as one workload released jointly with the statement's whole budget
   * ({@code hint}), the branches' rows one after the other (contract §4); null when the statement
   * is not such a union (other post-processing, branches over different tables, a branch that a
   * workload cannot answer: quantiles, distinct counts, private keys, joins with public tables),
   * which is then answered release by release, its budget split among them.
   */
  static AnalyzedStatement union(ReleasePlan split, List<AnalyzedStatement> parts, DpHint hint,
      List<AnalyzedStatement.ParameterInfo> parameters, String normalizedSql) {
    if (split.empty() || split.releases().size() < 2 || !split.publicInputs().isEmpty()) {
      return null;
    }
    RelNode node = split.post();
    Sort sort = null;
    if (node instanceof Sort s) {
      if (s.offset != null || s.fetch != null) {
        return null;
      }
      sort = s;
      node = s.getInput();
    }
    List<RelNode> inputs = new ArrayList<>();
    if (!branches(node, inputs) || inputs.size() != parts.size()) {
      return null;
    }
    List<String> labels = split.rowType().getFieldNames();
    List<AggregateQuery> branches = new ArrayList<>();
    org.dpsql.policy.TablePolicy table = null;
    for (RelNode input : inputs) {
      int[] pick = new int[labels.size()];
      RelNode n = input;
      if (n instanceof Project p) {
        for (int i = 0; i < pick.length; i++) {
          if (!(p.getProjects().get(i) instanceof RexInputRef ref)) {
            return null;
          }
          pick[i] = ref.getIndex();
        }
        n = p.getInput();
      } else {
        for (int i = 0; i < pick.length; i++) {
          pick[i] = i;
        }
      }
      if (!(n instanceof TableScan scan) || n.getRowType().getFieldCount() < pick.length
          && !(input instanceof Project)) {
        return null;
      }
      int r = releaseIndex(split, scan);
      AggregateQuery q = r < 0 ? null : single(parts.get(r));
      if (q == null || q.hasPrivateKeys() || q.listsDomain()
          || (table != null && !table.equals(q.table()))
          || q.outputs().stream().anyMatch(o -> o.aggregate() == AggregateKind.QUANTILE
              || o.aggregate() == AggregateKind.COUNT_DISTINCT
              || o.aggregate() == AggregateKind.COUNT_DISTINCT_UNIT)) {
        return null;
      }
      table = q.table();
      List<Integer> own = split.releases().get(r).parameters();
      SqlNode where = statementParameters(q.where(), own);
      if (where == null && !own.isEmpty()) {
        return null; // a parameter outside the filter: released on its own, not in the batch
      }
      branches.add(new AggregateQuery(q.table(), q.groupBy(), picked(q.outputs(), pick, labels),
          where, hint, List.of(), null, null, q.joins()));
    }
    List<SortKey> keys = new ArrayList<>();
    if (sort != null) {
      for (RelFieldCollation c : sort.getCollation().getFieldCollations()) {
        keys.add(new SortKey(c.getFieldIndex(), c.getDirection().isDescending()));
      }
    }
    return new AnalyzedStatement.PrivateWorkload(new WorkloadQuery(WorkloadQuery.Shape.UNION_ALL,
        table, branches, hint, keys), normalizedSql, parameters);
  }

  /**
   * A release's filter with its own parameters ({@code own}: the statement's parameter each one
   * stands for) written as the statement's, so that the branches of one workload bind the
   * statement's values; null when the filter does not hold all of the release's parameters.
   */
  private static SqlNode statementParameters(SqlNode where, List<Integer> own) {
    if (own.isEmpty() || where == null) {
      return own.isEmpty() ? where : null;
    }
    int[] seen = {0};
    SqlNode out = where.accept(new org.apache.calcite.sql.util.SqlShuttle() {
      @Override
      public SqlNode visit(org.apache.calcite.sql.SqlDynamicParam param) {
        seen[0]++;
        return new org.apache.calcite.sql.SqlDynamicParam(own.get(param.getIndex()),
            param.getParserPosition());
      }
    });
    return seen[0] == own.size() ? out : null;
  }

  /**
   * Adds the branches of {@code node}, a {@code UNION ALL} (maybe nested: SQL's UNION ALL is a
   * binary operator), to {@code out}; false when node is no UNION ALL.
   */
  private static boolean branches(RelNode node, List<RelNode> out) {
    if (!(node instanceof org.apache.calcite.rel.core.Union u) || !u.all) {
      return false;
    }
    for (RelNode input : u.getInputs()) {
      if (!branches(input, out)) {
        out.add(input);
      }
    }
    return true;
  }

  /**
   * The one aggregate query a release answers: a private aggregate, or a workload of one query (a
   * join with public tables, derived columns), else null.
   */
  private static AggregateQuery single(AnalyzedStatement part) {
    if (part instanceof AnalyzedStatement.PrivateAggregate a) {
      return a.query();
    }
    if (part instanceof AnalyzedStatement.PrivateWorkload w
        && w.query().shape() == WorkloadQuery.Shape.UNION_ALL && w.query().parts().size() == 1) {
      return w.query().parts().get(0);
    }
    return null;
  }

  /** The index of the release a scan reads, or -1. */
  private static int releaseIndex(ReleasePlan split, TableScan scan) {
    List<String> name = scan.getTable().getQualifiedName();
    for (int i = 0; i < split.releases().size(); i++) {
      if (name.size() == 1 && name.get(0).equals(split.releases().get(i).table())) {
        return i;
      }
    }
    return -1;
  }

  /** The outputs the statement picks from the release's, under the statement's names. */
  private static List<OutputItem> picked(List<OutputItem> outputs, int[] pick,
      List<String> labels) {
    List<OutputItem> out = new ArrayList<>();
    for (int i = 0; i < pick.length; i++) {
      OutputItem o = outputs.get(pick[i]);
      out.add(new OutputItem(labels.get(i), o.column(), o.aggregate(), o.fraction()));
    }
    return out;
  }

  /** The index of the statement's parameter that gives an offset or fetch, else -1. */
  private static int parameter(RexNode n) {
    return n instanceof org.apache.calcite.rex.RexDynamicParam p ? p.getIndex() : -1;
  }

  /** A literal offset or fetch, null when absent or not a literal. */
  private static Long literal(RexNode n) {
    return n instanceof RexLiteral lit ? lit.getValueAs(Long.class) : null;
  }
}
