package dev.javelin.cli;

import dev.javelin.core.exceptions.ExpressionException;
import dev.javelin.format.exceptions.LanceFormatException;
import dev.javelin.io.UnsupportedStoreException;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.exceptions.CommitFailedException;
import dev.javelin.table.exceptions.CommitStateUnknownException;
import dev.javelin.table.exceptions.TableException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import org.apache.arrow.memory.OutOfMemoryException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExitCodeExceptionMapper;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The one place where failures become messages and exit codes: a bad argument or bad input
 * (including a damaged dataset or a feature Javelin lacks) is {@link ExitCodes#INVALID_INPUT}, an
 * I/O failure or a lost commit race {@link ExitCodes#GENERIC}, anything else a bug
 * ({@link ExitCodes#INTERNAL}). Each prints one line {@code javelin: <message>} on stderr; the
 * stack trace only with {@code --verbose}.
 */
final class ErrorHandler implements IExecutionExceptionHandler, IParameterExceptionHandler, IExitCodeExceptionMapper {
  static final String PREFIX = "javelin: ";

  @Override
  public int getExitCode(Throwable t) {
    Throwable e = unwrap(t);
    if (e instanceof InvalidInputException
        || e instanceof LanceFormatException
        || (e instanceof TableException && !(e instanceof CommitFailedException)
            && !(e instanceof CommitStateUnknownException) && !(e instanceof CommitConflictException))
        || e instanceof IllegalArgumentException
        || e instanceof UnsupportedStoreException
        || e instanceof ExpressionException
        // A feature this input needs that Javelin lacks ("... is not supported yet"): not a bug.
        || e instanceof UnsupportedOperationException
        || e instanceof ParameterException
        || e instanceof NoSuchFileException
        || e instanceof FileAlreadyExistsException) {
      return ExitCodes.INVALID_INPUT;
    }
    if (e instanceof IOException || e instanceof TableException || e instanceof OutOfMemoryException) {
      return ExitCodes.GENERIC;
    }
    return ExitCodes.INTERNAL;
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parsed) {
    PrintWriter err = cmd.getErr();
    cmd.getOut().flush();
    int code = getExitCode(ex);
    boolean verbose = verbose(parsed);
    String message = message(unwrap(ex));
    if (code == ExitCodes.INTERNAL) {
      message = "internal error: " + unwrap(ex) + (verbose ? "" : " (run with --verbose for the stack trace)");
    }
    err.println(PREFIX + message);
    if (verbose) {
      ex.printStackTrace(err);
    }
    err.flush();
    return code;
  }

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    PrintWriter err = cmd.getErr();
    err.println(PREFIX + ex.getMessage());
    if (ex instanceof UnmatchedArgumentException) {
      UnmatchedArgumentException.printSuggestions((UnmatchedArgumentException) ex, err);
    }
    err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
    err.flush();
    return ExitCodes.INVALID_INPUT;
  }

  private static boolean verbose(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--verbose")) {
        return true;
      }
    }
    return false;
  }

  private static Throwable unwrap(Throwable t) {
    if (t instanceof UncheckedIOException && t.getCause() != null) {
      return t.getCause();
    }
    return t;
  }

  /** The one line for running out of Java heap or of Arrow's (direct) memory. */
  static String outOfMemory(Throwable e) {
    long heap = Runtime.getRuntime().maxMemory() >> 20;
    return "out of memory (" + e.getMessage() + "; Java heap " + heap + " MiB): give Java more with "
        + "JAVA_OPTS=-Xmx4g (Arrow's memory is bounded by the heap unless -XX:MaxDirectMemorySize says otherwise)";
  }

  /** A one-line message for an exception, naming the file for the usual I/O failures. */
  static String message(Throwable e) {
    if (e instanceof OutOfMemoryException) {
      return outOfMemory(e);
    }
    if (e instanceof NoSuchFileException) {
      return "No such file or directory: " + ((NoSuchFileException) e).getFile();
    }
    if (e instanceof AccessDeniedException) {
      return "Permission denied: " + ((AccessDeniedException) e).getFile();
    }
    if (e instanceof FileAlreadyExistsException) {
      return "File already exists: " + ((FileAlreadyExistsException) e).getFile();
    }
    if (e instanceof FileSystemException) {
      FileSystemException f = (FileSystemException) e;
      return (f.getReason() == null ? "I/O error" : f.getReason()) + ": " + f.getFile();
    }
    String m = e.getMessage();
    if (m == null || m.isBlank()) {
      return e.getClass().getSimpleName();
    }
    // Keep to one line; the rest of a multi-line message is in the --verbose stack trace.
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
