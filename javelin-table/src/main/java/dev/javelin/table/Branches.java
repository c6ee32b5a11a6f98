package dev.javelin.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.common.Json;
import dev.javelin.io.ObjectExistsException;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.exceptions.BranchExistsException;
import dev.javelin.table.exceptions.BranchInUseException;
import dev.javelin.table.exceptions.BranchNotFoundException;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.exceptions.DatasetExistsException;
import dev.javelin.table.exceptions.InvalidBranchNameException;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.exceptions.VersionNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The branches of a dataset, in the layout Lance 7 reads and writes: a branch is a shallow clone
 * of a version of its parent (the main branch or another branch) whose versions live under
 * {@code tree/<name>/} of the dataset's root, and whose record is
 * {@code _refs/branches/<name>.json} ({@link BranchInfo}). Its first version has the number of
 * the version it was created from; its own files go under {@code tree/<name>/}, the parent's stay
 * where they are and are named through a base path.
 *
 * <p>As in Lance, creating a branch is two steps (the branch's first version, then its record),
 * and the record decides whether the branch exists.
 */
public final class Branches {
  static final String DIR = "_refs/branches/";
  private static final String SUFFIX = ".json";

  private final Table main;

  private Branches(Table table) {
    this.main = table.main();
  }

  /** The branches of the dataset a table belongs to (on any of its branches). */
  public static Branches of(Table table) {
    return new Branches(table);
  }

  /**
   * Every branch, by name (sorted).
   *
   * @throws CorruptManifestException if a branch record does not parse
   */
  public NavigableMap<String, BranchInfo> list() {
    NavigableMap<String, BranchInfo> out = new TreeMap<>();
    try {
      for (ObjectInfo o : store().list(DIR)) {
        String rest = o.key().substring(DIR.length());
        if (rest.indexOf('/') >= 0 || !rest.endsWith(SUFFIX) || rest.length() == SUFFIX.length()) {
          continue;
        }
        String name = decode(rest.substring(0, rest.length() - SUFFIX.length()));
        try {
          out.put(name, read(name));
        } catch (BranchNotFoundException e) {
          // deleted while we listed
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not list branches of " + main.location(), e);
    }
    return Collections.unmodifiableNavigableMap(out);
  }

  /**
   * One branch's record.
   *
   * @throws InvalidBranchNameException if the name is not a valid branch name
   * @throws BranchNotFoundException if there is no such branch
   */
  public BranchInfo get(String name) {
    checkName(name);
    return read(name);
  }

  /**
   * The table of a branch.
   *
   * @throws BranchNotFoundException if there is no such branch
   */
  public Table open(String name) {
    get(name);
    return main.branch(name);
  }

  /**
   * Creates a branch from one version of {@code source} (a table of this dataset, on the main
   * branch or another branch): commits its first version, a shallow clone of that version, then
   * writes its record.
   *
   * @return the branch's first version
   * @throws InvalidBranchNameException if the name is not a valid branch name
   * @throws BranchExistsException if the branch (or files of an unfinished one) exists
   * @throws VersionNotFoundException if {@code source} has no such version
   */
  public Manifest create(String name, Table source, long version) {
    checkName(name);
    if (exists(key(name))) {
      throw TableErrors.branchExists(main.location(), name);
    }
    Table branch = main.branch(name);
    BranchInfo parent = source.branch().map(this::get).orElse(null);
    Manifest first;
    try {
      first = source.shallowClone(branch, version, name);
    } catch (DatasetExistsException e) {
      throw TableErrors.branchExists(main.location(), name);
    }
    List<BranchInfo.Lineage> lineage = new ArrayList<>(parent == null ? List.of() : parent.lineage());
    lineage.add(new BranchInfo.Lineage(version, UUID.randomUUID().toString().replace("-", "")));
    BranchInfo info = new BranchInfo(name, source.branch().orElse(null), version,
        Instant.ofEpochSecond(Instant.now().getEpochSecond()), source.manifestSize(version), lineage, Map.of());
    try {
      store().putIfAbsent(key(name), write(info).getBytes(StandardCharsets.UTF_8));
    } catch (ObjectExistsException e) {
      throw TableErrors.branchExists(main.location(), name);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write branch " + key(name) + " of " + main.location(), e);
    }
    return first;
  }

  /**
   * Deletes a branch: its record, then its files under {@code tree/<name>/} (those of branches
   * named below it, {@code <name>/...}, stay). Shallow clones elsewhere that refer to the branch's
   * files are not known, as in Lance.
   *
   * @throws BranchNotFoundException if there is no such branch
   * @throws BranchInUseException if other branches were created from it (nothing is deleted)
   */
  public void delete(String name) {
    checkName(name);
    String key = key(name);
    if (!exists(key)) {
      throw TableErrors.noBranch(main.location(), name);
    }
    NavigableMap<String, BranchInfo> all = list();
    List<String> children = new ArrayList<>();
    List<String> nested = new ArrayList<>();
    for (BranchInfo other : all.values()) {
      if (other.parentBranch().filter(name::equals).isPresent()) {
        children.add(other.name());
      }
      if (other.name().startsWith(name + "/")) {
        nested.add(Table.BRANCH_DIR + other.name() + "/");
      }
    }
    if (!children.isEmpty()) {
      throw TableErrors.branchInUse(main.location(), name, children);
    }
    try {
      store().delete(key);
      String dir = Table.BRANCH_DIR + name + "/";
      for (ObjectInfo o : store().list(dir)) {
        if (nested.stream().noneMatch(o.key()::startsWith)) {
          store().delete(o.key());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not delete branch " + name + " of " + main.location(), e);
    }
  }

  /**
   * Checks a name the way Lance does, so that both accept the same branches.
   *
   * @throws InvalidBranchNameException naming the rule it breaks
   */
  void checkName(String name) {
    String why = invalidReason(name);
    if (why != null) {
      throw TableErrors.invalidBranchName(main.location(), name, why);
    }
  }

  static String invalidReason(String name) {
    if (name == null || name.isEmpty()) {
      return "it is empty";
    }
    if (name.startsWith("/") || name.endsWith("/")) {
      return "it starts or ends with '/'";
    }
    if (name.contains("//")) {
      return "it contains '//'";
    }
    if (name.contains("..") || name.contains("\\")) {
      return "it contains '..' or '\\'";
    }
    for (int i = 0; i < name.length(); ) {
      int c = name.codePointAt(i);
      if (!Character.isLetterOrDigit(c) && c != '.' && c != '-' && c != '_' && c != '/') {
        return "only letters, digits, '.', '-', '_' and '/' between segments are allowed";
      }
      i += Character.charCount(c);
    }
    if (name.endsWith(".lock")) {
      return "it ends with '.lock'";
    }
    if (name.equals("main")) {
      return "'main' is the main branch";
    }
    return null;
  }

  private BranchInfo read(String name) {
    String key = key(name);
    byte[] bytes;
    try {
      bytes = store().read(key);
    } catch (NoSuchFileException e) {
      throw TableErrors.noBranch(main.location(), name);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read branch " + key + " of " + main.location(), e);
    }
    return parse(name, new String(bytes, StandardCharsets.UTF_8), main.location() + "/" + key);
  }

  // {"parentBranch": null, "identifier": {"version_mapping": [[2, "<32 hex>"]]}, "parentVersion": 2,
  //  "createAt": <unix seconds>, "manifestSize": 767, "metadata": {}}
  static BranchInfo parse(String name, String text, String file) {
    ObjectNode m = TagJson.object(text, file, "Branch");
    long parentVersion = TagJson.number(m.get("parentVersion"), "parentVersion", file, "Branch");
    JsonNode created = m.get("createAt");
    Instant createdAt = created == null ? Instant.EPOCH
        : Instant.ofEpochSecond(TagJson.number(created, "createAt", file, "Branch"));
    JsonNode size = m.get("manifestSize");
    long manifestSize = size == null ? 0 : TagJson.number(size, "manifestSize", file, "Branch");
    JsonNode parent = m.get("parentBranch");
    List<BranchInfo.Lineage> lineage = new ArrayList<>();
    JsonNode identifier = m.get("identifier");
    if (identifier != null && identifier.isObject() && identifier.get("version_mapping") instanceof ArrayNode) {
      for (JsonNode pair : identifier.get("version_mapping")) {
        if (!pair.isArray() || pair.size() != 2 || !pair.get(1).isTextual()) {
          throw TableErrors.corrupt(file, "Branch file's identifier is not a list of [version, id] pairs");
        }
        lineage.add(new BranchInfo.Lineage(TagJson.number(pair.get(0), "identifier", file, "Branch"),
            pair.get(1).textValue()));
      }
    }
    return new BranchInfo(name, parent != null && parent.isTextual() ? parent.textValue() : null, parentVersion,
        createdAt, manifestSize, lineage, TagJson.metadata(m.get("metadata")));
  }

  static String write(BranchInfo b) {
    ObjectNode o = Json.object();
    o.put("parentBranch", b.parentBranch().orElse(null));
    ArrayNode mapping = o.putObject("identifier").putArray("version_mapping");
    for (BranchInfo.Lineage l : b.lineage()) {
      mapping.addArray().add(Json.unsigned(l.version())).add(l.id());
    }
    o.set("parentVersion", Json.unsigned(b.parentVersion()));
    o.put("createAt", b.createdAt().getEpochSecond());
    o.put("manifestSize", b.manifestSize());
    o.set("metadata", TagJson.metadata(b.metadata()));
    return Json.pretty(o);
  }

  private boolean exists(String key) {
    try {
      return store().exists(key);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not look for " + key + " of " + main.location(), e);
    }
  }

  private ObjectStore store() {
    return main.store();
  }

  // Lance writes a '/' of a branch name as %2F in the record's file name.
  private static String key(String name) {
    return DIR + name.replace("/", "%2F") + SUFFIX;
  }

  private static String decode(String fileName) {
    return fileName.replace("%2F", "/").replace("%2f", "/");
  }
}
