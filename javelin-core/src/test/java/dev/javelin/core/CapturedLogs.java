package dev.javelin.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J provider of this module's tests: keeps the messages each logger logs at INFO and
 * above, so a test can assert what was logged ({@link #of}), and prints warnings and errors to
 * stderr as a console logger would.
 */
public final class CapturedLogs implements SLF4JServiceProvider {
  private static final Map<String, List<String>> MESSAGES = new ConcurrentHashMap<>();

  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final MDCAdapter mdc = new BasicMDCAdapter();
  private final ILoggerFactory loggers = Captured::new;

  /** What the logger of {@code type} has logged at INFO and above, oldest first. */
  public static List<String> of(Class<?> type) {
    return new ArrayList<>(messages(type.getName()));
  }

  /** Forgets what the logger of {@code type} has logged. */
  public static void clear(Class<?> type) {
    messages(type.getName()).clear();
  }

  private static List<String> messages(String logger) {
    return MESSAGES.computeIfAbsent(logger, k -> new CopyOnWriteArrayList<>());
  }

  @Override
  public ILoggerFactory getLoggerFactory() {
    return loggers;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }

  @Override
  public void initialize() {}

  private static final class Captured extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;

    Captured(String name) {
      this.name = name;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
      return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args,
        Throwable thrown) {
      String message = MessageFormatter.basicArrayFormat(pattern, args);
      messages(name).add(message);
      if (level.toInt() >= Level.WARN.toInt()) {
        System.err.println(level + " " + name + " - " + message);
        if (thrown != null) {
          thrown.printStackTrace();
        }
      }
    }

    @Override
    public boolean isTraceEnabled() {
      return false;
    }

    @Override
    public boolean isDebugEnabled() {
      return false;
    }

    @Override
    public boolean isInfoEnabled() {
      return true;
    }

    @Override
    public boolean isWarnEnabled() {
      return true;
    }

    @Override
    public boolean isErrorEnabled() {
      return true;
    }
  }
}
