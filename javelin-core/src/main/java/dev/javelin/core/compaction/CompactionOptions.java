package dev.javelin.core.compaction;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.javelin.common.Json;
import dev.javelin.core.exceptions.CompactionException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What a compaction run does. Fragment rewrites follow Lance's {@code compact_files} options;
 * column repacks are triggered by {@link Builder#maxDataFilesPerFragment} and
 * {@link Builder#columnGroups}, which can also come from table config
 * ({@value #MAX_DATA_FILES_KEY}, {@value #COLUMN_GROUPS_KEY}: a JSON array of arrays of column
 * names); an option set here wins over the config. Immutable and serializable (tasks carry it).
 */
public final class CompactionOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Table config key for {@link Builder#maxDataFilesPerFragment}. */
  public static final String MAX_DATA_FILES_KEY = "lance.compaction.max_data_files_per_fragment";
  /** Table config key for {@link Builder#columnGroups}, e.g. {@code [["a","b"],["c"]]}. */
  public static final String COLUMN_GROUPS_KEY = "lance.compaction.column_groups";

  private final long targetRowsPerFragment;
  private final int maxRowsPerGroup;
  private final Long maxBytesPerFile;
  private final boolean materializeDeletions;
  private final double materializeDeletionsThreshold;
  private final Integer maxSourceFragments;
  private final Long maxSourceBytes;
  private final Integer maxDataFilesPerFragment;
  private final List<List<String>> columnGroups;
  private final CompactionScope scope;
  private final CompactionMode mode;
  private final boolean deferIndexRemap;
  private final int numThreads;
  private final int batchSize;

  private CompactionOptions(Builder b) {
    this.targetRowsPerFragment = b.targetRowsPerFragment;
    this.maxRowsPerGroup = b.maxRowsPerGroup;
    this.maxBytesPerFile = b.maxBytesPerFile;
    // A threshold of 100% or more can never be passed: the same as not materializing.
    this.materializeDeletions = b.materializeDeletions && b.materializeDeletionsThreshold < 1.0;
    this.materializeDeletionsThreshold = b.materializeDeletionsThreshold;
    this.maxSourceFragments = b.maxSourceFragments;
    this.maxSourceBytes = b.maxSourceBytes;
    this.maxDataFilesPerFragment = b.maxDataFilesPerFragment;
    this.columnGroups = b.columnGroups == null ? null : copy(b.columnGroups);
    this.scope = b.scope;
    this.mode = b.mode;
    this.deferIndexRemap = b.deferIndexRemap;
    this.numThreads = b.numThreads;
    this.batchSize = b.batchSize;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Lance's defaults: 1,048,576 rows per fragment, 1,024 per group, deletions above 10% materialized. */
  public static CompactionOptions defaults() {
    return builder().build();
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.targetRowsPerFragment = targetRowsPerFragment;
    b.maxRowsPerGroup = maxRowsPerGroup;
    b.maxBytesPerFile = maxBytesPerFile;
    b.materializeDeletions = materializeDeletions;
    b.materializeDeletionsThreshold = materializeDeletionsThreshold;
    b.maxSourceFragments = maxSourceFragments;
    b.maxSourceBytes = maxSourceBytes;
    b.maxDataFilesPerFragment = maxDataFilesPerFragment;
    b.columnGroups = columnGroups;
    b.scope = scope;
    b.mode = mode;
    b.deferIndexRemap = deferIndexRemap;
    b.numThreads = numThreads;
    b.batchSize = batchSize;
    return b;
  }

  /**
   * These options with the repack triggers this run did not set taken from table config.
   *
   * @throws CompactionException if a config value does not parse
   */
  public CompactionOptions withTableConfig(Map<String, String> config) {
    Builder b = toBuilder();
    if (maxDataFilesPerFragment == null && config.containsKey(MAX_DATA_FILES_KEY)) {
      String v = config.get(MAX_DATA_FILES_KEY).trim();
      try {
        b.maxDataFilesPerFragment(Integer.parseInt(v));
      } catch (IllegalArgumentException e) {
        throw new CompactionException("Table config " + MAX_DATA_FILES_KEY + " is not a positive integer: '" + v + "'");
      }
    }
    if (columnGroups == null && config.containsKey(COLUMN_GROUPS_KEY)) {
      b.columnGroups(parseGroups(config.get(COLUMN_GROUPS_KEY)));
    }
    return b.build();
  }

  static List<List<String>> parseGroups(String json) {
    try {
      JsonNode groups = Json.tree(json);
      if (!groups.isArray()) {
        throw new IllegalArgumentException("not an array");
      }
      List<List<String>> out = new ArrayList<>();
      for (JsonNode g : groups) {
        if (!g.isArray()) {
          throw new IllegalArgumentException("a group is not an array");
        }
        List<String> names = new ArrayList<>();
        for (JsonNode n : g) {
          if (!n.isTextual()) {
            throw new IllegalArgumentException("a column name is not a string");
          }
          names.add(n.textValue());
        }
        out.add(names);
      }
      return out;
    } catch (JsonProcessingException | RuntimeException e) {
      throw new CompactionException("Table config " + COLUMN_GROUPS_KEY
          + " is not a JSON array of arrays of column names: '" + json + "'", e);
    }
  }

  public long targetRowsPerFragment() {
    return targetRowsPerFragment;
  }

  public int maxRowsPerGroup() {
    return maxRowsPerGroup;
  }

  public OptionalLong maxBytesPerFile() {
    return maxBytesPerFile == null ? OptionalLong.empty() : OptionalLong.of(maxBytesPerFile);
  }

  public boolean materializeDeletions() {
    return materializeDeletions;
  }

  public double materializeDeletionsThreshold() {
    return materializeDeletionsThreshold;
  }

  public OptionalInt maxSourceFragments() {
    return maxSourceFragments == null ? OptionalInt.empty() : OptionalInt.of(maxSourceFragments);
  }

  public OptionalLong maxSourceBytes() {
    return maxSourceBytes == null ? OptionalLong.empty() : OptionalLong.of(maxSourceBytes);
  }

  public OptionalInt maxDataFilesPerFragment() {
    return maxDataFilesPerFragment == null ? OptionalInt.empty() : OptionalInt.of(maxDataFilesPerFragment);
  }

  /** The column groups, or null when none are set. */
  public List<List<String>> columnGroups() {
    return columnGroups;
  }

  public CompactionScope scope() {
    return scope;
  }

  public CompactionMode mode() {
    return mode;
  }

  /** How many tasks {@link Compaction#compact} runs at once. */
  public int numThreads() {
    return numThreads;
  }

  /** Whether fragment rewrites record a fragment reuse index instead of remapping indices. */
  public boolean deferIndexRemap() {
    return deferIndexRemap;
  }

  /** Rows per batch read by an executor. */
  public int batchSize() {
    return batchSize;
  }

  private static List<List<String>> copy(List<List<String>> groups) {
    List<List<String>> out = new ArrayList<>();
    for (List<String> g : groups) {
      out.add(List.copyOf(g));
    }
    return List.copyOf(out);
  }

  @Override
  public String toString() {
    return "CompactionOptions{targetRows=" + targetRowsPerFragment + ", maxRowsPerGroup=" + maxRowsPerGroup
        + ", maxBytesPerFile=" + maxBytesPerFile + ", materializeDeletions=" + materializeDeletions + "@"
        + materializeDeletionsThreshold + ", maxSourceFragments=" + maxSourceFragments + ", maxSourceBytes="
        + maxSourceBytes + ", maxDataFilesPerFragment=" + maxDataFilesPerFragment + ", columnGroups="
        + columnGroups + ", scope=" + scope + ", mode=" + mode + ", deferIndexRemap=" + deferIndexRemap + "}";
  }

  /** Builds {@link CompactionOptions}. */
  public static final class Builder {
    private long targetRowsPerFragment = 1024 * 1024;
    private int maxRowsPerGroup = 1024;
    private Long maxBytesPerFile;
    private boolean materializeDeletions = true;
    private double materializeDeletionsThreshold = 0.1;
    private Integer maxSourceFragments;
    private Long maxSourceBytes;
    private Integer maxDataFilesPerFragment;
    private List<List<String>> columnGroups;
    private CompactionScope scope = CompactionScope.ALL;
    private CompactionMode mode = CompactionMode.REENCODE;
    private boolean deferIndexRemap;
    private int numThreads = Runtime.getRuntime().availableProcessors();
    private int batchSize = 8192;

    private Builder() {}

    /** Rows a rewritten fragment aims at; fragments with fewer are rewritten with neighbours. */
    public Builder targetRowsPerFragment(long rows) {
      this.targetRowsPerFragment = positive(rows, "targetRowsPerFragment");
      return this;
    }

    public Builder maxRowsPerGroup(int rows) {
      this.maxRowsPerGroup = (int) positive(rows, "maxRowsPerGroup");
      return this;
    }

    /** Start a new file of a rewritten fragment once a file reaches this many bytes (approximate). */
    public Builder maxBytesPerFile(long bytes) {
      this.maxBytesPerFile = positive(bytes, "maxBytesPerFile");
      return this;
    }

    public Builder materializeDeletions(boolean on) {
      this.materializeDeletions = on;
      return this;
    }

    /** Share of deleted rows above which a fragment is rewritten on its own (default 0.1). */
    public Builder materializeDeletionsThreshold(double share) {
      if (!(share >= 0)) {
        throw new IllegalArgumentException("materializeDeletionsThreshold must be at least 0: " + share);
      }
      this.materializeDeletionsThreshold = share;
      return this;
    }

    /** Most fragments one rewrite task reads. */
    public Builder maxSourceFragments(int fragments) {
      this.maxSourceFragments = (int) positive(fragments, "maxSourceFragments");
      return this;
    }

    /**
     * Most bytes of data files a run reads: tasks are planned in order while they fit. A rewrite
     * counts its fragments' files, a repack only the files holding the columns it moves.
     */
    public Builder maxSourceBytes(long bytes) {
      this.maxSourceBytes = positive(bytes, "maxSourceBytes");
      return this;
    }

    /** Repack a fragment whose columns are in more data files than this (default: never). */
    public Builder maxDataFilesPerFragment(int files) {
      this.maxDataFilesPerFragment = (int) positive(files, "maxDataFilesPerFragment");
      return this;
    }

    /** Top-level columns that should share a data file, one list per file. */
    public Builder columnGroups(List<List<String>> groups) {
      this.columnGroups = copy(groups);
      return this;
    }

    public Builder scope(CompactionScope scope) {
      this.scope = Objects.requireNonNull(scope);
      return this;
    }

    /** How many tasks {@link Compaction#compact} runs at once (default: the processors, as Lance). */
    public Builder numThreads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("numThreads must be at least 1, got " + threads);
      }
      this.numThreads = threads;
      return this;
    }

    /**
     * Instead of remapping the indices covering rewritten fragments, record how rows moved in the
     * {@code __lance_frag_reuse} system index (Lance's {@code defer_index_remap}); the indices
     * keep covering the old fragments, and lance-core translates their addresses on read. Zone
     * maps and bloom filters, which lance-core does not translate, stop covering them instead; a
     * rewrite of fragments an inverted or vector index covers is refused (lance-core cannot search
     * those through the reuse index). See docs/compaction-indices.md.
     */
    public Builder deferIndexRemap(boolean on) {
      this.deferIndexRemap = on;
      return this;
    }

    public Builder mode(CompactionMode mode) {
      this.mode = Objects.requireNonNull(mode);
      return this;
    }

    public Builder batchSize(int rows) {
      this.batchSize = (int) positive(rows, "batchSize");
      return this;
    }

    public CompactionOptions build() {
      return new CompactionOptions(this);
    }

    private static long positive(long v, String what) {
      if (v < 1) {
        throw new IllegalArgumentException(what + " must be at least 1: " + v);
      }
      return v;
    }
  }
}
