package dev.javelin.format.exceptions;


/** A projection named a column that the file's schema does not have. */
public class ColumnNotFoundException extends LanceFormatException {
  private final String column;

  public ColumnNotFoundException(String location, String column) {
    super(location, "Column '" + column + "' is not in the file's schema");
    this.column = column;
  }

  public String column() {
    return column;
  }
}
