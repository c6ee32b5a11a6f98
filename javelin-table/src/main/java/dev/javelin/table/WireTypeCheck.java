package dev.javelin.table;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Finds fields that no protobuf writer could have produced: a message's field number declared
 * with one type but read with another (protobuf keeps such a field as unknown), or one unknown
 * field number read with two wire types, or an unknown field numbered far past any Lance uses. Unknown fields are otherwise kept and ignored, as
 * Lance's readers do, so that a newer writer's additions do not stop a read; but a damaged byte
 * that shifts the parse usually leaves exactly these traces, and without them a fragment's data
 * file or a whole fragment can silently vanish into unknown fields.
 */
final class WireTypeCheck {
  /** The highest field number a table message (manifest, index section) may carry, unknown ones included. */
  static final int MAX_FIELD_NUMBER = 100;
  private static final Map<Descriptor, List<FieldDescriptor>> MESSAGE_FIELDS = new ConcurrentHashMap<>();

  private WireTypeCheck() {}

  private static List<FieldDescriptor> messageFields(Descriptor d) {
    return MESSAGE_FIELDS.computeIfAbsent(d, k -> k.getFields().stream()
        .filter(f -> f.getJavaType() == FieldDescriptor.JavaType.MESSAGE).collect(Collectors.toList()));
  }

  /** The first impossible field in {@code m} or the messages under it, described; empty if none. */
  static Optional<String> problem(Message m) {
    return problem(m, m.getDescriptorForType().getName());
  }

  private static Optional<String> problem(Message m, String path) {
    UnknownFieldSet unknown = m.getUnknownFields();
    for (Map.Entry<Integer, UnknownFieldSet.Field> e : unknown.asMap().entrySet()) {
      int number = e.getKey();
      UnknownFieldSet.Field f = e.getValue();
      FieldDescriptor declared = m.getDescriptorForType().findFieldByNumber(number);
      int fixedKinds = (f.getVarintList().isEmpty() ? 0 : 1) + (f.getFixed32List().isEmpty() ? 0 : 1)
          + (f.getFixed64List().isEmpty() ? 0 : 1) + (f.getGroupList().isEmpty() ? 0 : 1);
      boolean closedEnumValue = declared != null && declared.getType() == FieldDescriptor.Type.ENUM
          && !f.getVarintList().isEmpty() && fixedKinds == 1 && f.getLengthDelimitedList().isEmpty();
      if (declared != null && !closedEnumValue) {
        return Optional.of(path + "." + declared.getName() + " (field " + number + ") has the wrong wire type");
      }
      if (fixedKinds > 1) {
        return Optional.of(path + " has unknown field " + number + " with two wire types");
      }
      // Lance numbers the fields of its table messages densely from 1 (21 is the highest so far): a
      // field numbered past MAX_FIELD_NUMBER is damage, typically a flipped tag byte whose
      // continuation bit took in the next byte and made a known field (a fragment's data file)
      // an unknown one, while a newer writer's additions stay well below it.
      if (declared == null && number > MAX_FIELD_NUMBER) {
        return Optional.of(path + " has unknown field " + number + ", past any field number Lance uses");
      }
    }
    // Only message-typed fields can hold more unknown fields; read through the descriptor rather
    // than getAllFields, which builds a map per message (a manifest has tens of thousands).
    for (FieldDescriptor fd : messageFields(m.getDescriptorForType())) {
      if (fd.isRepeated()) {
        int n = m.getRepeatedFieldCount(fd);
        for (int i = 0; i < n; i++) {
          Optional<String> p = problem((Message) m.getRepeatedField(fd, i), path + "." + fd.getName() + "[" + i + "]");
          if (p.isPresent()) {
            return p;
          }
        }
      } else if (m.hasField(fd)) {
        Optional<String> p = problem((Message) m.getField(fd), path + "." + fd.getName());
        if (p.isPresent()) {
          return p;
        }
      }
    }
    return Optional.empty();
  }
}
