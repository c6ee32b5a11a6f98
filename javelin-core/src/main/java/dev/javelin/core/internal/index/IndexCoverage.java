package dev.javelin.core.internal.index;

import dev.javelin.common.LeasedCache;
import dev.javelin.core.Dataset;
import dev.javelin.core.internal.SessionState;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * Which fragments an index answers for in a dataset version: the fragments of its bitmap, and
 * the destinations of every reordered rewrite (stable partition transition) whose sources it
 * covers entirely, transitively in transition order. A transition whose sources it covers only in
 * part adds nothing: its destinations are read in full. Rows an index finds in the sources of the
 * transitions it answers through have old addresses, which {@link AddressTranslator} maps to the
 * current ones. An index built after a reorder covers the destinations directly and needs none.
 */
public final class IndexCoverage {
  private final RoaringBitmap direct;
  private final RoaringBitmap fragments;
  private final List<StablePartitionTransition> through;

  private IndexCoverage(RoaringBitmap direct, RoaringBitmap fragments, List<StablePartitionTransition> through) {
    this.direct = direct;
    this.fragments = fragments;
    this.through = through;
  }

  /** The coverage of {@code index} in {@code ds}'s version. */
  public static IndexCoverage of(Dataset ds, IndexMetadata index) {
    return derive(index.fragmentBitmap(), transitions(ds));
  }

  /** The coverage of an index whose bitmap is {@code bitmap}, given the transitions oldest first. */
  public static IndexCoverage derive(RoaringBitmap bitmap, List<StablePartitionTransition> transitions) {
    RoaringBitmap all = bitmap.clone();
    List<StablePartitionTransition> through = new ArrayList<>();
    for (StablePartitionTransition t : transitions) {
      boolean whole = true;
      for (StablePartitionTransition.Source s : t.sources()) {
        if (!contains(all, s.id())) {
          whole = false;
          break;
        }
      }
      if (whole) {
        through.add(t);
        for (long d : t.destinations()) {
          if (d <= 0xFFFFFFFFL) {
            all.add((int) d);
          }
        }
      }
    }
    return new IndexCoverage(bitmap, all, List.copyOf(through));
  }

  /**
   * The transitions of {@code ds}'s version, oldest first (cached in its session per stable
   * partition entry).
   */
  public static List<StablePartitionTransition> transitions(Dataset ds) {
    Optional<IndexMetadata> entry = StablePartitionEntry.find(ds.manifest());
    if (entry.isEmpty()) {
      return List.of();
    }
    // Dataset location + entry uuid, version and details hash (the entry keeps its uuid as
    // transitions accumulate; each reordered rewrite stamps the version it lands in).
    String key = ds.location() + "#" + StablePartitionEntry.uuid(entry.get()) + "@" + entry.get().datasetVersion()
        + "#" + entry.get().details().value().hashCode();
    try (LeasedCache.Lease<List<StablePartitionTransition>> got = SessionState.of(ds).transitions().lease(key,
        k -> List.copyOf(StablePartitionEntry.transitions(entry.get(), ds.store())))) {
      return got.value();
    } catch (IOException e) {
      throw new UncheckedIOException("Reading the stable partition transitions failed: " + ds.location(), e);
    }
  }

  /** Whether the index answers for the rows of fragment {@code id} (directly or through row maps). */
  public boolean covers(long id) {
    return contains(fragments, id);
  }

  /** Whether fragment {@code id} is in the index's own bitmap (its rows need no translation). */
  public boolean direct(long id) {
    return contains(direct, id);
  }

  /** The fragments the index answers for, directly or through transitions (may name retired ids). */
  RoaringBitmap fragments() {
    return fragments.clone();
  }

  /** The transitions the index answers through, oldest first (empty: no translation needed). */
  public List<StablePartitionTransition> through() {
    return through;
  }

  /** Of {@code live}, the ids the index answers for. */
  public List<Long> covered(List<Fragment> live) {
    List<Long> out = new ArrayList<>();
    for (Fragment f : live) {
      if (covers(f.id())) {
        out.add(f.id());
      }
    }
    return out;
  }

  /** Of {@code live}, the ids the index answers for only through transitions. */
  public List<Long> translated(List<Fragment> live) {
    List<Long> out = new ArrayList<>();
    for (Fragment f : live) {
      if (covers(f.id()) && !direct(f.id())) {
        out.add(f.id());
      }
    }
    return out;
  }

  private static boolean contains(RoaringBitmap b, long id) {
    return id >= 0 && id <= 0xFFFFFFFFL && b.contains((int) id);
  }
}
