package dev.javelin.index.internal.ivf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The schema metadata of the IVF_PQ files, byte for byte as Javelin has always written it (Lance reads it). */
class IvfPqFilesTest {
  @Test
  void metadataIsWrittenAsBefore() {
    assertThat(IvfPqFiles.indexMetadata(3, "l2")).isEqualTo(Map.of(
        "lance:index", "{\"type\":\"IVF_PQ\",\"distance_type\":\"l2\"}",
        "lance:ivf", "1",
        "lance:flat", "[\"\",\"\",\"\"]"));
    assertThat(IvfPqFiles.indexMetadata(0, "cosine").get("lance:flat")).isEqualTo("[]");
    assertThat(IvfPqFiles.auxiliaryMetadata("dot", 16, 32)).isEqualTo(Map.of(
        "distance_type", "dot",
        "lance:ivf", "1",
        "storage_metadata", "[\"{\\\"codebook_position\\\":2,\\\"nbits\\\":8,\\\"num_sub_vectors\\\":16,"
            + "\\\"dimension\\\":32,\\\"codebook_tensor\\\":[],\\\"transposed\\\":true}\"]"));
  }
}
