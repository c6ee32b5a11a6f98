package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ManifestNamingTest {
  @Test
  void v2NamesInvertTheVersionInTwentyDigits() {
    assertThat(ManifestNaming.V2.fileName(1)).isEqualTo("18446744073709551614.manifest");
    assertThat(ManifestNaming.V2.fileName(0)).isEqualTo("18446744073709551615.manifest");
    assertThat(ManifestNaming.V2.fileName(-2L - 999)).isEqualTo("00000000000000001000.manifest");
    assertThat(ManifestNaming.version("18446744073709551614.manifest")).hasValue(1);
    assertThat(ManifestNaming.of("18446744073709551614.manifest")).isEqualTo(ManifestNaming.V2);
  }

  @Test
  void v1NamesAreTheVersion() {
    assertThat(ManifestNaming.V1.fileName(12)).isEqualTo("12.manifest");
    assertThat(ManifestNaming.version("12.manifest")).hasValue(12);
    assertThat(ManifestNaming.of("12.manifest")).isEqualTo(ManifestNaming.V1);
  }

  @Test
  void otherNamesAreNotVersions() {
    assertThat(ManifestNaming.version("d3.manifest")).isEmpty();
    assertThat(ManifestNaming.version("latest_version_hint.json")).isEmpty();
    assertThat(ManifestNaming.version(".manifest")).isEmpty();
    assertThat(ManifestNaming.version("1.manifest.tmp")).isEmpty();
  }

  @Test
  void v2ListingOrderIsNewestFirst() {
    assertThat(ManifestNaming.V2.fileName(10)).isLessThan(ManifestNaming.V2.fileName(9));
  }
}
