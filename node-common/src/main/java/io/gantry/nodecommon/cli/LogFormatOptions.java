package io.gantry.nodecommon.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.joran.spi.JoranException;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/**
 * {@code --log-format text|json}: the line format of the log on standard error. A picocli mixin of
 * every command that runs against a cluster (the scheduler's, the device agent's, the DRA
 * driver's); the formats are each logback.xml's appenders (gantry-logback-appenders.xml,
 * gantry-node-logback-appenders.xml), chosen by the system property {@value #PROPERTY}.
 */
public final class LogFormatOptions {
  /** The system property logback.xml reads the format from. */
  public static final String PROPERTY = "gantry.logFormat";

  /** The formats, as the option spells them. */
  public enum LogFormat {
    text,
    json
  }

  @Option(
      names = "--log-format",
      paramLabel = "text|json",
      description =
          "Log lines on stderr: text (one line per event) or json (one JSON object per line,"
              + " logback's JsonEncoder). Default: text.")
  void setLogFormat(LogFormat format) {
    System.setProperty(PROPERTY, format.name());
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      // logback read its configuration at the first logger; read it again with the format
      context.reset();
      try {
        new ContextInitializer(context).autoConfig();
      } catch (JoranException e) {
        throw new IllegalStateException("cannot configure logging: " + e.getMessage(), e);
      }
    }
  }
}
