package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompactCommandsTest extends CliTestBase {
  /** 10 rows in fragments of 4, 4 and 2, then one backfilled column: two files per fragment. */
  private String create() throws Exception {
    StringBuilder csv = new StringBuilder("id,name\n");
    for (int i = 0; i < 10; i++) {
      csv.append(i).append(",n").append(i % 3).append('\n');
    }
    text("rows.csv", csv.toString());
    Result r = run("create", path("ds"), "--input", path("rows.csv"), "--max-rows-per-file", "4");
    assertThat(r.code).as(r.toString()).isZero();
    Result a = run("add-columns", path("ds"), "--expr", "twice=id * 2");
    assertThat(a.code).as(a.toString()).isZero();
    return path("ds");
  }

  @Test
  void layoutShowsFilesPerFragment() throws Exception {
    String ds = create();
    Result r = run("layout", ds);
    assertThat(r.code).as(r.toString()).isZero();
    String[] lines = r.out.split("\n");
    assertThat(lines[0]).isEqualTo("fragment  rows  files  columns   size  dead  overlays  layout");
    assertThat(lines[1]).matches("       0     4      2        3  \\d{3} B    0%         0  ##");
    assertThat(lines[3]).matches("       2     2      2        3  \\d{3} B    0%         0  ##");
    assertThat(lines[4]).isEqualTo("3 fragments, 6 data files, 2.00 per fragment, max 2");
    Result j = run("layout", ds, "--json");
    assertThat(j.out).startsWith("[{\"fragment_id\":0,\"physical_rows\":4,\"data_files\":2,\"dead_slot_share\":0.0000,"
        + "\"overlays\":0,\"files\":[{\"path\":");
    assertThat(j.out).contains("\"schema_fields\":2,\"slots\":2}", "\"schema_fields\":1,\"slots\":1}");
  }

  @Test
  void dryRunPrintsThePlanAndCommitsNothing() throws Exception {
    String ds = create();
    Result r = run("compact", ds, "--scope", "repack", "--max-data-files-per-fragment", "1", "--dry-run");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).isEqualTo("Plan on version 2: 3 tasks\n"
        + "  repack   fragment 0 -> [id, name, twice]\n"
        + "  repack   fragment 1 -> [id, name, twice]\n"
        + "  repack   fragment 2 -> [id, name, twice]\n"
        + "Dry run: nothing committed\n");
    assertThat(run("versions", ds).out.trim().split("\n")).hasSize(3); // header + 2 versions
  }

  @Test
  void quietCompactPrintsThePlanAndSummaryButNoTaskLines() throws Exception {
    String ds = create();
    Result r = run("compact", ds, "--scope", "repack", "--max-data-files-per-fragment", "1", "--quiet");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.err).isEmpty();
    assertThat(r.out).startsWith("Plan on version 2: 3 tasks\n")
        .contains("After:  3 fragments, 1.00 files per fragment");
  }

  @Test
  void compactRewritesAndRepacksWithProgressAndSummary() throws Exception {
    String ds = create();
    assertThat(run("delete", ds, "--filter", "id = 0").code).isZero(); // fragment 0: a quarter deleted
    String[] args = {"compact", ds, "--column-groups", "id,name,twice", "--target-rows-per-fragment", "4"};
    Result r = run(args);
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).isEqualTo("Plan on version 3: 3 tasks\n"
        + "  rewrite  fragments [0]\n"
        + "  repack   fragment 1 -> [id, name, twice]\n"
        + "  repack   fragment 2 -> [id, name, twice]\n"
        + "Before: 3 fragments, 2.00 files per fragment (max 2), version 3\n"
        + "After:  3 fragments, 1.00 files per fragment (max 1), version 6 (3 versions committed)\n");
    assertThat(r.err).isEqualTo("[1/3] rewrote fragments [0] into 1 fragment\n"
        + "[2/3] repacked fragment 1 into 1 new file\n"
        + "[3/3] repacked fragment 2 into 1 new file\n");
    Result scan = run("scan", ds, "--format", "csv", "--filter", "id >= 7 OR id < 2");
    assertThat(scan.out).isEqualTo("id,name,twice\n7,n1,14\n8,n2,16\n9,n0,18\n1,n1,2\n");
    assertThat(run("compact", ds, "--column-groups", "id,name,twice", "--scope", "repack").out)
        .isEqualTo("Plan on version 6: 0 tasks\n");
  }

  @Test
  void binaryCopyModeAndBadOptions() throws Exception {
    String ds = create();
    Result r = run("compact", ds, "--mode", "binary-copy", "--scope", "rewrite");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).endsWith("After:  1 fragment, 2.00 files per fragment (max 2), version 4 (2 versions committed)\n");
    Result bad = run("compact", ds, "--scope", "everything");
    assertThat(bad.code).isNotZero();
    assertThat(bad.err).contains("--scope must be all, rewrite or repack, got 'everything'");
    Result badMode = run("compact", ds, "--mode", "fast");
    assertThat(badMode.err).contains("--mode must be reencode or binary-copy, got 'fast'");
  }

  // An index entry of a kind Javelin neither reads nor remaps (as lance-core writes it), over
  // fragments 0, 1 and 2.
  private static dev.javelin.table.IndexMetadata foreignIndex(String name, int field, String detailsType,
      long version) {
    return dev.javelin.table.IndexMetadata.builder()
        .uuid(java.util.UUID.randomUUID().toString())
        .name(name).fields(java.util.List.of(field)).datasetVersion(version)
        .fragmentBitmap(org.roaringbitmap.RoaringBitmap.bitmapOf(0, 1, 2))
        .details(detailsType)
        .indexVersion(0).build();
  }

  @Test
  void compactRewritesFragmentsIndicesOfOtherKindsCover() throws Exception {
    String ds = create();
    Result bitmap = run("index", "create", ds, "--column", "name", "--type", "bitmap", "--name", "name_bitmap");
    assertThat(bitmap.code).as(bitmap.toString()).isZero();
    Result ngram = run("index", "create", ds, "--column", "name", "--type", "ngram", "--name", "name_ngram");
    assertThat(ngram.code).as(ngram.toString()).isZero();
    assertThat(ngram.err).startsWith("Created index name_ngram (ngram on name, 3 fragments)");
    dev.javelin.core.Dataset d = dev.javelin.core.Dataset.open(java.nio.file.Path.of(ds), allocator);
    dev.javelin.table.Table.at(d.store()).newCommit(dev.javelin.table.Transaction.createIndex(d.version(), java.util.List.of(
        foreignIndex("name_fts", 1, "/lance.table.InvertedIndexDetails", d.version())), java.util.List.of()))
        .commit();
    assertThat(run("delete", ds, "--filter", "id = 5").code).isZero();
    Result r = run("compact", ds, "--target-rows-per-fragment", "100");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).contains("After:  1 fragment");
    dev.javelin.core.Dataset after = dev.javelin.core.Dataset.open(java.nio.file.Path.of(ds), allocator);
    java.util.Map<String, java.util.Set<Long>> coverage = new java.util.HashMap<>();
    after.indices().forEach(i -> coverage.put(i.name(), i.fragments()));
    // The bitmap and n-gram indices are remapped to the new fragment; the inverted one keeps the
    // old ones as retired ids (lance-core searches it through a prefilter that skips fragments
    // that are gone).
    assertThat(coverage).containsEntry("name_bitmap", java.util.Set.of(3L))
        .containsEntry("name_ngram", java.util.Set.of(3L))
        .containsEntry("name_fts", java.util.Set.of(0L, 1L, 2L));
    assertThat(after.countRows("name = 'n2'")).isEqualTo(2); // ids 2 and 8 (5 is deleted)
  }
}
