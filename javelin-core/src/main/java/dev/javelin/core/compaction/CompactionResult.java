package dev.javelin.core.compaction;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.proto.TableProtos;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one executed task wrote, to be committed with {@link Compaction#commit}: for a rewrite,
 * the old fragment ids and the new fragments (ids unassigned); for a repack, the new data files
 * of its fragment. Also the keys of every file written, deleted if the commit fails.
 * Serializable (Java and {@link #toJson()}); a result without a kind is a fragment rewrite.
 */
public final class CompactionResult implements Serializable {
  private static final long serialVersionUID = 1L;

  private final TaskKind kind;
  private final long readVersion;
  private final List<Long> oldFragmentIds;
  private final List<byte[]> newFragments;
  private final List<byte[]> repackedFiles;
  private final List<String> writtenKeys;

  CompactionResult(TaskKind kind, long readVersion, List<Long> oldFragmentIds, List<Fragment> newFragments,
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
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", kind().jsonName());
    m.put("read_version", readVersion);
    m.put("fragments", oldFragmentIds);
    List<Object> nf = new ArrayList<>();
    newFragments.forEach(b -> nf.add(enc.encodeToString(b)));
    m.put("new_fragments", nf);
    List<Object> rf = new ArrayList<>();
    (repackedFiles == null ? List.<byte[]>of() : repackedFiles).forEach(b -> rf.add(enc.encodeToString(b)));
    m.put("repacked_files", rf);
    m.put("written", writtenKeys);
    return MiniJson.write(m);
  }

  /**
   * Reads {@link #toJson()}'s form; a missing {@code kind} or {@code repacked_files} reads as a
   * fragment rewrite.
   */
  public static CompactionResult fromJson(String json) {
    try {
      Base64.Decoder dec = Base64.getDecoder();
      Map<?, ?> m = (Map<?, ?>) MiniJson.parse(json);
      List<Long> ids = new ArrayList<>();
      ((List<?>) m.get("fragments")).forEach(o -> ids.add((Long) o));
      List<Fragment> nf = new ArrayList<>();
      Object nfs = m.get("new_fragments");
      if (nfs != null) {
        for (Object o : (List<?>) nfs) {
          nf.add(Fragment.fromProto(TableProtos.DataFragment.parseFrom(dec.decode((String) o))));
        }
      }
      List<DataFile> rf = new ArrayList<>();
      Object rfs = m.get("repacked_files");
      if (rfs != null) {
        for (Object o : (List<?>) rfs) {
          rf.add(DataFile.fromProto(TableProtos.DataFile.parseFrom(dec.decode((String) o))));
        }
      }
      List<String> written = new ArrayList<>();
      Object w = m.get("written");
      if (w != null) {
        ((List<?>) w).forEach(o -> written.add((String) o));
      }
      return new CompactionResult(TaskKind.fromJson((String) m.get("kind")), (Long) m.get("read_version"), ids, nf,
          rf, written);
    } catch (ClassCastException | NullPointerException | InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("Not a compaction result: " + json, e);
    }
  }

  @Override
  public String toString() {
    return "CompactionResult{" + kind().jsonName() + ", v" + readVersion + ", fragments=" + oldFragmentIds + "}";
  }
}
