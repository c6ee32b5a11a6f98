package dev.javelin.table;

import java.util.Set;

/**
 * What a Rewrite does with indices that cover its old fragments but that it does not remap, by
 * index uuid (text form, {@link IndexMetadata#uuid}). An uncovered index loses the old fragments'
 * ids from its fragment bitmap, so readers scan the new fragments; its entries for the old fragments
 * then name fragments that no longer exist, which readers that apply its results fragment by
 * fragment never see. A retired index keeps the old ids as retired ids (never reused: the
 * fragment id high-water mark only rises); readers treat every row of a covered fragment that
 * is gone as deleted, as after a delete that removed a whole fragment, and scan the new ones.
 */
public record UnremappedIndices(Set<String> uncovered, Set<String> retired) {
  /** Every index covering an old fragment is remapped. */
  public static final UnremappedIndices NONE = new UnremappedIndices(Set.of(), Set.of());

  public UnremappedIndices {
    uncovered = Set.copyOf(uncovered);
    retired = Set.copyOf(retired);
  }
}
