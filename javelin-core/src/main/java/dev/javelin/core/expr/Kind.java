package dev.javelin.core.expr;

/** The value types expressions compute with; every Arrow column type maps to one of them. */
enum Kind {
  BOOL("boolean"),
  LONG("integer"),
  DOUBLE("float"),
  STRING("string"),
  DATE("date"),
  TIMESTAMP("timestamp"),
  NULL("null"),
  /** A list of one of the kinds above (its element kind is on the {@link Eval}). */
  LIST("list"),
  /** A column of a type only IS [NOT] NULL can look at (lists, binary, structs...). */
  OTHER("other");

  final String display;

  Kind(String display) {
    this.display = display;
  }

  boolean numeric() {
    return this == LONG || this == DOUBLE;
  }
}
