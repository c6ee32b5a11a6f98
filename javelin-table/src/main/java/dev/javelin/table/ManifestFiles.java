package dev.javelin.table;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The manifest file framing (all little-endian):
 *
 * <pre>
 * [u32 len, IndexSection]?  [u32 len, Transaction]?  [u32 len, Manifest]
 * [i64 manifest_pos] [i16 0] [i16 2] ["LANC"]
 * </pre>
 *
 * {@code manifest_pos} points at the Manifest's length prefix, and the Manifest must end exactly
 * where the 16-byte trailer starts. The Manifest's {@code index_section} and
 * {@code transaction_section} are absolute offsets of the other sections' length prefixes.
 */
final class ManifestFiles {
  static final byte[] MAGIC = "LANC".getBytes(StandardCharsets.US_ASCII);
  private static final int TRAILER = 16;
  private static final short MAJOR = 0;
  private static final short MINOR = 2;

  private ManifestFiles() {}

  static byte[] encode(Manifest manifest) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    TableProtos.Manifest.Builder m = manifest.proto().toBuilder();
    if (!manifest.indices().isEmpty()) {
      m.setIndexSection(out.size());
      writeSection(out, TableProtos.IndexSection.newBuilder().addAllIndices(IndexMetadata.toProtos(manifest.indices())).build().toByteArray());
    }
    if (manifest.inlineTransaction().isPresent()) {
      m.setTransactionSection(out.size());
      writeSection(out, manifest.inlineTransaction().get().proto().toByteArray());
    }
    long manifestPos = out.size();
    writeSection(out, m.build().toByteArray());
    ByteBuffer trailer = ByteBuffer.allocate(TRAILER).order(ByteOrder.LITTLE_ENDIAN);
    trailer.putLong(manifestPos).putShort(MAJOR).putShort(MINOR).put(MAGIC);
    out.writeBytes(trailer.array());
    return out.toByteArray();
  }

  private static void writeSection(ByteArrayOutputStream out, byte[] bytes) {
    ByteBuffer len = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(bytes.length);
    out.writeBytes(len.array());
    out.writeBytes(bytes);
  }

  /**
   * Parses a manifest file.
   *
   * @throws CorruptManifestException naming {@code file} if the framing or a protobuf is broken, or
   *     the manifest is inconsistent (see {@link ManifestValidator})
   */
  static Manifest decode(byte[] bytes, String file) {
    if (bytes.length < TRAILER + 4) {
      throw TableErrors.corrupt(file, "Manifest file is too short (" + bytes.length + " bytes)");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int t = bytes.length - TRAILER;
    for (int i = 0; i < 4; i++) {
      if (bytes[t + 12 + i] != MAGIC[i]) {
        throw TableErrors.corrupt(file, "Manifest file does not end with LANC");
      }
    }
    long pos = b.getLong(t);
    byte[] manifestBytes = section(b, pos, t, file, "Manifest");
    if (pos + 4 + manifestBytes.length != t) {
      throw TableErrors.corrupt(file, "Manifest does not end where the trailer starts");
    }
    try {
      TableProtos.Manifest proto = TableProtos.Manifest.parseFrom(manifestBytes);
      WireTypeCheck.problem(proto).ifPresent(p -> {
        throw TableErrors.corrupt(file, "Manifest does not parse: " + p);
      });
      List<IndexMetadata> indices = List.of();
      if (proto.hasIndexSection()) {
        TableProtos.IndexSection indexSection = TableProtos.IndexSection.parseFrom(
            section(b, proto.getIndexSection(), t, file, "Index section"));
        WireTypeCheck.problem(indexSection).ifPresent(p -> {
          throw TableErrors.corrupt(file, "Index section does not parse: " + p);
        });
        indices = IndexMetadata.fromProtos(indexSection.getIndicesList());
      }
      Transaction txn = null;
      if (proto.hasTransactionSection()) {
        txn = Transaction.fromProto(TransactionProtos.Transaction.parseFrom(
            section(b, proto.getTransactionSection(), t, file, "Transaction section")));
      }
      Manifest manifest = new Manifest(proto, indices, txn);
      ManifestValidator.validate(manifest, file);
      return manifest;
    } catch (InvalidProtocolBufferException e) {
      throw TableErrors.corrupt(file, "Manifest does not parse", e);
    }
  }

  private static byte[] section(ByteBuffer b, long pos, int limit, String file, String what) {
    if (pos < 0 || pos + 4 > limit) {
      throw TableErrors.corrupt(file, what + " offset " + pos + " is outside the file");
    }
    long len = Integer.toUnsignedLong(b.getInt((int) pos));
    if (pos + 4 + len > limit) {
      throw TableErrors.corrupt(file, what + " at " + pos + " (" + len + " bytes) runs past the end");
    }
    byte[] out = new byte[(int) len];
    b.get((int) pos + 4, out);
    return out;
  }
}
