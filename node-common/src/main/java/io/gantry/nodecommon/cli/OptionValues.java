package io.gantry.nodecommon.cli;

import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * Turns a settings record's refusal into picocli's: the records validate in their constructors and
 * throw IllegalArgumentException naming the option, and the command line shows that message with
 * its usage and exit status 2, as for any other invalid option.
 */
public final class OptionValues {
  private OptionValues() {}

  /** {@code settings}' value, or a ParameterException with its refusal's message. */
  public static <T> T validated(CommandLine commandLine, Supplier<T> settings) {
    try {
      return settings.get();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(commandLine, e.getMessage(), e);
    }
  }
}
