package org.dpsql.rewrite;

import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/** The column names a checked filter refers to (bare names, see {@code FrontEnd}). */
final class FilterColumns {
  private FilterColumns() {}

  static Set<String> of(SqlNode where) {
    Set<String> names = new LinkedHashSet<>();
    where.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlIdentifier id) {
        names.add(id.names.get(id.names.size() - 1));
        return null;
      }
    });
    return names;
  }
}
