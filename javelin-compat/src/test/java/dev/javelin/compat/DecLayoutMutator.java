package dev.javelin.compat;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import dev.javelin.format.internal.container.ContainerWriter;
import dev.javelin.format.internal.container.FileMetadata;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.File2Protos.DirectEncoding;
import dev.javelin.format.proto.File2Protos.Encoding;
import dev.javelin.io.ByteArrayInputFile;
import dev.javelin.io.LocalOutputFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Damages the description of one page of a Lance file: one field anywhere in its page layout
 * (bit widths, item counts, chunk flags, symbol tables, layers, nested encodings) gets another
 * value, then the file is rewritten around it. Field-aware damage reaches the decoders' checks
 * that random byte flips in the small metadata region rarely hit.
 */
final class DecLayoutMutator {
  private DecLayoutMutator() {}

  /** A copy of the file with one page layout field changed. */
  static byte[] mutate(byte[] file, Path scratch, Random r) throws Exception {
    FileMetadata md = FileMetadata.read(new ByteArrayInputFile(file));
    List<ColumnMetadata> columns = new ArrayList<>(md.columns());
    int c = r.nextInt(columns.size());
    ColumnMetadata col = columns.get(c);
    if (col.getPagesCount() == 0) {
      return file;
    }
    int p = r.nextInt(col.getPagesCount());
    ColumnMetadata.Page page = col.getPages(p);
    Any any = Any.parseFrom(page.getEncoding().getDirect().getEncoding());
    PageLayout layout = PageLayout.parseFrom(any.getValue());
    Message changed = change(layout, r, 0);
    Any out = Any.newBuilder().setTypeUrl(any.getTypeUrl()).setValue(changed.toByteString()).build();
    ColumnMetadata.Page newPage = page.toBuilder().setEncoding(Encoding.newBuilder()
        .setDirect(DirectEncoding.newBuilder().setEncoding(out.toByteString()))).build();
    columns.set(c, col.toBuilder().setPages(p, newPage).build());
    long[] gb0 = md.globalBuffer(0);
    Files.deleteIfExists(scratch);
    ContainerWriter w = new ContainerWriter(new LocalOutputFile(scratch));
    w.write(ByteBuffer.wrap(file, 0, (int) gb0[0]));
    w.finish(columns, Arrays.copyOfRange(file, (int) gb0[0], (int) (gb0[0] + gb0[1])), md.version());
    return Files.readAllBytes(scratch);
  }

  /** Changes one field somewhere in the message (set fields first, deeper with some chance). */
  static Message change(Message m, Random r, int depth) {
    Map<FieldDescriptor, Object> set = m.getAllFields();
    List<FieldDescriptor> fields = new ArrayList<>(set.keySet());
    if (fields.isEmpty() || r.nextInt(8) == 0) {
      fields = new ArrayList<>(m.getDescriptorForType().getFields());
    }
    FieldDescriptor f = fields.get(r.nextInt(fields.size()));
    Message.Builder b = m.toBuilder();
    if (f.isRepeated()) {
      int n = m.getRepeatedFieldCount(f);
      if (n == 0 || r.nextInt(6) == 0) {
        if (f.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
          b.addRepeatedField(f, scalar(f, defaultOf(f), r));
        }
        return b.build();
      }
      int i = r.nextInt(n);
      Object v = m.getRepeatedField(f, i);
      if (r.nextInt(5) == 0) {
        // Drop an element.
        List<Object> rest = new ArrayList<>();
        for (int k = 0; k < n; k++) {
          if (k != i) {
            rest.add(m.getRepeatedField(f, k));
          }
        }
        b.clearField(f);
        for (Object o : rest) {
          b.addRepeatedField(f, o);
        }
        return b.build();
      }
      b.setRepeatedField(f, i, f.getJavaType() == FieldDescriptor.JavaType.MESSAGE
          ? change((Message) v, r, depth + 1) : scalar(f, v, r));
      return b.build();
    }
    if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
      if (!m.hasField(f) || r.nextInt(6) == 0) {
        b.clearField(f);
        return b.build();
      }
      b.setField(f, change((Message) m.getField(f), r, depth + 1));
      return b.build();
    }
    b.setField(f, scalar(f, m.getField(f), r));
    return b.build();
  }

  private static Object defaultOf(FieldDescriptor f) {
    switch (f.getJavaType()) {
      case INT:
        return 0;
      case LONG:
        return 0L;
      case BOOLEAN:
        return false;
      case BYTE_STRING:
        return ByteString.EMPTY;
      case ENUM:
        return f.getEnumType().getValues().get(0);
      default:
        return f.getDefaultValue();
    }
  }

  private static Object scalar(FieldDescriptor f, Object v, Random r) {
    switch (f.getJavaType()) {
      case INT:
        return (int) number(((Integer) v).longValue(), r);
      case LONG:
        return number((Long) v, r);
      case BOOLEAN:
        return !(Boolean) v;
      case ENUM: {
        List<EnumValueDescriptor> values = f.getEnumType().getValues();
        return values.get(r.nextInt(values.size()));
      }
      case BYTE_STRING: {
        byte[] b = ((ByteString) v).toByteArray();
        if (b.length == 0 || r.nextInt(4) == 0) {
          return ByteString.copyFrom(Arrays.copyOf(b, r.nextInt(b.length + 9)));
        }
        for (int k = 1 + r.nextInt(3); k > 0; k--) {
          b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
        }
        return ByteString.copyFrom(b);
      }
      default:
        return v;
    }
  }

  private static long number(long v, Random r) {
    switch (r.nextInt(8)) {
      case 0:
        return 0;
      case 1:
        return v + 1;
      case 2:
        return v - 1;
      case 3:
        return v * 2;
      case 4:
        return v / 2;
      case 5:
        return Integer.MAX_VALUE;
      case 6:
        return -1;
      default:
        return r.nextInt(70);
    }
  }
}
