package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.common.Progress;
import dev.javelin.common.ProgressListener;
import dev.javelin.core.compaction.CompactionScope;
import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.CleanupResult;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Long operations report their stages to a ProgressListener: started, advanced to the total, finished. */
class ProgressTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /** Every report, in order (reports may come from several threads). */
  private static final class Recorder implements ProgressListener {
    final List<Progress> reports = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void onProgress(Progress p) {
      reports.add(p);
    }

    /** Each stage's last report, by stage name, in the order the stages started. */
    Map<String, Progress> last() {
      Map<String, Progress> out = new LinkedHashMap<>();
      synchronized (reports) {
        for (Progress p : reports) {
          out.put(p.stage(), p);
        }
      }
      return out;
    }

    /** Checks that each stage starts at 0, never goes back, and ends with one finished report. */
    void assertWellFormed() {
      Map<String, Long> seen = new LinkedHashMap<>();
      synchronized (reports) {
        for (Progress p : reports) {
          Long before = seen.get(p.stage());
          if (before == null) {
            assertThat(p.done()).as("first report of " + p.stage()).isZero();
            assertThat(p.finished()).isFalse();
          } else if (!p.finished()) {
            assertThat(p.done()).as(p.stage()).isGreaterThanOrEqualTo(before);
          }
          seen.put(p.stage(), p.done());
        }
      }
      last().values().forEach(p -> assertThat(p.finished()).as(p.stage() + " finished").isTrue());
    }
  }

  private Dataset create(int rows, int perFile, ProgressListener listener) {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, 0, rows, 500);
    try {
      return Dataset.create(dir.resolve("ds"), batches,
          WriteParams.builder().maxRowsPerFile(perFile).progress(listener).build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  @Test
  void aWriteCountsItsRows() {
    Recorder r = new Recorder();
    Dataset ds = create(3000, 1000, r);
    r.assertWellFormed();
    Progress done = r.last().get("write rows");
    assertThat(done.operation()).isEqualTo("create");
    assertThat(done.done()).isEqualTo(3000);
    assertThat(done.total()).isEqualTo(-1);
    assertThat(done.fraction()).isEqualTo(-1);
    assertThat(done.unit()).isEqualTo(Progress.Unit.ROWS);
    // One report per batch of 500 rows, between the start and the end.
    assertThat(r.reports).hasSize(1 + 6 + 1);
    assertThat(ds.countRows()).isEqualTo(3000);
  }

  @Test
  void anIndexBuildCountsTheRowsItReadsThenItsFiles() {
    Dataset ds = create(3000, 1000, ProgressListener.NONE).delete("id < 100");
    Recorder r = new Recorder();
    ds.createIndex("id").btree().progress(r).commit();
    r.assertWellFormed();
    assertThat(r.last().keySet()).containsExactly("read rows", "write index files");
    Progress read = r.last().get("read rows");
    assertThat(read.operation()).isEqualTo("create index id_idx");
    assertThat(read.done()).isEqualTo(2900).isEqualTo(read.total());
    assertThat(read.fraction()).isEqualTo(1.0);
    assertThat(r.last().get("write index files").done()).isEqualTo(1);
  }

  @Test
  void aCompactionCountsTheRowsOfTheTasksItRan() {
    Dataset ds = create(3000, 500, ProgressListener.NONE).addColumns(Map.of("y", "id * 2"));
    Recorder r = new Recorder();
    ds.compact().scope(CompactionScope.REPACK_COLUMNS).maxDataFilesPerFragment(1).numThreads(2).progress(r).commit();
    r.assertWellFormed();
    Progress p = r.last().get("rewrite and repack");
    assertThat(p.operation()).isEqualTo("compact");
    assertThat(p.total()).isEqualTo(3000);
    assertThat(p.done()).isEqualTo(3000);
    // One report per task (6 fragments, one task each), between the start and the end.
    assertThat(r.reports).hasSize(1 + 6 + 1);
  }

  @Test
  void aClusteringCountsBothPasses() {
    Dataset ds = create(3000, 1000, ProgressListener.NONE).delete("id % 10 = 0");
    Recorder r = new Recorder();
    ds.cluster().by("x").noZoneMaps().batchSize(256).progress(r).commit();
    r.assertWellFormed();
    assertThat(r.last().keySet())
        .containsExactly("pass 1 of 2: read and sort keys", "pass 2 of 2: write rows in order");
    for (Progress p : r.last().values()) {
      assertThat(p.operation()).isEqualTo("cluster");
      assertThat(p.done()).isEqualTo(2700).isEqualTo(p.total());
    }
  }

  @Test
  void aCleanupCountsTheFilesItDeletes() {
    Dataset ds = create(3000, 1000, ProgressListener.NONE).delete("id < 10").addColumns(Map.of("y", "id + 1"));
    Recorder r = new Recorder();
    CleanupResult c = ds.cleanup(CleanupPolicy.builder().retainVersions(1).gracePeriod(Duration.ZERO)
        .progress(r).build());
    r.assertWellFormed();
    Progress p = r.last().get("delete files");
    assertThat(p.operation()).isEqualTo("cleanup");
    assertThat(p.total()).isEqualTo(-1);
    assertThat(c.manifestsRemoved()).isEqualTo(2);
    assertThat(p.done()).isEqualTo(c.manifestsRemoved() + c.dataFilesRemoved() + c.deletionFilesRemoved()
        + c.transactionFilesRemoved() + c.indexFilesRemoved() + c.temporaryFilesRemoved()).isPositive();
  }

  @Test
  void aSettleCountsTheIndicesItRemaps() {
    Dataset ds = create(3000, 1000, ProgressListener.NONE).createIndex("id").btree().commit().dataset();
    ds = ds.cluster().by("x").commit().dataset();
    Recorder r = new Recorder();
    ds.settleIndices(r);
    r.assertWellFormed();
    Progress p = r.last().get("remap indices");
    assertThat(p.operation()).isEqualTo("settle indices");
    assertThat(p.done()).isEqualTo(1).isEqualTo(p.total());
    assertThat(p.unit()).isEqualTo(Progress.Unit.INDICES);
  }

  @Test
  void aListenerThatThrowsFailsTheWriteAndLeavesNothing() throws Exception {
    ProgressListener failing = p -> {
      if (p.done() >= 1000) {
        throw new IllegalStateException("stop here");
      }
    };
    assertThatThrownBy(() -> create(3000, 1000, failing)).hasMessage("stop here");
    try (Stream<Path> files = Files.walk(dir)) {
      assertThat(files.filter(Files::isRegularFile)).isEmpty();
    }
  }
}
