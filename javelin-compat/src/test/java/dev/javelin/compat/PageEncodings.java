package dev.javelin.compat;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import dev.javelin.format.proto.Encodings21.FullZipLayout;
import dev.javelin.format.proto.Encodings21.MiniBlockLayout;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a 2.1 file's pages are made of: the layouts and every compressive encoding in their
 * trees, parsed from the column metadata. Used to tell which files a reader without compressive
 * encodings can be expected to read.
 */
final class PageEncodings {
  static final String PAGE_LAYOUT_URL = "/lance.encodings21.PageLayout";

  /**
   * The encodings a 2.1 reader needs beyond plain data: bitpacking, FSST, dictionaries, RLE,
   * general (zstd/lz4) compression, constants, byte-stream split, packed structs, blobs.
   */
  private static final Set<String> PLAIN = Set.of(
      "mini_block", "full_zip", "all_null", "flat", "variable", "fixed_size_list");

  private final Set<String> used = new TreeSet<>();

  private PageEncodings() {}

  /** Collects the layouts and encodings of every page of the given 2.1 columns. */
  static PageEncodings of(List<ColumnMetadata> columns) {
    PageEncodings e = new PageEncodings();
    for (ColumnMetadata c : columns) {
      for (ColumnMetadata.Page p : c.getPagesList()) {
        e.page(p);
      }
    }
    return e;
  }

  /** Every layout and encoding seen, e.g. [flat, inline_bitpacking, mini_block]. */
  Set<String> used() {
    return used;
  }

  /** The encodings seen that are more than plain data (empty for a plain file). */
  Set<String> compressive() {
    Set<String> out = new TreeSet<>(used);
    out.removeAll(PLAIN);
    return out;
  }

  private void page(ColumnMetadata.Page page) {
    if (!page.getEncoding().hasDirect()) {
      used.add("non_direct_page_encoding");
      return;
    }
    PageLayout layout;
    try {
      Any any = Any.parseFrom(page.getEncoding().getDirect().getEncoding());
      if (!any.getTypeUrl().equals(PAGE_LAYOUT_URL)) {
        used.add("page_type:" + any.getTypeUrl());
        return;
      }
      layout = PageLayout.parseFrom(any.getValue());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("Page encoding is not a valid PageLayout", e);
    }
    layout(layout);
  }

  private void layout(PageLayout layout) {
    switch (layout.getLayoutCase()) {
      case MINI_BLOCK_LAYOUT:
        {
          used.add("mini_block");
          MiniBlockLayout m = layout.getMiniBlockLayout();
          if (m.hasRepCompression()) {
            encoding(m.getRepCompression());
          }
          if (m.hasDefCompression()) {
            encoding(m.getDefCompression());
          }
          if (m.hasValueCompression()) {
            encoding(m.getValueCompression());
          }
          if (m.hasDictionary()) {
            used.add("dictionary");
            encoding(m.getDictionary());
          }
          break;
        }
      case FULL_ZIP_LAYOUT:
        {
          used.add("full_zip");
          FullZipLayout f = layout.getFullZipLayout();
          if (f.hasValueCompression()) {
            encoding(f.getValueCompression());
          }
          break;
        }
      case ALL_NULL_LAYOUT:
        used.add("all_null");
        break;
      case BLOB_LAYOUT:
        used.add("blob");
        layout(layout.getBlobLayout().getInnerLayout());
        break;
      default:
        used.add("unknown_layout");
    }
  }

  private void encoding(CompressiveEncoding e) {
    switch (e.getCompressionCase()) {
      case FLAT:
        used.add("flat");
        if (e.getFlat().hasData()) {
          used.add("general:" + e.getFlat().getData().getScheme());
        }
        break;
      case VARIABLE:
        used.add("variable");
        if (e.getVariable().hasOffsets()) {
          encoding(e.getVariable().getOffsets());
        }
        if (e.getVariable().hasValues()) {
          used.add("general:" + e.getVariable().getValues().getScheme());
        }
        break;
      case CONSTANT:
        used.add("constant");
        break;
      case OUT_OF_LINE_BITPACKING:
        used.add("out_of_line_bitpacking");
        encoding(e.getOutOfLineBitpacking().getValues());
        break;
      case INLINE_BITPACKING:
        used.add("inline_bitpacking");
        if (e.getInlineBitpacking().hasValues()) {
          used.add("general:" + e.getInlineBitpacking().getValues().getScheme());
        }
        break;
      case FSST:
        used.add("fsst");
        encoding(e.getFsst().getValues());
        break;
      case DICTIONARY:
        used.add("dictionary");
        encoding(e.getDictionary().getIndices());
        encoding(e.getDictionary().getItems());
        break;
      case RLE:
        used.add("rle");
        encoding(e.getRle().getValues());
        encoding(e.getRle().getRunLengths());
        break;
      case BYTE_STREAM_SPLIT:
        used.add("byte_stream_split");
        encoding(e.getByteStreamSplit().getValues());
        break;
      case GENERAL:
        used.add("general:" + e.getGeneral().getCompression().getScheme());
        encoding(e.getGeneral().getValues());
        break;
      case FIXED_SIZE_LIST:
        used.add("fixed_size_list");
        encoding(e.getFixedSizeList().getValues());
        break;
      case PACKED_STRUCT:
        used.add("packed_struct");
        encoding(e.getPackedStruct().getValues());
        break;
      case VARIABLE_PACKED_STRUCT:
        used.add("variable_packed_struct");
        break;
      default:
        used.add("unknown_encoding");
    }
  }

  @Override
  public String toString() {
    return used.toString();
  }
}
