package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings21.FullZipLayout;
import dev.javelin.format.proto.Encodings21.PageLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a page in the full-zip layout, for wide values: every entry is a control word
 * ({@code rep << bits_def | def}, 1, 2 or 4 bytes, absent when there are no levels) followed, for
 * entries with a value slot, by the value (fixed width) or, for valid items, its length and bytes
 * (variable width). A repetition index (byte-packed offsets of each row's first entry, plus the
 * end) follows when values are variable-width or the leaf is under a list.
 */
final class FullZipWriter {
  private FullZipWriter() {}

  static EncodedPage write(LeafEntries page, RepDefLayers layers, short[] def, PerValueEncoder values) {
    int numValues = page.values.count();
    boolean hasRep = page.rep != null;
    int maxRep = page.path.maxRep;
    // The declared layers, not the levels present, size the definition bits: a layer declared
    // nullable must have definition levels even when this page holds no null there.
    int maxDef = def == null ? 0 : layers.maxDef;
    int bitsRep = hasRep ? 32 - Integer.numberOfLeadingZeros(maxRep) : 0;
    int bitsDef = maxDef == 0 ? 0 : 32 - Integer.numberOfLeadingZeros(maxDef);
    int total = bitsRep + bitsDef;
    int cwBytes = total == 0 ? 0 : total <= 8 ? 1 : total <= 16 ? 2 : 4;
    boolean useDef = bitsDef > 0;
    int numEntries = (hasRep || useDef) ? page.size() : numValues;
    boolean needIndex = hasRep || values.isVariable();
    if (cwBytes == 0 && !needIndex) {
      // Fixed-width values and nothing between them: the data buffer is the values themselves.
      ByteBuffer whole = values.contiguous(numValues);
      if (whole != null) {
        return new EncodedPage(List.of(whole), layout(page, layers, values, bitsRep, bitsDef, hasRep, numValues));
      }
    }

    ByteBuilder data = new ByteBuilder((int) Math.min(Integer.MAX_VALUE / 2, page.byteSize() + (long) cwBytes * numEntries + 64));
    long[] rowStarts = needIndex ? new long[(int) page.rows + 1] : null;
    int row = 0;
    int value = 0;
    for (int i = 0; i < numEntries; i++) {
      int r = hasRep ? page.rep.get(i) : 0;
      int d = useDef ? def[i] : 0;
      boolean newRow = !hasRep || r == maxRep;
      if (newRow && needIndex) {
        rowStarts[row] = data.size();
      }
      if (newRow) {
        row++;
      }
      if (cwBytes > 0) {
        data.appendUnsigned(((long) r << bitsDef) | d, cwBytes);
      }
      boolean visible = !(hasRep && useDef) || d <= layers.maxVisibleLevel;
      if (visible) {
        if (!values.isVariable() || d == 0) {
          values.write(value, data);
        }
        value++;
      }
    }
    List<ByteBuffer> buffers = new ArrayList<>();
    buffers.add(data.toBuffer());
    if (needIndex) {
      rowStarts[row] = data.size();
      long max = data.size();
      int w = max <= 0xFF ? 1 : max <= 0xFFFF ? 2 : max <= 0xFFFFFFFFL ? 4 : 8;
      ByteBuilder idx = new ByteBuilder((row + 1) * w);
      for (int k = 0; k <= row; k++) {
        idx.appendUnsigned(rowStarts[k], w);
      }
      buffers.add(idx.toBuffer());
    }
    return new EncodedPage(buffers, layout(page, layers, values, bitsRep, bitsDef, hasRep, numValues));
  }

  private static PageLayout layout(LeafEntries page, RepDefLayers layers, PerValueEncoder values, int bitsRep,
      int bitsDef, boolean hasRep, int numValues) {
    FullZipLayout.Builder layout = FullZipLayout.newBuilder()
        .setBitsRep(bitsRep)
        .setBitsDef(bitsDef)
        .setNumItems(hasRep ? page.size() : numValues)
        .setNumVisibleItems(numValues)
        .setValueCompression(values.encoding())
        .addAllLayers(layers.asList());
    if (values.isVariable()) {
      layout.setBitsPerOffset(values.bits());
    } else {
      layout.setBitsPerValue(values.bits());
    }
    return PageLayout.newBuilder().setFullZipLayout(layout).build();
  }
}
