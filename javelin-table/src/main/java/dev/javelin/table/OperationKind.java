package dev.javelin.table;

import dev.javelin.table.proto.TransactionProtos.Transaction.OperationCase;

/** The kinds of transaction operation Lance defines (the {@code operation} oneof). */
public enum OperationKind {
  APPEND("Append"),
  DELETE("Delete"),
  OVERWRITE("Overwrite"),
  CREATE_INDEX("CreateIndex"),
  REWRITE("Rewrite"),
  MERGE("Merge"),
  RESTORE("Restore"),
  RESERVE_FRAGMENTS("ReserveFragments"),
  UPDATE("Update"),
  PROJECT("Project"),
  UPDATE_CONFIG("UpdateConfig"),
  DATA_REPLACEMENT("DataReplacement"),
  UPDATE_MEM_WAL_STATE("UpdateMemWalState"),
  CLONE("Clone"),
  UPDATE_BASES("UpdateBases"),
  /** An operation newer than this code (or none). Conflicts with everything, to be safe. */
  UNKNOWN("unknown operation");

  private final String displayName;

  OperationKind(String displayName) {
    this.displayName = displayName;
  }

  /** Lance's name of the operation, as shown in messages. */
  public String displayName() {
    return displayName;
  }

  static OperationKind of(OperationCase c) {
    switch (c) {
      case APPEND: return APPEND;
      case DELETE: return DELETE;
      case OVERWRITE: return OVERWRITE;
      case CREATE_INDEX: return CREATE_INDEX;
      case REWRITE: return REWRITE;
      case MERGE: return MERGE;
      case RESTORE: return RESTORE;
      case RESERVE_FRAGMENTS: return RESERVE_FRAGMENTS;
      case UPDATE: return UPDATE;
      case PROJECT: return PROJECT;
      case UPDATE_CONFIG: return UPDATE_CONFIG;
      case DATA_REPLACEMENT: return DATA_REPLACEMENT;
      case UPDATE_MEM_WAL_STATE: return UPDATE_MEM_WAL_STATE;
      case CLONE: return CLONE;
      case UPDATE_BASES: return UPDATE_BASES;
      default: return UNKNOWN;
    }
  }
}
