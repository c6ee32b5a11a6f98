package dev.javelin.cli;

import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code javelin} in-process with string writers, in a fresh temporary directory. */
abstract class CliTestBase {
  @TempDir
  Path dir;

  @TestAllocator BufferAllocator allocator;

  /** What a run printed, and its exit code. */
  static final class Result {
    final int code;
    final String out;
    final String err;

    Result(int code, String out, String err) {
      this.code = code;
      this.out = out;
      this.err = err;
    }

    @Override
    public String toString() {
      return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
    }
  }

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    PrintWriter o = new PrintWriter(out);
    PrintWriter e = new PrintWriter(err);
    int code = Javelin.commandLine(o, e).execute(args);
    o.flush();
    e.flush();
    return new Result(code, out.toString(), err.toString());
  }

  Path text(String name, String content) throws IOException {
    return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
  }

  Path bytes(String name, byte[] content) throws IOException {
    return Files.write(dir.resolve(name), content);
  }

  String path(String name) {
    return dir.resolve(name).toString();
  }
}
