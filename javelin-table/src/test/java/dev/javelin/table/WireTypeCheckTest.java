package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.UnknownFieldSet;
import dev.javelin.table.proto.TableProtos;
import org.junit.jupiter.api.Test;

class WireTypeCheckTest {
  private static TableProtos.DataFragment fragment(UnknownFieldSet unknown) {
    return TableProtos.DataFragment.newBuilder().setId(3).setPhysicalRows(10)
        .addFiles(TableProtos.DataFile.newBuilder().setPath("a.lance").addFields(0).addColumnIndices(0))
        .setUnknownFields(unknown).build();
  }

  @Test
  void newerWritersFieldsAreFine() throws Exception {
    UnknownFieldSet added = UnknownFieldSet.newBuilder()
        .addField(30, UnknownFieldSet.Field.newBuilder().addVarint(7).addVarint(8).build())
        .addField(31, UnknownFieldSet.Field.newBuilder().addFixed64(1).build()).build();
    TableProtos.DataFragment f = TableProtos.DataFragment.parseFrom(fragment(added).toByteArray());
    assertThat(WireTypeCheck.problem(f)).isEmpty();
    assertThat(WireTypeCheck.problem(TableProtos.Manifest.newBuilder().addFragments(f).build())).isEmpty();
  }

  @Test
  void aDeclaredFieldWithAnotherWireTypeIsReported() throws Exception {
    // Field 2 (files) is a message; a fixed32 under that number cannot come from any writer.
    UnknownFieldSet shifted = UnknownFieldSet.newBuilder()
        .addField(2, UnknownFieldSet.Field.newBuilder().addFixed32(5).build()).build();
    TableProtos.DataFragment f = TableProtos.DataFragment.parseFrom(fragment(shifted).toByteArray());
    TableProtos.Manifest m = TableProtos.Manifest.newBuilder().addFragments(f).build();
    assertThat(WireTypeCheck.problem(m)).contains("Manifest.fragments[0].files (field 2) has the wrong wire type");
  }

  @Test
  void anUnknownFieldWithTwoWireTypesIsReported() throws Exception {
    UnknownFieldSet mixed = UnknownFieldSet.newBuilder()
        .addField(77, UnknownFieldSet.Field.newBuilder().addVarint(56).addFixed64(9).build()).build();
    TableProtos.DataFragment f = TableProtos.DataFragment.parseFrom(fragment(mixed).toByteArray());
    assertThat(WireTypeCheck.problem(f)).contains("DataFragment has unknown field 77 with two wire types");
  }

  @Test
  void anUnknownFieldFarPastLancesNumbersIsReported() throws Exception {
    // A data file's tag byte 0x12 flipped to 0xED took the file's length byte into the tag: field
    // 941, fixed32, and the file's own fields read as the fragment's. Seen in ManifestByteFlipTest.
    UnknownFieldSet shifted = UnknownFieldSet.newBuilder()
        .addField(941, UnknownFieldSet.Field.newBuilder().addFixed32(5).build()).build();
    TableProtos.DataFragment f = TableProtos.DataFragment.parseFrom(fragment(shifted).toByteArray());
    assertThat(WireTypeCheck.problem(TableProtos.Manifest.newBuilder().addFragments(f).build()))
        .contains("Manifest.fragments[0] has unknown field 941, past any field number Lance uses");
    UnknownFieldSet highest = UnknownFieldSet.newBuilder()
        .addField(WireTypeCheck.MAX_FIELD_NUMBER, UnknownFieldSet.Field.newBuilder().addVarint(1).build()).build();
    assertThat(WireTypeCheck.problem(TableProtos.DataFragment.parseFrom(fragment(highest).toByteArray()))).isEmpty();
  }
}
