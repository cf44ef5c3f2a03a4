package io.gantry.kubemodel.read;

/**
 * Refuses a YAML text with a line longer than a string may be, before it is parsed. SnakeYAML's
 * scanner takes time that grows faster than the length of a line (one 1 MB plain scalar: seconds; 8
 * MB: 18 s; 50 MB: minutes), while a file of many short lines reads in linear time; a line that
 * long holds a string over the limit or is not YAML a person wrote. One pass over the text, so an
 * over-long value is refused in well under a second.
 */
final class LongLineCheck {
  private LongLineCheck() {}

  static void check(String sourceName, String text, int maxChars) throws ScenarioException {
    int line = 1;
    int start = 0;
    int length = text.length();
    for (int i = 0; i <= length; i++) {
      if (i == length || text.charAt(i) == '\n') {
        if (i - start > maxChars) {
          throw new ScenarioException(
              sourceName,
              line,
              "",
              "line is "
                  + (i - start)
                  + " characters long, more than the limit of "
                  + maxChars
                  + " for a string value or a line of YAML (a JSON file, named .json, may have"
                  + " longer lines)");
        }
        line++;
        start = i + 1;
      }
    }
  }
}
