package dev.javelin.table.exceptions;


/**
 * A shallow clone of a version that holds something a clone cannot refer to yet (data overlays, a
 * stable partition entry); the message says what to do first. Nothing is written.
 */
public class CloneRefusedException extends TableException {
  CloneRefusedException(String message) {
    super(message);
  }
}
