package dev.javelin.core.compaction;

import dev.javelin.format.schema.LanceField;
import dev.javelin.table.DataFile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans the new files of one fragment's column repack, or none. Rules: a merge only takes files
 * it empties, two or more at a time; no plan adds a file; files holding a blob or a column split
 * over files are left alone; a V2.0 header-only file goes only with its struct. Without groups,
 * when every file could go, the largest file that can stay stays (unless the limit is 1). With
 * groups, a group no single file holds exactly moves into its own file (if that empties a file),
 * and over the limit the files holding only unclaimed columns merge into one.
 */
final class RepackPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(RepackPlanner.class);

  private RepackPlanner() {}

  /** The new files (top-level field ids each), empty when the fragment needs no repack. */
  static List<List<Integer>> plan(FragmentColumns fc, Integer maxFiles, List<List<String>> groups, String location) {
    if (fc.legacy || fc.liveFiles.size() < 2) {
      return List.of();
    }
    boolean overLimit = maxFiles != null && fc.liveFiles.size() > maxFiles;
    List<List<Integer>> planned = groups == null ? List.of() : planGroups(fc, maxFiles, groups, location);
    if (groups == null && overLimit) {
      planned = mergeAll(fc, maxFiles);
    }
    return planned;
  }

  private static List<List<Integer>> mergeAll(FragmentColumns fc, int maxFiles) {
    Set<DataFile> candidates = new LinkedHashSet<>();
    for (DataFile d : fc.liveFiles) {
      if (!fc.filePinned(d)) {
        candidates.add(d);
      }
    }
    Set<DataFile> merge = fc.closure(candidates);
    if (merge.size() == fc.liveFiles.size() && maxFiles > 1) {
      // Every file could go: leave the largest in place that still lets two or more merge.
      List<DataFile> bySize = new ArrayList<>(merge);
      bySize.sort(Comparator.comparingLong(DataFile::fileSizeBytes).reversed());
      Set<DataFile> best = Set.of();
      for (DataFile keep : bySize) {
        Set<DataFile> rest = new LinkedHashSet<>(merge);
        rest.remove(keep);
        rest = fc.closure(rest);
        if (rest.size() >= 2) {
          best = rest;
          break;
        }
      }
      merge = best;
    }
    if (merge.size() < 2) {
      return List.of();
    }
    return List.of(fc.ownedBy(merge));
  }

  private static List<List<Integer>> planGroups(FragmentColumns fc, Integer maxFiles, List<List<String>> groups,
      String location) {
    Set<Integer> claimed = new HashSet<>();
    List<Set<Integer>> resolved = new ArrayList<>();
    for (List<String> g : groups) {
      Set<Integer> ids = new LinkedHashSet<>();
      for (String name : g) {
        LanceField c = fc.columns.stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
        if (c == null) {
          LOG.warn("Column group names '" + name + "', which is not a top-level column; skipped: " + location);
        } else if (!fc.owners.get(c.id()).isEmpty()) {
          ids.add(c.id());
        }
      }
      ids.removeAll(claimed); // a column belongs to its first group
      claimed.addAll(ids);
      if (!ids.isEmpty()) {
        resolved.add(ids);
      }
    }
    List<List<Integer>> planned = new ArrayList<>();
    Set<DataFile> emptied = new HashSet<>();
    Set<Integer> moved = new HashSet<>();
    for (Set<Integer> g : resolved) {
      boolean matches = fc.liveFiles.stream().anyMatch(d -> fc.owned.get(d).equals(g));
      if (matches || g.stream().anyMatch(fc.pinned::contains)
          || g.stream().anyMatch(c -> fc.holders.get(c).size() != 1)) {
        continue;
      }
      List<DataFile> empties = new ArrayList<>();
      for (DataFile d : fc.liveFiles) {
        if (!emptied.contains(d) && g.containsAll(fc.owned.get(d))) {
          empties.add(d);
        }
      }
      if (empties.isEmpty()) {
        continue; // it would add a file
      }
      emptied.addAll(empties);
      moved.addAll(g);
      planned.add(orderOf(fc, g));
    }
    int after = fc.liveFiles.size() - emptied.size() + planned.size();
    if (maxFiles != null && after > maxFiles) {
      // Files left holding only columns no group claims merge into one.
      Set<DataFile> candidates = new LinkedHashSet<>();
      for (DataFile d : fc.liveFiles) {
        Set<Integer> left = new HashSet<>(fc.owned.get(d));
        left.removeAll(moved);
        if (!emptied.contains(d) && !left.isEmpty() && claimed.stream().noneMatch(left::contains)
            && !fc.filePinned(d)) {
          candidates.add(d);
        }
      }
      Set<DataFile> merge = closureLeft(fc, candidates, moved);
      if (merge.size() >= 2) {
        Set<Integer> cols = new LinkedHashSet<>();
        merge.forEach(d -> cols.addAll(fc.owned.get(d)));
        cols.removeAll(moved);
        planned.add(orderOf(fc, cols));
      }
    }
    return planned;
  }

  // Like FragmentColumns.closure, for columns not already moved by a group.
  private static Set<DataFile> closureLeft(FragmentColumns fc, Set<DataFile> set, Set<Integer> moved) {
    Set<DataFile> c = new LinkedHashSet<>(set);
    boolean changed = true;
    while (changed) {
      changed = false;
      for (DataFile d : new ArrayList<>(c)) {
        if (fc.owned.get(d).stream().anyMatch(col -> !moved.contains(col) && !fc.movableFrom(col, c))) {
          c.remove(d);
          changed = true;
        }
      }
    }
    return c;
  }

  private static List<Integer> orderOf(FragmentColumns fc, Set<Integer> cols) {
    List<Integer> out = new ArrayList<>();
    for (LanceField c : fc.columns) {
      if (cols.contains(c.id())) {
        out.add(c.id());
      }
    }
    return out;
  }
}
