package io.gantry.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pins what {@code gantry simulate --output json} prints, byte for byte: every scenario in the
 * repository's {@code examples/} against {@code src/test/resources/golden/}, and the random corpus
 * in {@code src/test/resources/corpus/} twice: with {@code --actions allocate}, the action list it
 * was recorded with, against the {@code .json} beside each {@code .yaml}; and with the default
 * actions (allocate and the eviction actions) against {@code corpus/all-actions/}.
 *
 * <p>A scenario that runs has a golden {@code NAME.json}: its standard output, with exit status 0
 * and nothing on standard error. A scenario that is rejected has a golden {@code NAME.err}: {@code
 * exit N} on the first line, then its standard error exactly, with nothing on standard output.
 * Paths in messages are as this test passes them, relative to {@code extender/app}.
 *
 * <p>Each file runs in-process, and all of them run once more in one child JVM, so output that
 * depends on something that differs between processes (the iteration order of a hash-based
 * collection, identity hash codes) fails here even when two runs in one JVM agree.
 *
 * <p>Goldens change only on purpose: {@code -Dgantry.golden.update=true} rewrites them from the
 * in-process run, and removes goldens whose scenario is gone (README, "Working on Gantry").
 */
class GoldenOutputTest {
  private static final boolean UPDATE = Boolean.getBoolean("gantry.golden.update");
  private static final String UPDATE_HINT =
      "if the change is intended, rewrite the goldens with -Dgantry.golden.update=true"
          + " (README, \"Working on Gantry\") and review the diff";

  private static final Path EXAMPLES = Path.of("..", "..", "examples");
  private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");

  /**
   * Sub-folders of {@code examples/} whose scenarios also have goldens, in the same sub-folder of
   * {@code golden/}: scenarios written from KAI's own test tables, and scenarios where Gantry once
   * decided wrongly.
   */
  private static final List<String> EXAMPLE_FOLDERS = List.of("kai", "regressions");

  private static final Path CORPUS = Path.of("src", "test", "resources", "corpus");
  private static final Path ALL_ACTIONS = CORPUS.resolve("all-actions");
  private static final List<String> ALLOCATE_ONLY = List.of("--actions", "allocate");
  private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(2);

  /**
   * A scenario file, the folder its golden {@code NAME.json} or {@code NAME.err} is in, and the
   * options it runs with besides {@code --output json}.
   */
  record Scenario(Path file, Path goldenDir, List<String> options) {
    String name() {
      String fileName = file.getFileName().toString();
      return fileName.substring(0, fileName.lastIndexOf('.'));
    }

    Path json() {
      return goldenDir.resolve(name() + ".json");
    }

    Path err() {
      return goldenDir.resolve(name() + ".err");
    }

    @Override
    public String toString() {
      return goldenDir.getFileName() + "/" + file.getFileName();
    }
  }

  /** What one run of the command printed, and its exit status. */
  record Outcome(int exitCode, String out, String err) {}

