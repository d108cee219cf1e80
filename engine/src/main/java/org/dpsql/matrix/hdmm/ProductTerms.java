package org.dpsql.matrix.hdmm;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dpsql.matrix.UnionWorkload;
import org.dpsql.matrix.Workload;

/**
 * A workload seen as a union of Kronecker products over a common domain {@code n₁ × … × n_d}:
 * {@code WᵀW = Σⱼ ⊗ᵢ Gᵢⱼ}. A plain workload is one term with one factor; a {@link
 * org.dpsql.matrix.KroneckerWorkload} is one term; a (possibly nested) {@link UnionWorkload} of
 * products with the same factor sizes is several terms.
 *
 * @param dims the factor sizes {@code nᵢ}
 * @param terms {@code terms.get(j).get(i)} is the factor {@code Wᵢⱼ}
 */
record ProductTerms(int[] dims, List<List<Workload>> terms) {

  /** The decomposition of {@code w}, or empty if its union members have different factor shapes. */
  static Optional<ProductTerms> of(Workload w) {
    List<Workload> members = new ArrayList<>();
    flatten(w, members);
    int[] dims = null;
    List<List<Workload>> terms = new ArrayList<>();
    for (Workload m : members) {
      List<Workload> f = m.kroneckerFactors();
      int[] d = new int[f.size()];
      for (int i = 0; i < d.length; i++) {
        d[i] = f.get(i).cells();
      }
      if (dims == null) {
        dims = d;
      } else if (!java.util.Arrays.equals(dims, d)) {
        return Optional.empty();
      }
      terms.add(List.copyOf(f));
    }
    return Optional.of(new ProductTerms(dims, List.copyOf(terms)));
  }

  private static void flatten(Workload w, List<Workload> out) {
    if (w instanceof UnionWorkload u) {
      for (Workload m : u.members()) {
        flatten(m, out);
      }
    } else {
      out.add(w);
    }
  }

  /** {@code d}: the number of factors. */
  int factors() {
    return dims.length;
  }

  /** The factor-{@code i} workloads of every term, in term order. */
  List<Workload> factor(int i) {
    List<Workload> f = new ArrayList<>();
    for (List<Workload> t : terms) {
      f.add(t.get(i));
    }
    return f;
  }
}
