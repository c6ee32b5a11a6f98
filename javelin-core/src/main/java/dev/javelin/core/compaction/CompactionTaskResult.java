package dev.javelin.core.compaction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.common.Json;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.proto.TableProtos;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * What one executed task wrote, to be committed with {@link Compaction#commit}: for a rewrite,
 * the old fragment ids and the new fragments (ids unassigned); for a repack, the new data files
 * of its fragment. Also the keys of every file written, deleted if the commit fails.
 * Serializable (Java and {@link #toJson()}); a result without a kind is a fragment rewrite.
 */
public final class CompactionTaskResult implements Serializable {
  private static final long serialVersionUID = 1L;

  private final TaskKind kind;
  private final long readVersion;
  private final List<Long> oldFragmentIds;
  private final List<byte[]> newFragments;
  private final List<byte[]> repackedFiles;
  private final List<String> writtenKeys;

  CompactionTaskResult(TaskKind kind, long readVersion, List<Long> oldFragmentIds, List<Fragment> newFragments,
      List<DataFile> repackedFiles, List<String> writtenKeys) {
    this.kind = kind;
    this.readVersion = readVersion;
    this.oldFragmentIds = List.copyOf(oldFragmentIds);
    this.newFragments = new ArrayList<>();
    newFragments.forEach(f -> this.newFragments.add(f.proto().toByteArray()));
    this.repackedFiles = new ArrayList<>();
    repackedFiles.forEach(f -> this.repackedFiles.add(f.proto().toByteArray()));
    this.writtenKeys = List.copyOf(writtenKeys);
  }

  public TaskKind kind() {
    return kind == null ? TaskKind.REWRITE_FRAGMENTS : kind;
  }

  public long readVersion() {
    return readVersion;
  }

  /** The fragments rewritten, or the one fragment repacked. */
  public List<Long> fragmentIds() {
    return oldFragmentIds;
  }

  /** A rewrite's new fragments, in order, ids unassigned. */
  public List<Fragment> newFragments() {
    List<Fragment> out = new ArrayList<>();
    for (byte[] b : newFragments) {
      try {
        out.add(Fragment.fromProto(TableProtos.DataFragment.parseFrom(b)));
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalStateException("A compaction result holds a fragment that does not parse", e);
      }
    }
    return out;
  }

  /** A repack's new data files, in the order they apply to its fragment. */
  public List<DataFile> repackedFiles() {
    List<DataFile> out = new ArrayList<>();
    for (byte[] b : repackedFiles == null ? List.<byte[]>of() : repackedFiles) {
      try {
        out.add(DataFile.fromProto(TableProtos.DataFile.parseFrom(b)));
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalStateException("A compaction result holds a data file that does not parse", e);
      }
    }
    return out;
  }

  /** Object keys of every file the task wrote. */
  public List<String> writtenKeys() {
    return writtenKeys;
  }

  /** The JSON form (fragments and files as base64 protobuf). */
  public String toJson() {
    Base64.Encoder enc = Base64.getEncoder();
    ObjectNode m = Json.object();
    m.put("kind", kind().jsonName());
    m.put("read_version", readVersion);
    oldFragmentIds.forEach(m.putArray("fragments")::add);
    ArrayNode nf = m.putArray("new_fragments");
    newFragments.forEach(b -> nf.add(enc.encodeToString(b)));
    ArrayNode rf = m.putArray("repacked_files");
    (repackedFiles == null ? List.<byte[]>of() : repackedFiles).forEach(b -> rf.add(enc.encodeToString(b)));
    writtenKeys.forEach(m.putArray("written")::add);
    return Json.write(m);
  }

  /**
   * Reads {@link #toJson()}'s form; a missing {@code kind} or {@code repacked_files} reads as a
   * fragment rewrite.
   *
   * @throws IllegalArgumentException if the JSON is not a result
   */
  public static CompactionTaskResult fromJson(String json) {
    JsonNode m = CompactionTask.parse(json, "result");
    try {
      Base64.Decoder dec = Base64.getDecoder();
      List<Long> ids = new ArrayList<>();
      for (JsonNode o : list(m.get("fragments"), json)) {
        ids.add(whole(o, json));
      }
      List<Fragment> nf = new ArrayList<>();
      for (String s : strings(m.get("new_fragments"), json)) {
        nf.add(Fragment.fromProto(TableProtos.DataFragment.parseFrom(dec.decode(s))));
      }
      List<DataFile> rf = new ArrayList<>();
      for (String s : strings(m.get("repacked_files"), json)) {
        rf.add(DataFile.fromProto(TableProtos.DataFile.parseFrom(dec.decode(s))));
      }
      List<String> written = strings(m.get("written"), json);
      JsonNode kind = m.get("kind");
      if (kind != null && !kind.isNull() && !kind.isTextual()) {
        throw notAResult(json, null);
      }
      return new CompactionTaskResult(TaskKind.fromJson(kind == null ? null : kind.textValue()),
          whole(m.get("read_version"), json), ids, nf, rf, written);
    } catch (InvalidProtocolBufferException e) {
      throw notAResult(json, e);
    }
  }

  private static JsonNode list(JsonNode n, String json) {
    if (n == null || !n.isArray()) {
      throw notAResult(json, null);
    }
    return n;
  }

  // The strings of an array; none if it is absent or null.
  private static List<String> strings(JsonNode n, String json) {
    List<String> out = new ArrayList<>();
    if (n == null || n.isNull()) {
      return out;
    }
    for (JsonNode s : list(n, json)) {
      if (!s.isTextual()) {
        throw notAResult(json, null);
      }
      out.add(s.textValue());
    }
    return out;
  }

  private static long whole(JsonNode n, String json) {
    if (n == null || !n.isIntegralNumber() || !n.canConvertToLong()) {
      throw notAResult(json, null);
    }
    return n.longValue();
  }

  private static IllegalArgumentException notAResult(String json, Throwable cause) {
    return new IllegalArgumentException("Not a compaction result: " + json, cause);
  }

  @Override
  public String toString() {
    return "CompactionTaskResult{" + kind().jsonName() + ", v" + readVersion + ", fragments=" + oldFragmentIds + "}";
  }
}
