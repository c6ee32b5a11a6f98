package dev.javelin.table;

import dev.javelin.io.ObjectExistsException;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.exceptions.InvalidTagNameException;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.exceptions.TagExistsException;
import dev.javelin.table.exceptions.TagNotFoundException;
import dev.javelin.table.exceptions.VersionNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The tags of a dataset: names for versions, one JSON file each under {@code _refs/tags/}, in
 * the layout Lance 7 reads and writes (so either library sees the other's tags). A tagged
 * version is never removed by cleanup.
 *
 * <p>Creating a tag is atomic (put-if-absent); updating and deleting are plain writes, as in Lance.
 */
public final class Tags {
  static final String DIR = "_refs/tags/";
  private static final String SUFFIX = ".json";

  private final Table table;

  Tags(Table table) {
    this.table = table;
  }

  /** The tags of a dataset. */
  public static Tags of(Table table) {
    return new Tags(table);
  }

  /**
   * Every tag, by name (sorted).
   *
   * @throws CorruptManifestException if a tag file does not parse
   */
  public NavigableMap<String, TagInfo> list() {
    NavigableMap<String, TagInfo> out = new TreeMap<>();
    try {
      for (ObjectInfo o : store().list(DIR)) {
        String rest = o.key().substring(DIR.length());
        if (rest.indexOf('/') >= 0 || !rest.endsWith(SUFFIX) || rest.length() == SUFFIX.length()) {
          continue;
        }
        String name = rest.substring(0, rest.length() - SUFFIX.length());
        try {
          out.put(name, read(name));
        } catch (TagNotFoundException e) {
          // deleted while we listed
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not list tags of " + table.location(), e);
    }
    return Collections.unmodifiableNavigableMap(out);
  }

  /**
   * One tag.
   *
   * @throws InvalidTagNameException if the name is not a valid tag name
   * @throws TagNotFoundException if there is no such tag
   */
  public TagInfo get(String name) {
    checkName(name);
    return read(name);
  }

  /** The version a tag names (see {@link #get}). */
  public long version(String name) {
    return get(name).version();
  }

  /**
   * Tags a version.
   *
   * @throws InvalidTagNameException if the name is not a valid tag name
   * @throws TagExistsException if the tag exists (use {@link #update} to move it)
   * @throws VersionNotFoundException if the dataset has no such version
   * @throws dev.javelin.io.UnsupportedStoreException if the store cannot create an object only if it is absent
   */
  public TagInfo create(String name, long version) {
    checkName(name);
    if (!store().supportsConditionalPut()) {
      throw TableErrors.noConditionalPut("create tag '" + name + "' in", table.location(), "tags");
    }
    String key = key(name);
    if (exists(key)) {
      throw TableErrors.tagExists(table.location(), name, read(name).version());
    }
    Instant now = Instant.now();
    TagInfo tag = new TagInfo(name, version, table.manifestSize(version), table.branch().orElse(null), now, now,
        Map.of());
    try {
      store().putIfAbsent(key, TagJson.write(tag).getBytes(StandardCharsets.UTF_8));
    } catch (ObjectExistsException e) {
      throw TableErrors.tagExists(table.location(), name, read(name).version());
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write tag " + key + " of " + table.location(), e);
    }
    return tag;
  }

  /**
   * Moves a tag to another version, keeping its creation time and metadata.
   *
   * @throws TagNotFoundException if there is no such tag
   * @throws VersionNotFoundException if the dataset has no such version
   */
  public TagInfo update(String name, long version) {
    TagInfo old = get(name);
    TagInfo tag = new TagInfo(name, version, table.manifestSize(version), table.branch().orElse(null),
        old.createdAt().orElse(null),
        Instant.now(), old.metadata());
    try {
      store().put(key(name), TagJson.write(tag).getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write tag " + key(name) + " of " + table.location(), e);
    }
    return tag;
  }

  /**
   * Removes a tag (the version stays).
   *
   * @throws TagNotFoundException if there is no such tag
   */
  public void delete(String name) {
    checkName(name);
    String key = key(name);
    if (!exists(key)) {
      throw TableErrors.noTag(table.location(), name);
    }
    try {
      store().delete(key);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not delete tag " + key + " of " + table.location(), e);
    }
  }

  /**
   * The manifest of the version a tag names.
   *
   * @throws TagNotFoundException if there is no such tag
   * @throws VersionNotFoundException if the version is gone
   */
  public Manifest load(String name) {
    TagInfo tag = get(name);
    return table.branch(tag.branch().orElse(null)).load(tag.version());
  }

  /**
   * Checks a name the way Lance does, so that both accept the same tags.
   *
   * @throws InvalidTagNameException naming the rule it breaks
   */
  void checkName(String name) {
    String why = invalidReason(name);
    if (why != null) {
      throw TableErrors.invalidTagName(table.location(), name, why);
    }
  }

  static String invalidReason(String name) {
    if (name == null || name.isEmpty()) {
      return "it is empty";
    }
    for (int i = 0; i < name.length(); ) {
      int c = name.codePointAt(i);
      if (!Character.isLetterOrDigit(c) && c != '.' && c != '-' && c != '_') {
        return "only letters, digits, '.', '-' and '_' are allowed";
      }
      i += Character.charCount(c);
    }
    if (name.startsWith(".")) {
      return "it starts with '.'";
    }
    if (name.endsWith(".")) {
      return "it ends with '.'";
    }
    if (name.endsWith(".lock")) {
      return "it ends with '.lock'";
    }
    if (name.contains("..")) {
      return "it contains '..'";
    }
    return null;
  }

  private TagInfo read(String name) {
    String key = key(name);
    byte[] bytes;
    try {
      bytes = store().read(key);
    } catch (NoSuchFileException e) {
      throw TableErrors.noTag(table.location(), name);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read tag " + key + " of " + table.location(), e);
    }
    return TagJson.parse(name, new String(bytes, StandardCharsets.UTF_8), table.location() + "/" + key);
  }

  private boolean exists(String key) {
    try {
      return store().exists(key);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not look for " + key + " of " + table.location(), e);
    }
  }

  // Tags live at the dataset's root whichever branch they name.
  private ObjectStore store() {
    return table.main().store();
  }

  private static String key(String name) {
    return DIR + name + SUFFIX;
  }
}
