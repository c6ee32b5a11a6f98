package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.io.LocalObjectStore;
import dev.javelin.table.Table;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Damaged manifests, leftovers of killed writers and failing commands: every failure is one line
 * on stderr with exit 1 or 2, never an internal error (70), and older versions stay reachable.
 */
class DamagedDatasetCommandsTest extends CliTestBase {
  // Three fragments of 4 rows, two data files each, a BTree index on id, a deletion.
  private String indexed() throws Exception {
    StringBuilder csv = new StringBuilder("id,name\n");
    for (int i = 0; i < 12; i++) {
      csv.append(i).append(",n").append(i).append('\n');
    }
    text("rows.csv", csv.toString());
    String ds = path("ds");
    assertThat(run("create", ds, "--input", path("rows.csv"), "--max-rows-per-file", "4").code).isZero();
    assertThat(run("add-columns", ds, "--expr", "twice=id * 2").code).isZero();
    assertThat(run("index", "create", ds, "--column", "id").code).isZero();
    assertThat(run("delete", ds, "--where", "id = 5").code).isZero();
    return ds;
  }

  private static Path newestManifest(String ds) {
    Table t = Table.at(new LocalObjectStore(Path.of(ds)));
    return Path.of(ds).resolve(t.listVersions().lastEntry().getValue());
  }

  private static void assertOneLineFailure(Result r, String what) {
    assertThat(r.code).as(what + ": " + r).isIn(ExitCodes.GENERIC, ExitCodes.INVALID_INPUT);
    assertThat(r.err).as(what + ": " + r).startsWith(ErrorHandler.PREFIX).doesNotContain("internal error");
    // A bad argument adds picocli's pointer to --help.
    assertThat(r.err.lines().skip(1)).as(what + ": " + r).allMatch(l -> l.startsWith("Try 'javelin "));
  }

  @Test
  void flippedManifestBytesFailWithExitOneOrTwoOrReadTheSame() throws Exception {
    String ds = indexed();
    String[][] commands = {
      {"scan", ds, "--format", "csv"},
      {"count", ds, "--filter", "id >= 3 AND id < 10"},
      {"scan", ds, "--format", "csv", "--columns", "id,twice", "--filter", "id >= 3 AND id < 10"},
    };
    List<String> expected = new ArrayList<>();
    for (String[] c : commands) {
      Result r = run(c);
      assertThat(r.code).as(r.toString()).isZero();
      expected.add(r.out);
    }
    assertThat(run("scan", ds, "--explain", "--filter", "id >= 3 AND id < 10").err).contains("id_idx");
    Path manifest = newestManifest(ds);
    byte[] original = Files.readAllBytes(manifest);
    int refused = 0;
    int step = original.length / 60; // a sample; ManifestByteFlipTest flips every byte
    for (int i = 0; i < original.length; i += step) {
      byte[] damaged = original.clone();
      damaged[i] ^= (byte) 0xFF;
      Files.write(manifest, damaged);
      for (int c = 0; c < commands.length; c++) {
        Result r = run(commands[c]);
        if (r.code == ExitCodes.OK) {
          assertThat(r.out).as("byte %d, %s", i, String.join(" ", commands[c])).isEqualTo(expected.get(c));
        } else {
          assertOneLineFailure(r, "byte " + i + ", " + String.join(" ", commands[c]));
          refused++;
        }
      }
    }
    // Every byte of the index section (written first, after its u32 length), which names the
    // fragments the index covers, under an index-driven count.
    int indexSection = ByteBuffer.wrap(original).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
    for (int i = 4; i < 4 + indexSection; i++) {
      byte[] damaged = original.clone();
      damaged[i] ^= (byte) 0xFF;
      Files.write(manifest, damaged);
      for (int c : new int[] {1, 2}) {
        Result r = run(commands[c]);
        if (r.code == ExitCodes.OK) {
          assertThat(r.out).as("index section byte %d, %s", i, String.join(" ", commands[c]))
              .isEqualTo(expected.get(c));
        } else {
          assertOneLineFailure(r, "index section byte " + i + ", " + String.join(" ", commands[c]));
        }
      }
    }
    Files.write(manifest, original);
    assertThat(refused).isGreaterThan(60);
  }

