package dev.javelin.cli;

/** Entry point of the command line; the commands come with the CLI work. */
public final class Javelin {
  private Javelin() {}

  public static void main(String[] args) {
    System.exit(0);
  }
}
