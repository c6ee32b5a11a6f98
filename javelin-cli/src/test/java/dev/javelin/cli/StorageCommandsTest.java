package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.testing.AzuriteServer;
import dev.javelin.testing.S3MockServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The commands on datasets in S3 (S3Mock) and Azure (Azurite), by URI and --storage-option. */
class StorageCommandsTest extends CliTestBase {
  private static final String BUCKET = S3MockServer.shared().newBucket();
  private static final String PEOPLE = "id,name,score\n1,ann,1.5\n2,bob,\n3,cy,3.25\n";

  private final String uri = "s3://" + BUCKET + "/cli-" + UUID.randomUUID() + "/people";

  // The command with the S3Mock options as --storage-option flags.
  private static Result s3(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    for (Map.Entry<String, String> e : S3MockServer.shared().storageOptions().entrySet()) {
      all.add("--storage-option");
      all.add(e.getKey() + "=" + e.getValue());
    }
    return run(all.toArray(new String[0]));
  }

  @Test
  void createsScansChangesAndCleansADatasetInS3() throws Exception {
    text("people.csv", PEOPLE);
    Result created = s3("create", uri, "--input", path("people.csv"));
    assertThat(created.code).as(created.toString()).isZero();
    assertThat(created.err).isEqualTo("Created " + uri + ": version 1, 3 rows in 1 fragment (Lance 2.1 files)\n");
    text("more.csv", "id,name,score\n4,dee,4\n");
    assertThat(s3("append", uri, "--input", path("more.csv")).code).isZero();
    Result scan = s3("scan", uri, "--columns", "id,score", "--format", "csv");
    assertThat(scan.out).as(scan.toString()).isEqualTo("id,score\n1,1.5\n2,\n3,3.25\n4,4.0\n");
    Result deleted = s3("delete", uri, "--where", "id = 2");
    assertThat(deleted.code).as(deleted.toString()).isZero();
    assertThat(s3("count", uri).out).isEqualTo("3\n");
    Result index = s3("index", "create", uri, "--column", "id");
    assertThat(index.code).as(index.toString()).isZero();
    Result describe = s3("index", "describe", uri, "id_idx");
    assertThat(describe.out).as(describe.toString()).contains("_indices/").contains(".lance");
    assertThat(s3("scan", uri, "--filter", "id = 3", "--columns", "name", "--format", "csv").out)
        .isEqualTo("name\ncy\n");
    assertThat(s3("count", uri, "--as-of", "2").out).isEqualTo("4\n");
    Result versions = s3("versions", uri);
    assertThat(versions.out.lines().count()).as(versions.toString()).isEqualTo(1 + 4);
    Result cleanup = s3("cleanup", uri, "--retain", "1", "--grace-period", "0s");
    assertThat(cleanup.code).as(cleanup.toString()).isZero();
    assertThat(s3("count", uri).out).isEqualTo("3\n");
  }

  @Test
  void createsAndScansADatasetInAzureBlobStorage() throws Exception {
    String container = "cli" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    AzuriteServer.shared().createContainer(container);
    String az = "az://" + container + "/people";
    List<String> options = new ArrayList<>();
    for (Map.Entry<String, String> e : AzuriteServer.shared().storageOptions().entrySet()) {
      options.add("--storage-option");
      options.add(e.getKey() + "=" + e.getValue());
    }
    text("people.csv", PEOPLE);
    List<String> create = new ArrayList<>(List.of("create", az, "--input", path("people.csv")));
    create.addAll(options);
    Result created = run(create.toArray(new String[0]));
    assertThat(created.code).as(created.toString()).isZero();
    List<String> scan = new ArrayList<>(List.of("scan", az, "--filter", "score > 1", "--format", "csv"));
    scan.addAll(options);
    assertThat(run(scan.toArray(new String[0])).out).isEqualTo("id,name,score\n1,ann,1.5\n3,cy,3.25\n");
  }

  @Test
  void aSchemeWithoutAStoreIsABadArgument() {
    Result r = run("count", "gs://bucket/people");
    assertThat(r.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(r.err).isEqualTo("javelin: Unknown storage scheme 'gs' in gs://bucket/people; Javelin opens "
        + "local paths, file:, abfs, abfss, az, azure, s3, s3a URIs\n");
  }

  @Test
  void aStorageOptionNeedsAKeyAndValue() {
    Result r = run("count", uri, "--storage-option", "aws_allow_http=maybe");
    assertThat(r.code).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(r.err).contains("aws_allow_http");
  }
}
