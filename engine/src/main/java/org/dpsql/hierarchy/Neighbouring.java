package org.dpsql.hierarchy;

/** The neighbouring relation a hierarchical release protects (Kifer &amp; Machanavajjhala 2011). */
public enum Neighbouring {
  /**
   * Bounded DP (the paper's setting): neighbours differ by the <em>substitution</em> of one privacy
   * unit, so the number of units — the tree's root, the total — is the same in both and is public:
   * it is released exactly at no cost. Only valid when the total is genuinely public (declared
   * invariant), never merely because it is convenient.
   */
  BOUNDED,
  /**
   * Unbounded DP: neighbours differ by the addition or removal of one privacy unit; the total is
   * private and is perturbed too (Appendix B, Algorithm 3).
   */
  UNBOUNDED
}
