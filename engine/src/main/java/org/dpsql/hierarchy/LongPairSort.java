package org.dpsql.hierarchy;

/**
 * Stable sort of two parallel {@code long} arrays by the first (keys), without boxing: a bottom-up
 * merge sort with insertion-sorted runs. Package-private helper of the sparse tree builders.
 */
final class LongPairSort {
  private static final int RUN = 32;

  private LongPairSort() {}

  /** Sorts {@code keys[0..n)} ascending, permuting {@code values[0..n)} alike; stable. */
  static void sort(long[] keys, long[] values, int n) {
    boolean sorted = true;
    for (int i = 1; i < n; i++) {
      if (keys[i - 1] > keys[i]) {
        sorted = false;
        break;
      }
    }
    if (sorted) {
      return;
    }
    for (int lo = 0; lo < n; lo += RUN) {
      insertion(keys, values, lo, Math.min(n, lo + RUN));
    }
    if (n <= RUN) {
      return;
    }
    long[] k2 = new long[n];
    long[] v2 = new long[n];
    long[] ka = keys;
    long[] va = values;
    long[] kb = k2;
    long[] vb = v2;
    for (int width = RUN; width < n; width *= 2) {
      for (int lo = 0; lo < n; lo += 2 * width) {
        int mid = Math.min(n, lo + width);
        int hi = Math.min(n, lo + 2 * width);
        int i = lo;
        int j = mid;
        int o = lo;
        while (i < mid && j < hi) {
          if (ka[j] < ka[i]) {
            kb[o] = ka[j];
            vb[o++] = va[j++];
          } else {
            kb[o] = ka[i];
            vb[o++] = va[i++];
          }
        }
        while (i < mid) {
          kb[o] = ka[i];
          vb[o++] = va[i++];
        }
        while (j < hi) {
          kb[o] = ka[j];
          vb[o++] = va[j++];
        }
      }
      long[] t = ka;
      ka = kb;
      kb = t;
      t = va;
      va = vb;
      vb = t;
    }
    if (ka != keys) {
      System.arraycopy(ka, 0, keys, 0, n);
      System.arraycopy(va, 0, values, 0, n);
    }
  }

  private static void insertion(long[] k, long[] v, int lo, int hi) {
    for (int i = lo + 1; i < hi; i++) {
      long key = k[i];
      long val = v[i];
      int j = i - 1;
      while (j >= lo && k[j] > key) {
        k[j + 1] = k[j];
        v[j + 1] = v[j];
        j--;
      }
      k[j + 1] = key;
      v[j + 1] = val;
    }
  }
}
