package org.dpsql.hierarchy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A public hierarchy of {@code g} nested partitions {@code P_1, ..., P_g} of a space (e.g. region →
 * province → municipality, or state → county → tract), with level 0 the whole space. It is also the
 * {@link TreeDomain} of the plain (non-O/D) hierarchical tree: the tree of the hierarchy itself.
 *
 * <p>Guarantees: immutable; every node of a level {@code ℓ < g} has at least one child; the
 * children of a node have consecutive ids ({@link #firstChild}); labels, when given, are unique
 * among the children of a node. The structure comes only from the caller's public description
 * (fan-outs or label paths), never from data.
 */
public final class Hierarchy implements TreeDomain {
  private final int depth;
  private final int[] sizes;
  /** offsets[ℓ][i] = id of the first child of node i of level ℓ; offsets[ℓ][size] = size(ℓ+1). */
  private final int[][] offsets;
  /** parents[ℓ][i] = parent of node i of level ℓ (ℓ ≥ 1); parents[0] is empty. */
  private final int[][] parents;
  /** labels[ℓ][i] (ℓ ≥ 1), or null when the hierarchy was built from fan-outs. */
  private final String[][] labels;
  /** For label lookup: per level ℓ ≥ 1, key parentId + '\u0000' + label → id; null without labels. */
  private final List<Map<String, Integer>> byLabel;

  private Hierarchy(int[][] fanOuts, String[][] labels) {
    this.depth = fanOuts.length;
    this.sizes = new int[depth + 1];
    this.offsets = new int[depth][];
    this.parents = new int[depth + 1][];
    sizes[0] = 1;
    parents[0] = new int[0];
    for (int l = 0; l < depth; l++) {
      int[] f = fanOuts[l];
      if (f.length != sizes[l]) {
        throw new IllegalArgumentException(
            "level " + l + " has " + sizes[l] + " nodes but " + f.length + " fan-outs were given");
      }
      int[] off = new int[sizes[l] + 1];
      long next = 0;
      for (int i = 0; i < f.length; i++) {
        if (f[i] < 1) {
          throw new IllegalArgumentException(
              "node " + i + " of level " + l + " must have at least one child, got " + f[i]);
        }
        off[i] = (int) next;
        next += f[i];
        if (next > Integer.MAX_VALUE - 8) {
          throw new IllegalArgumentException("level " + (l + 1) + " has too many nodes: " + next);
        }
      }
      off[f.length] = (int) next;
      offsets[l] = off;
      sizes[l + 1] = (int) next;
      int[] par = new int[(int) next];
      for (int i = 0; i < f.length; i++) {
        for (int c = off[i]; c < off[i + 1]; c++) {
          par[c] = i;
        }
      }
      parents[l + 1] = par;
    }
    this.labels = labels;
    if (labels == null) {
      this.byLabel = null;
    } else {
      List<Map<String, Integer>> maps = new ArrayList<>();
      maps.add(Map.of());
      for (int l = 1; l <= depth; l++) {
        Map<String, Integer> m = new HashMap<>();
        for (int i = 0; i < sizes[l]; i++) {
          String key = parents[l][i] + "\u0000" + labels[l][i];
          if (m.put(key, i) != null) {
            throw new IllegalArgumentException(
                "duplicate label '" + labels[l][i] + "' under one parent at level " + l);
          }
        }
        maps.add(m);
      }
      this.byLabel = maps;
    }
  }

  /**
   * The hierarchy in which every node of level {@code ℓ} has {@code fanOuts[ℓ]} children; e.g.
   * {@code uniform(20, 10, 10)} has 20 regions, 200 provinces and 2,000 municipalities.
   *
   * @throws IllegalArgumentException if no fan-out is given or one is below 1
   */
  public static Hierarchy uniform(int... fanOuts) {
    Objects.requireNonNull(fanOuts, "fanOuts");
    if (fanOuts.length == 0) {
      throw new IllegalArgumentException("a hierarchy needs at least one level");
    }
    int[][] f = new int[fanOuts.length][];
    long size = 1;
    for (int l = 0; l < fanOuts.length; l++) {
      if (fanOuts[l] < 1) {
        throw new IllegalArgumentException("fan-out of level " + l + " must be >= 1: " + fanOuts[l]);
      }
      if (size > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("hierarchy too large");
      }
      f[l] = new int[(int) size];
      java.util.Arrays.fill(f[l], fanOuts[l]);
      size *= fanOuts[l];
    }
    return new Hierarchy(f, null);
  }

  /**
   * The hierarchy whose node {@code i} of level {@code ℓ} has {@code fanOuts[ℓ][i]} children
   * ({@code fanOuts[0]} has one entry, the root's fan-out). Children get consecutive ids in the
   * order of their parents.
   *
   * @throws IllegalArgumentException if the lengths do not match the level sizes or a fan-out is
   *     below 1
   */
  public static Hierarchy ofFanOuts(int[][] fanOuts) {
    Objects.requireNonNull(fanOuts, "fanOuts");
    if (fanOuts.length == 0) {
      throw new IllegalArgumentException("a hierarchy needs at least one level");
    }
    int[][] copy = new int[fanOuts.length][];
    for (int l = 0; l < fanOuts.length; l++) {
      copy[l] = Objects.requireNonNull(fanOuts[l], "fanOuts[" + l + "]").clone();
    }
    return new Hierarchy(copy, null);
  }

  /**
   * The hierarchy whose leaves are the given label paths from level 1 to level {@code g} (e.g.
   * {@code ["Veneto", "Padova", "Abano Terme"]}), the public list of every finest area. Nodes are
   * numbered in order of first appearance. All paths must have the same length {@code g >= 1}.
   *
   * @throws IllegalArgumentException if the list is empty, the paths have different lengths, a
   *     label is null, or a path appears twice
   */
  public static Hierarchy ofLeafPaths(List<List<String>> leafPaths) {
    Objects.requireNonNull(leafPaths, "leafPaths");
    if (leafPaths.isEmpty()) {
      throw new IllegalArgumentException("at least one leaf path is required");
    }
    int g = leafPaths.get(0).size();
    if (g == 0) {
      throw new IllegalArgumentException("leaf paths must have at least one label");
    }
    // per level: map (parent id, label) -> id, in order of first appearance
    List<LinkedHashMap<String, Integer>> ids = new ArrayList<>();
    List<List<Integer>> parentOf = new ArrayList<>();
    List<List<String>> labelOf = new ArrayList<>();
    for (int l = 0; l <= g; l++) {
      ids.add(new LinkedHashMap<>());
      parentOf.add(new ArrayList<>());
      labelOf.add(new ArrayList<>());
    }
    for (List<String> path : leafPaths) {
      if (path == null || path.size() != g) {
        throw new IllegalArgumentException("every leaf path must have " + g + " labels: " + path);
      }
      int parent = 0;
      for (int l = 1; l <= g; l++) {
        String label = path.get(l - 1);
        if (label == null) {
          throw new IllegalArgumentException("null label in path " + path);
        }
        String key = parent + "\u0000" + label;
        Integer id = ids.get(l).get(key);
        if (id == null) {
          id = ids.get(l).size();
          ids.get(l).put(key, id);
          parentOf.get(l).add(parent);
          labelOf.get(l).add(label);
        } else if (l == g) {
          throw new IllegalArgumentException("duplicate leaf path " + path);
        }
        parent = id;
      }
    }
    // Ids are in first-appearance order; renumber so that children of a node are consecutive.
    int[][] fanOuts = new int[g][];
    String[][] labels = new String[g + 1][];
    labels[0] = new String[] {""};
    int[] renumber = {0}; // old id -> new id at the previous level
    for (int l = 1; l <= g; l++) {
      List<Integer> par = parentOf.get(l);
      int prevSize = renumber.length;
      int[] count = new int[prevSize];
      for (int p : par) {
        count[renumber[p]]++;
      }
      int[] start = new int[prevSize + 1];
      for (int i = 0; i < prevSize; i++) {
        start[i + 1] = start[i] + count[i];
      }
      int[] fill = start.clone();
      int[] next = new int[par.size()];
      String[] lab = new String[par.size()];
      for (int old = 0; old < par.size(); old++) {
        int np = renumber[par.get(old)];
        next[old] = fill[np]++;
        lab[next[old]] = labelOf.get(l).get(old);
      }
      fanOuts[l - 1] = count;
      labels[l] = lab;
      renumber = next;
    }
    return new Hierarchy(fanOuts, labels);
  }

  /** The number {@code g} of partitions below the whole space (= the tree depth). */
  @Override
  public int depth() {
    return depth;
  }

  /** Number of areas at {@code level} ({@code 1} at level 0). */
  public int size(int level) {
    checkLevel(level, 0, depth);
    return sizes[level];
  }

  @Override
  public long levelSize(int level) {
    return size(level);
  }

  @Override
  public int childCount(int level, long node) {
    int i = checkNode(level, node, 0, depth - 1);
    return offsets[level][i + 1] - offsets[level][i];
  }

  /** Id (at {@code level + 1}) of the first child of {@code node}; children are consecutive. */
  public int firstChild(int level, long node) {
    int i = checkNode(level, node, 0, depth - 1);
    return offsets[level][i];
  }

  @Override
  public long child(int level, long node, int j) {
    int i = checkNode(level, node, 0, depth - 1);
    int count = offsets[level][i + 1] - offsets[level][i];
    if (j < 0 || j >= count) {
      throw new IllegalArgumentException(
          "child index " + j + " out of range [0, " + count + ") for node " + node);
    }
    return offsets[level][i] + j;
  }

  @Override
  public long parent(int level, long node) {
    int i = checkNode(level, node, 1, depth);
    return parents[level][i];
  }

  /** The ancestor at level {@code ancestorLevel <= level} of {@code node} of level {@code level}. */
  public int ancestor(int level, int node, int ancestorLevel) {
    checkNode(level, node, 0, depth);
    checkLevel(ancestorLevel, 0, level);
    int n = node;
    for (int l = level; l > ancestorLevel; l--) {
      n = parents[l][n];
    }
    return n;
  }

  /** Whether the hierarchy carries labels (built by {@link #ofLeafPaths}). */
  public boolean hasLabels() {
    return labels != null;
  }

  /** The label of a node of level {@code ≥ 1}, or its id as text if the hierarchy has no labels. */
  public String label(int level, int node) {
    checkNode(level, node, 1, depth);
    return labels == null ? Integer.toString(node) : labels[level][node];
  }

  /**
   * The id of the node at level {@code path.size()} reached by following {@code path} from the
   * root, or {@code -1} if no such node exists in the public domain.
   *
   * @throws IllegalStateException if the hierarchy has no labels
   */
  public int find(List<String> path) {
    Objects.requireNonNull(path, "path");
    if (byLabel == null) {
      throw new IllegalStateException("this hierarchy has no labels");
    }
    if (path.size() > depth) {
      return -1;
    }
    int node = 0;
    for (int l = 1; l <= path.size(); l++) {
      Integer id = byLabel.get(l).get(node + "\u0000" + path.get(l - 1));
      if (id == null) {
        return -1;
      }
      node = id;
    }
    return node;
  }

  private void checkLevel(int level, int lo, int hi) {
    if (level < lo || level > hi) {
      throw new IllegalArgumentException("level " + level + " out of range [" + lo + ", " + hi + "]");
    }
  }

  private int checkNode(int level, long node, int lo, int hi) {
    checkLevel(level, lo, hi);
    if (node < 0 || node >= sizes[level]) {
      throw new IllegalArgumentException(
          "node " + node + " out of range [0, " + sizes[level] + ") at level " + level);
    }
    return (int) node;
  }

  @Override
  public String toString() {
    return "Hierarchy" + java.util.Arrays.toString(sizes);
  }
}