  static List<Scenario> scenarios() throws IOException {
    ImmutableList.Builder<Scenario> all = ImmutableList.builder();
    yamlFiles(EXAMPLES).forEach(file -> all.add(new Scenario(file, GOLDEN, List.of())));
    for (String folder : EXAMPLE_FOLDERS) {
      Path goldenDir = GOLDEN.resolve(folder);
      yamlFiles(EXAMPLES.resolve(folder))
          .forEach(file -> all.add(new Scenario(file, goldenDir, List.of())));
    }
    yamlFiles(CORPUS).forEach(file -> all.add(new Scenario(file, CORPUS, ALLOCATE_ONLY)));
    yamlFiles(CORPUS).forEach(file -> all.add(new Scenario(file, ALL_ACTIONS, List.of())));
    return all.build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void inProcessOutputMatchesGolden(Scenario scenario) throws IOException {
    Outcome now = inProcess(scenario);
    if (UPDATE) {
      write(scenario, now);
    }

    assertThat(differences("the golden", List.of(scenario), List.of(read(scenario)), now))
        .as(UPDATE_HINT)
        .isEmpty();
  }

  @Test
  void childJvmPrintsWhatTheInProcessRunsAndTheGoldensPrint(@TempDir Path dir)
      throws IOException, InterruptedException {
    List<String> problems = new ArrayList<>();
    // one child JVM per set of options, each running every scenario of the set
    Map<List<String>, List<Scenario>> sets = new LinkedHashMap<>();
    scenarios().forEach(s -> sets.computeIfAbsent(s.options(), o -> new ArrayList<>()).add(s));
    for (List<Scenario> scenarios : sets.values()) {
      List<Outcome> inProcess = scenarios.stream().map(GoldenOutputTest::inProcess).toList();

      Outcome child = child(scenarios, dir);

      problems.addAll(differences("in-process", scenarios, inProcess, child));
      if (!UPDATE) {
        // In update mode inProcessOutputMatchesGolden writes the goldens from the in-process
        // runs, which the line above compares with the child.
        List<Outcome> goldens = new ArrayList<>();
        for (Scenario scenario : scenarios) {
          goldens.add(read(scenario));
        }
        problems.addAll(differences("the goldens", scenarios, goldens, child));
      }
    }
    assertThat(problems).as("the child JVM's output against each").isEmpty();
  }

  @Test
  void everyGoldenBelongsToAScenario() throws IOException {
    TreeSet<Path> expected = new TreeSet<>();
    for (Scenario scenario : scenarios()) {
      expected.add(scenario.json());
      expected.add(scenario.err());
    }
    TreeSet<Path> present = new TreeSet<>();
    files(GOLDEN).stream().filter(f -> !Files.isDirectory(f)).forEach(present::add);
    for (String folder : EXAMPLE_FOLDERS) {
      present.addAll(files(GOLDEN.resolve(folder)));
    }
    files(CORPUS).stream()
        .filter(f -> !f.toString().endsWith(".yaml") && !Files.isDirectory(f))
        .forEach(present::add);
    present.addAll(files(ALL_ACTIONS));
    present.removeAll(expected);
    if (UPDATE) {
      for (Path orphan : present) {
        Files.delete(orphan);
      }
      present.clear();
    }

    assertThat(present).as("goldens without a scenario").isEmpty();
  }

  private static Outcome inProcess(Scenario scenario) {
    List<String> args = new ArrayList<>(List.of("simulate", "--output", "json"));
    args.addAll(scenario.options());
    args.add(scenario.file().toString());
    CliRunner r = CliRunner.run(args.toArray(String[]::new));
    return new Outcome(r.exitCode(), r.out(), r.err());
  }

  /** Every scenario in one child JVM on this test's class path, from this test's directory. */
  private static Outcome child(List<Scenario> scenarios, Path dir)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dfile.encoding=UTF-8");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(GantryCli.class.getName());
    command.addAll(List.of("simulate", "--output", "json"));
    command.addAll(scenarios.get(0).options());
    scenarios.forEach(s -> command.add(s.file().toString()));
    Path out = dir.resolve("stdout");
    Path err = dir.resolve("stderr");
    Process process =
        new ProcessBuilder(command)
            .directory(Path.of("").toAbsolutePath().toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(CHILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the child JVM ran longer than " + CHILD_TIMEOUT);
    }
    return new Outcome(
        process.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
  }

  /**
   * How one run of {@code scenarios} differs from {@code expected}, one outcome per file: the run
   * prints each file's output in order and exits with the highest status.
   */
  private static List<String> differences(
      String what, List<Scenario> scenarios, List<Outcome> expected, Outcome run) {
    List<String> problems = new ArrayList<>();
    int exitCode = expected.stream().mapToInt(Outcome::exitCode).max().orElse(0);
    if (run.exitCode() != exitCode) {
      problems.add(
          "exit status differs from " + what + ": want " + exitCode + ", got " + run.exitCode());
    }
    firstDifference(
            "stdout differs from " + what,
            scenarios,
            expected.stream().map(Outcome::out).toList(),
            run.out())
        .ifPresent(problems::add);
    firstDifference(
            "stderr differs from " + what,
            scenarios,
            expected.stream().map(Outcome::err).toList(),
            run.err())
        .ifPresent(problems::add);
    return problems;
  }

  /** Where {@code actual} first departs from the concatenated parts, named by the file. */
  private static Optional<String> firstDifference(
      String what, List<Scenario> scenarios, List<String> parts, String actual) {
    String expected = String.join("", parts);
    if (expected.equals(actual)) {
      return Optional.empty();
    }
    int at = 0;
    while (at < expected.length()
        && at < actual.length()
        && expected.charAt(at) == actual.charAt(at)) {
      at++;
    }
    String where = "after the last file's output";
    int end = 0;
    for (int i = 0; i < parts.size(); i++) {
      end += parts.get(i).length();
      if (at < end) {
        where = "in " + scenarios.get(i) + "'s output";
        break;
      }
    }
    return Optional.of(
        what
            + " "
            + where
            + " at character "
            + at
            + ": want "
            + excerpt(expected, at)
            + ", got "
            + excerpt(actual, at));
  }

  /** Up to 60 characters either side of {@code at}, within its line. */
  private static String excerpt(String text, int at) {
    if (at >= text.length()) {
      return "<end>";
    }
    int lineStart = text.lastIndexOf('\n', at - 1) + 1;
    int lineEnd = text.indexOf('\n', at);
    int from = Math.max(lineStart, at - 60);
    int to = Math.min(lineEnd < 0 ? text.length() : lineEnd, at + 60);
    return "\"" + text.substring(from, to) + "\"";
  }

  private static Outcome read(Scenario scenario) throws IOException {
    boolean json = Files.exists(scenario.json());
    boolean err = Files.exists(scenario.err());
    if (json && err) {
      throw new AssertionError(
          scenario + " has two goldens, " + scenario.json() + " and " + scenario.err());
    }
    if (json) {
      return new Outcome(0, Files.readString(scenario.json(), UTF_8), "");
    }
    if (!err) {
      throw new AssertionError(
          "no golden for "
              + scenario
              + ": record "
              + scenario.json()
              + " or "
              + scenario.err()
              + " with -Dgantry.golden.update=true");
    }
    String text = Files.readString(scenario.err(), UTF_8);
    int newline = text.indexOf('\n');
    String header = newline < 0 ? text : text.substring(0, newline);
    if (!header.matches("exit [0-9]+")) {
      throw new AssertionError(
          scenario.err() + ": the first line must be \"exit N\", got \"" + header + "\"");
    }
    return new Outcome(
        Integer.parseInt(header.substring("exit ".length())), "", text.substring(newline + 1));
  }

  private static void write(Scenario scenario, Outcome outcome) throws IOException {
    Files.createDirectories(scenario.goldenDir());
    Files.deleteIfExists(scenario.json());
    Files.deleteIfExists(scenario.err());
    if (outcome.exitCode() == 0 && outcome.err().isEmpty()) {
      Files.writeString(scenario.json(), outcome.out(), UTF_8);
    } else if (outcome.out().isEmpty()) {
      Files.writeString(scenario.err(), "exit " + outcome.exitCode() + "\n" + outcome.err(), UTF_8);
    } else {
      throw new AssertionError(
          scenario + " printed on stdout and failed, which no golden records: " + outcome);
    }
  }

  private static List<Path> yamlFiles(Path dir) throws IOException {
    return files(dir).stream().filter(f -> f.toString().endsWith(".yaml")).toList();
  }

  private static List<Path> files(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }
}
