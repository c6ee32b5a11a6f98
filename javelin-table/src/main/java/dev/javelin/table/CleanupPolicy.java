package dev.javelin.table;

import dev.javelin.common.ProgressListener;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Which old versions a cleanup removes. A version is removed when it meets every criterion set
 * (as in Lance's {@code CleanupPolicy}); with no criterion, every old version is. Whatever the
 * policy, the newest version and tagged versions are kept, and so is every file a kept version
 * uses.
 *
 * <p>Files no version references (left by failed or still running writers) are removed only when
 * older than a grace period (7 days by default, as in Lance), unless {@link
 * Builder#deleteUnverified} says no writer can be running.
 *
 * <pre>{@code
 * CleanupPolicy.builder().olderThan(Duration.ofDays(14)).retainVersions(10).build()
 * }</pre>
 */
public final class CleanupPolicy {
  /** How old an unreferenced file must be before it is assumed to belong to no running write. */
  public static final Duration DEFAULT_GRACE_PERIOD = Duration.ofDays(7);

  private final Instant beforeTimestamp;
  private final Duration olderThan;
  private final Long beforeVersion;
  private final Integer retainVersions;
  private final boolean deleteUnverified;
  private final Duration gracePeriod;
  private final boolean errorIfTaggedOldVersions;
  private final ProgressListener progress;

  private CleanupPolicy(Builder b) {
    this.beforeTimestamp = b.beforeTimestamp;
    this.olderThan = b.olderThan;
    this.beforeVersion = b.beforeVersion;
    this.retainVersions = b.retainVersions;
    this.deleteUnverified = b.deleteUnverified;
    this.gracePeriod = b.gracePeriod;
    this.errorIfTaggedOldVersions = b.errorIfTaggedOldVersions;
    this.progress = b.progress;
  }

  /** Hears the cleanup's progress: one stage, {@code delete files}, counting files as they go. */
  public ProgressListener progress() {
    return progress;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Versions committed before this instant are removed. */
  public Optional<Instant> beforeTimestamp() {
    return Optional.ofNullable(beforeTimestamp);
  }

  /** Versions older than this (at the time the cleanup runs) are removed. */
  public Optional<Duration> olderThan() {
    return Optional.ofNullable(olderThan);
  }

  /** Versions below this number are removed. */
  public OptionalLong beforeVersion() {
    return beforeVersion == null ? OptionalLong.empty() : OptionalLong.of(beforeVersion);
  }

  /** The newest this many versions are kept. */
  public OptionalInt retainVersions() {
    return retainVersions == null ? OptionalInt.empty() : OptionalInt.of(retainVersions);
  }

  /** Whether unreferenced files younger than the grace period are removed too. */
  public boolean deleteUnverified() {
    return deleteUnverified;
  }

  public Duration gracePeriod() {
    return gracePeriod;
  }

  /** Whether a cleanup that would remove a tagged version fails instead of keeping it. */
  public boolean errorIfTaggedOldVersions() {
    return errorIfTaggedOldVersions;
  }

  @Override
  public String toString() {
    return "CleanupPolicy{beforeTimestamp=" + beforeTimestamp + ", olderThan=" + olderThan + ", beforeVersion="
        + beforeVersion + ", retainVersions=" + retainVersions + ", deleteUnverified=" + deleteUnverified
        + ", gracePeriod=" + gracePeriod + "}";
  }

  /** Builds a {@link CleanupPolicy}. */
  public static final class Builder {
    private Instant beforeTimestamp;
    private Duration olderThan;
    private Long beforeVersion;
    private Integer retainVersions;
    private boolean deleteUnverified;
    private Duration gracePeriod = DEFAULT_GRACE_PERIOD;
    private boolean errorIfTaggedOldVersions;
    private ProgressListener progress = ProgressListener.NONE;

    private Builder() {}

    /** Hears the cleanup's progress (files deleted so far); nothing by default. */
    public Builder progress(ProgressListener listener) {
      this.progress = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** Remove versions committed before this instant. */
    public Builder beforeTimestamp(Instant timestamp) {
      this.beforeTimestamp = Objects.requireNonNull(timestamp, "timestamp");
      return this;
    }

    /** Remove versions older than this when the cleanup runs. */
    public Builder olderThan(Duration age) {
      if (age.isNegative()) {
        throw new IllegalArgumentException("olderThan must not be negative: " + age);
      }
      this.olderThan = age;
      return this;
    }

    /** Remove versions numbered below this one. */
    public Builder beforeVersion(long version) {
      this.beforeVersion = version;
      return this;
    }

    /** Keep the newest {@code n} versions (at least 1). */
    public Builder retainVersions(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("retainVersions must be at least 1: " + n);
      }
      this.retainVersions = n;
      return this;
    }

    /**
     * Also remove unreferenced files younger than the grace period. Only safe when no other
     * writer is running: its files are unreferenced until it commits.
     */
    public Builder deleteUnverified(boolean delete) {
      this.deleteUnverified = delete;
      return this;
    }

    /** How old an unreferenced file must be to be removed (default 7 days). */
    public Builder gracePeriod(Duration period) {
      if (period.isNegative()) {
        throw new IllegalArgumentException("gracePeriod must not be negative: " + period);
      }
      this.gracePeriod = period;
      return this;
    }

    /** Fail (removing nothing) rather than keep tagged versions the policy would remove. */
    public Builder errorIfTaggedOldVersions(boolean error) {
      this.errorIfTaggedOldVersions = error;
      return this;
    }

    public CleanupPolicy build() {
      return new CleanupPolicy(this);
    }
  }
}
