package dev.javelin.common;

/**
 * How far one stage of a long operation has got, as a {@link ProgressListener} hears it. A stage
 * is announced with {@code done == 0}, then reported as work completes, and last with
 * {@code finished} set.
 *
 * @param operation what runs, e.g. {@code compact}, {@code create index}, {@code cluster}
 * @param stage the part of it running now, e.g. {@code rewrite fragments}, {@code pass 1 of 2}
 * @param done units done so far in this stage
 * @param total units the stage will do, or -1 when not known ahead (a write from a stream)
 * @param unit what is counted
 * @param finished whether the stage has ended (its last report)
 */
public record Progress(String operation, String stage, long done, long total, Unit unit, boolean finished) {

  /** What a stage counts. */
  public enum Unit {
    ROWS("rows"), BYTES("bytes"), FILES("files"), TASKS("tasks"), INDICES("indices"), VERSIONS("versions");

    private final String label;

    Unit(String label) {
      this.label = label;
    }

    /** The unit's name for people, plural ({@code rows}). */
    public String label() {
      return label;
    }
  }

  /** The share done, 0 to 1, or -1 when the total is not known. */
  public double fraction() {
    if (total < 0) {
      return -1;
    }
    return total == 0 ? 1 : Math.min(1, (double) done / total);
  }
}
