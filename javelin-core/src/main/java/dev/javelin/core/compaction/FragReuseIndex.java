package dev.javelin.core.compaction;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.core.exceptions.CompactionException;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import dev.javelin.table.proto.TableProtos.FragmentReuseIndexDetails;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.UUID;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * The {@code __lance_frag_reuse} system index a deferred-remap rewrite installs, as lance-core
 * builds it: the details of the newest manifest's entry (if any) plus one version whose groups
 * give each rewrite's old and new fragments and the old addresses of the rows it moved (a 64-bit
 * roaring treemap, portable form); coverage is the new fragments. Details are kept inline (the
 * external form, used above 200 KB, is not written: such a rewrite is refused).
 */
final class FragReuseIndex {
  static final String TYPE_URL = "/lance.table.FragmentReuseIndexDetails";
  private static final int INLINE_LIMIT = 204_800;

  private FragReuseIndex() {}

  static IndexMetadata build(Manifest latest, List<List<Fragment>> olds, List<List<Fragment>> news,
      List<RoaringBitmap> deletedPerOld, String location) {
    IndexMetadata existing = null;
    for (IndexMetadata i : latest.indices()) {
      if (i.name().equals(IndexRemapper.FRAG_REUSE_INDEX_NAME)) {
        existing = i;
      }
    }
    FragmentReuseIndexDetails.InlineContent.Builder content = FragmentReuseIndexDetails.InlineContent.newBuilder();
    if (existing != null) {
      try {
        FragmentReuseIndexDetails d = FragmentReuseIndexDetails.parseFrom(existing.details().value());
        if (d.hasExternal()) {
          throw new CompactionException("The fragment reuse index keeps its details in an external file, which "
              + "Javelin cannot extend yet; remap indices instead (deferIndexRemap false): " + location);
        }
        content.mergeFrom(d.getInline());
      } catch (InvalidProtocolBufferException e) {
        throw new CompactionException("The fragment reuse index's details do not parse: " + location, e);
      }
    }
    FragmentReuseIndexDetails.Version.Builder version = FragmentReuseIndexDetails.Version.newBuilder()
        .setDatasetVersion(latest.version());
    RoaringBitmap newIds = new RoaringBitmap();
    int k = 0;
    for (int g = 0; g < olds.size(); g++) {
      FragmentReuseIndexDetails.Group.Builder group = FragmentReuseIndexDetails.Group.newBuilder();
      Roaring64NavigableMap moved = new Roaring64NavigableMap();
      for (Fragment f : olds.get(g)) {
        RoaringBitmap deleted = deletedPerOld.get(k++);
        for (long i = 0; i < f.physicalRows(); i++) {
          if (!deleted.contains((int) i)) {
            moved.addLong((f.id() << 32) | i);
          }
        }
        group.addOldFragments(digest(f.id(), f.physicalRows(), deleted.getLongCardinality()));
      }
      for (Fragment f : news.get(g)) {
        group.addNewFragments(digest(f.id(), f.physicalRows(), 0));
        newIds.add((int) f.id());
      }
      group.setChangedRowAddrs(treemap(moved));
      version.addGroups(group);
    }
    content.addVersions(version);
    FragmentReuseIndexDetails details = FragmentReuseIndexDetails.newBuilder().setInline(content).build();
    if (details.getSerializedSize() > INLINE_LIMIT) {
      throw new CompactionException("The fragment reuse index would hold " + details.getSerializedSize()
          + " bytes of details, more than Javelin writes inline; remap indices instead (deferIndexRemap false): "
          + location);
    }
    UUID uuid = UUID.randomUUID();
    return IndexMetadata.builder()
        .uuid(uuid.toString())
        .name(IndexRemapper.FRAG_REUSE_INDEX_NAME)
        .datasetVersion(latest.version())
        .fragmentBitmap(newIds)
        .details(new IndexMetadata.Details(TYPE_URL, details.toByteString()))
        .indexVersion(existing == null ? 0 : existing.indexVersion().orElse(0))
        .createdAt(System.currentTimeMillis())
        .build();
  }

  private static FragmentReuseIndexDetails.FragmentDigest digest(long id, long rows, long deleted) {
    return FragmentReuseIndexDetails.FragmentDigest.newBuilder().setId(id).setPhysicalRows(rows)
        .setNumDeletedRows(deleted).build();
  }

  // The portable 64-bit form roaring-rs's RoaringTreemap reads: a count of 32-bit maps, then each
  // one's high half and portable 32-bit bitmap, all little-endian.
  static ByteString treemap(Roaring64NavigableMap m) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataOutputStream d = new DataOutputStream(out)) {
      m.serializePortable(d);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ByteString.copyFrom(out.toByteArray());
  }
}
