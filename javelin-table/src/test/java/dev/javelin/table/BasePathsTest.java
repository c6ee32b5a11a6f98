package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.io.LocalObjectStore;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.proto.TableProtos;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a manifest's files are: its own root, or a base path (a dataset root or a file directory). */
class BasePathsTest {
  @TempDir Path dir;

  private Manifest manifest(TableProtos.DataFragment... fragments) {
    return new Manifest(TableProtos.Manifest.newBuilder()
        .addBasePaths(TableProtos.BasePath.newBuilder().setId(0).setIsDatasetRoot(true).setPath(dir.resolve("src").toString()))
        .addBasePaths(TableProtos.BasePath.newBuilder().setId(3).setIsDatasetRoot(false)
            .setPath("file://" + dir.resolve("imported")))
        .addAllFragments(List.of(fragments)).build(), List.of(), null);
  }

  private static TableProtos.DataFragment fragment(long id, Integer dataBase, Integer deletionBase) {
    TableProtos.DataFile.Builder f = TableProtos.DataFile.newBuilder().setPath("f" + id + ".lance");
    TableProtos.DeletionFile.Builder d = TableProtos.DeletionFile.newBuilder().setReadVersion(2).setId(9);
    if (dataBase != null) {
      f.setBaseId(dataBase);
    }
    if (deletionBase != null) {
      d.setBaseId(deletionBase);
    }
    return TableProtos.DataFragment.newBuilder().setId(id).addFiles(f).setDeletionFile(d).setPhysicalRows(5).build();
  }

  @Test
  void filesResolveThroughTheirBase() {
    LocalObjectStore own = new LocalObjectStore(dir.resolve("own"));
    Manifest m = manifest(fragment(0, null, null), fragment(1, 0, 0), fragment(2, 3, 3));
    Fragment mine = m.fragments().get(0);
    assertThat(mine.files().get(0).store(own)).isSameAs(own);
    assertThat(mine.files().get(0).key(own)).isEqualTo("data/f0.lance");
    assertThat(mine.deletionFile().get().key(own, 0)).isEqualTo("_deletions/0-2-9.arrow");

    Fragment root = m.fragments().get(1);
    assertThat(root.files().get(0).store(own).location()).isEqualTo(dir.resolve("src").toString());
    assertThat(root.files().get(0).key(own)).isEqualTo("data/f1.lance");
    assertThat(root.deletionFile().get().store(own, 1).location()).isEqualTo(dir.resolve("src").toString());
    assertThat(root.deletionFile().get().key(own, 1)).isEqualTo("_deletions/1-2-9.arrow");

    Fragment imported = m.fragments().get(2);
    assertThat(imported.files().get(0).store(own).location()).isEqualTo(dir.resolve("imported").toString());
    assertThat(imported.files().get(0).key(own)).isEqualTo("f2.lance");
    assertThat(imported.deletionFile().get().key(own, 2)).isEqualTo("2-2-9.arrow");
    assertThat(m.basePaths().nextId()).isEqualTo(4);
  }

  @Test
  void aBaseIdTheManifestDoesNotListIsCorrupt() {
    LocalObjectStore own = new LocalObjectStore(dir.resolve("own"));
    Manifest m = manifest(fragment(0, 7, null));
    assertThatThrownBy(() -> m.fragments().get(0).files().get(0).store(own))
        .isInstanceOf(CorruptManifestException.class)
        .hasMessage("f0.lance names base path id 7, which the manifest does not list: " + own.location());
    // A file not read from a manifest cannot know where its base is.
    DataFile loose = DataFile.fromProto(m.fragments().get(0).files().get(0).proto());
    assertThatThrownBy(() -> loose.store(own)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void indicesOfAFileDirectoryBaseAreRefused() {
    LocalObjectStore own = new LocalObjectStore(dir.resolve("own"));
    Manifest m = manifest();
    IndexMetadata i = IndexMetadata.builder().name("i").baseId(3).build();
    assertThatThrownBy(() -> m.basePaths().indexStore(own, i)).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("Index i lives under base path 3, which is not a dataset root");
    assertThat(m.basePaths().indexStore(own, i.toBuilder().baseId(0).build()).location())
        .isEqualTo(dir.resolve("src").toString());
  }
}