  @Test
  void aDamagedNewestManifestLeavesOlderVersionsReachable() throws Exception {
    String ds = indexed(); // versions 1-4, 11 rows at 4
    assertThat(run("delete", ds, "--where", "id = 0").code).isZero(); // version 5
    Path manifest = newestManifest(ds);
    Files.write(manifest, "not a manifest: the bytes a failing disk left".getBytes(StandardCharsets.UTF_8));
    String problem = "Manifest file does not end with LANC: " + manifest;

    Result count = run("count", ds);
    assertThat(count.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(count.err).isEqualTo(ErrorHandler.PREFIX + problem + "\n");
    assertThat(run("count", ds, "--as-of", "4").out).isEqualTo("11\n");
    assertThat(run("scan", ds, "--as-of", "4", "--format", "csv", "--columns", "id", "--filter", "id < 3").out)
        .isEqualTo("id\n0\n1\n2\n");

    Result versions = run("versions", ds);
    assertThat(versions.code).as(versions.toString()).isZero();
    String[] lines = versions.out.split("\n");
    assertThat(lines).hasSize(6);
    assertThat(lines[4]).matches("      4  \\S+ +Delete +11");
    assertThat(lines[5]).matches("      5  - +unreadable +-");
    assertThat(versions.err).isEqualTo(ErrorHandler.PREFIX + "version 5 is unreadable: " + problem + "\n");

    Result refused = run("cleanup", ds, "--retain", "1");
    assertThat(refused.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(refused.err).startsWith(ErrorHandler.PREFIX + "Cleanup would keep version 5 but its manifest cannot "
        + "be read, so the files it uses cannot be told apart from garbage; restore an intact version first");

    Result restore = run("restore", ds, "--version", "4");
    assertThat(restore.code).as(restore.toString()).isZero();
    assertThat(restore.err).isEqualTo("Restored version 4: " + ds + " is now at version 6 (11 rows)\n");
    assertThat(run("count", ds).out).isEqualTo("11\n");
    assertThat(run("count", ds, "--filter", "id = 0").out).isEqualTo("1\n");

    Result cleanup = run("cleanup", ds, "--retain", "1");
    assertThat(cleanup.code).as(cleanup.toString()).isZero();
    assertThat(cleanup.err).startsWith("Removed 5 versions, ");
    assertThat(run("versions", ds).out.split("\n")).hasSize(2);
  }

  @Test
  void cleanupRemovesStaleTemporaryFilesAndSaysWhatItKeeps() throws Exception {
    text("rows.csv", "id\n1\n2\n");
    String ds = path("ds");
    assertThat(run("create", ds, "--input", path("rows.csv")).code).isZero();
    Path hint = Path.of(ds, "_versions", ".tmp-latest_version_hint.json-" + UUID.randomUUID());
    Files.writeString(hint, "{\"version\":2}");

    Result young = run("cleanup", ds, "--retain", "1");
    assertThat(young.code).as(young.toString()).isZero();
    assertThat(young.err).isEqualTo("Removed 0 versions, 0 data files, 0 deletion files, 0 transaction files, "
        + "0 indices, 0 temporary files: freed 0 B from " + ds + "\n"
        + "No version was removed: none older than the newest matched the policy.\n"
        + "Kept 1 unreferenced file (13 B) that no version uses: left by failed or killed writes, or by a write still "
        + "in progress, such a file stays while younger than the grace period (7d) or newer than the oldest kept "
        + "version (1).\n"
        + "To remove them sooner: --grace-period AGE (e.g. --grace-period 1h) removes those older than AGE; "
        + "--delete-unverified removes them at any age, safe only while no other process writes to the dataset.\n");
    assertThat(Files.exists(hint)).isTrue();

    Files.setLastModifiedTime(hint, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
    Result old = run("cleanup", ds, "--retain", "1", "--grace-period", "1h");
    assertThat(old.code).as(old.toString()).isZero();
    assertThat(old.err).isEqualTo("Removed 0 versions, 0 data files, 0 deletion files, 0 transaction files, "
        + "0 indices, 1 temporary file: freed 13 B from " + ds + "\n"
        + "No version was removed: none older than the newest matched the policy.\n");
    assertThat(Files.exists(hint)).isFalse();

    Result nothing = run("cleanup", ds, "--retain", "1");
    assertThat(nothing.err).isEqualTo("Removed 0 versions, 0 data files, 0 deletion files, 0 transaction files, "
        + "0 indices, 0 temporary files: freed 0 B from " + ds + "\n"
        + "No version was removed: none older than the newest matched the policy.\n");

    Files.writeString(hint, "{\"version\":2}");
    assertThat(run("cleanup", ds, "--retain", "1", "--delete-unverified").err).contains("1 temporary file");
    assertThat(Files.exists(hint)).isFalse();

    assertThat(run("cleanup", "--help").out).contains("grace period").contains("--delete-unverified")
        .contains("--grace-period").contains(".tmp-*");
  }

  @Test
  void failingCommandsExitWithOneOrTwo() throws Exception {
    String ds = indexed();
    String missing = path("missing");
    String[][] failing = {
      {"count", missing},
      {"versions", missing},
      {"cleanup", missing, "--retain", "1"},
      {"count", ds, "--as-of", "99"},
      {"count", ds, "--tag", "nope"},
      {"count", ds, "--filter", "nope = 1"},
      {"scan", ds, "--filter", "id = "},
      {"scan", ds, "--columns", "nope"},
      {"take", ds, "--rows", "1000"},
      {"restore", ds},
      {"restore", ds, "--version", "99"},
      {"cleanup", ds},
      {"cleanup", ds, "--older-than", "soon"},
      {"cleanup", ds, "--before-version", "-5"},
      {"index", "create", ds, "--column", "name", "--type", "ivf_pq"},
      {"index", "create", ds, "--column", "nope"},
      {"index", "create", ds, "--column", "id", "--type", "bitmap"},
      {"update", ds, "--where", "id = 1", "--set", "nope=1"},
      {"add-columns", ds, "--expr", "id=1"},
      {"drop-columns", ds, "nope"},
      {"tag", "create", ds, "x", "--version", "99"},
      {"create", ds, "--input", path("rows.csv")},
    };
    for (String[] c : failing) {
      assertOneLineFailure(run(c), String.join(" ", c));
    }
    assertThat(run("versions", ds).out.lines()).hasSize(5); // nothing was committed or removed
    Files.write(newestManifest(ds), new byte[64]);
    for (String command : List.of("count", "scan", "describe", "layout")) {
      assertOneLineFailure(run(command, ds), command + " on a damaged manifest");
    }
  }
}
