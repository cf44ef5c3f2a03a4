package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.api.config.PluginSetting;
import io.gantry.scheduler.framework.Plugin;
import io.gantry.scheduler.framework.PluginHooks;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * KAI's plugin names and priorities (kai-reference §2.5) with Gantry's implementations: the default
 * set per placement strategy, settings merged by name, typed arguments with KAI's spellings, and
 * errors that name the plugin and field.
 */
class PluginRegistryTest {
  private static final Placement GPU_SPREAD =
      new Placement(PlacementStrategy.SPREAD, PlacementStrategy.BINPACK);

  @Test
  void defaultSetForBinpackInPriorityOrder() {
    PluginHooks hooks = new PluginRegistry().build(Map.of(), Placement.DEFAULTS);

    assertThat(names(hooks))
        .containsExactly(
            "predicates",
            "proportion",
            "priority",
            "nodeavailability",
            "resourcetype",
            "elastic",
            "subgrouporder",
            "taskorder",
            "dynamicresources",
            "minruntime",
            "topology",
            "sg-nodelocalgreedy",
            "sg-multinodegang",
            "gpupack",
            "nodeplacement",
            "gpudomain",
            "gpusharingorder");
  }

  @Test
  void defaultSetForGpuSpreadSwapsGpuPackAndSharingOrderForGpuSpread() {
    PluginHooks hooks = new PluginRegistry().build(Map.of(), GPU_SPREAD);

    assertThat(names(hooks))
        .containsExactly(
            "predicates",
            "proportion",
            "priority",
            "nodeavailability",
            "resourcetype",
            "elastic",
            "subgrouporder",
            "taskorder",
            "dynamicresources",
            "minruntime",
            "topology",
            "sg-nodelocalgreedy",
            "sg-multinodegang",
            "gpuspread",
            "nodeplacement",
            "gpudomain");
    assertThat(plugin(hooks, NodePlacementPlugin.class).args()).isEqualTo(GPU_SPREAD);
  }

  @Test
  void disablingABuiltPluginRemovesIt() {
    PluginHooks hooks =
        new PluginRegistry().build(Map.of("elastic", disabled()), Placement.DEFAULTS);

    assertThat(names(hooks)).doesNotContain("elastic").contains("priority", "subgrouporder");
  }

  @Test
  void enablingGpuSpreadUnderBinpackKeepsBothDeviceScorers() {
    PluginHooks hooks =
        new PluginRegistry().build(Map.of("gpuspread", enabled()), Placement.DEFAULTS);

    assertThat(names(hooks)).containsSubsequence("gpupack", "gpuspread", "nodeplacement");
  }

  @Test
  void disablingAPluginThatIsNotBuiltIsAccepted() {
    PluginHooks hooks =
        new PluginRegistry().build(Map.of("snapshot", disabled()), Placement.DEFAULTS);

    assertThat(names(hooks)).doesNotContain("snapshot").hasSize(17);
  }

  record ErrorCase(String name, Map<String, PluginSetting> settings, String field, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ErrorCase> errors() {
    return Stream.of(
        new ErrorCase(
            "enabling a plugin that is not built",
            Map.of("snapshot", enabled()),
            "plugins.snapshot",
            "plugins.snapshot: plugin snapshot is not supported yet"),
        new ErrorCase(
            "configuring a plugin that is not built",
            Map.of("podaffinity", arguments(Map.of("weight", "5"))),
            "plugins.podaffinity",
            "plugins.podaffinity: plugin podaffinity is not supported yet"),
        new ErrorCase(
            "a min-runtime that is not a duration",
            Map.of("minruntime", arguments(Map.of("defaultPreemptMinRuntime", "5"))),
            "plugins.minruntime.arguments.defaultPreemptMinRuntime",
            "plugins.minruntime.arguments.defaultPreemptMinRuntime: expected a duration such as"
                + " 90s, 10m or 1h30m, got \"5\" (missing unit)"),
        new ErrorCase(
            "a reclaim resolve method that is neither lca nor queue",
            Map.of("minruntime", arguments(Map.of("reclaimResolveMethod", "leaf"))),
            "plugins.minruntime.arguments.reclaimResolveMethod",
            "plugins.minruntime.arguments.reclaimResolveMethod: expected lca or queue, got"
                + " \"leaf\""),
        new ErrorCase(
            "configuring a disabled plugin that is not built",
            Map.of(
                "snapshot", new PluginSetting(Optional.of(false), ImmutableSortedMap.of("x", "y"))),
            "plugins.snapshot",
            "plugins.snapshot: plugin snapshot is not supported yet"),
        new ErrorCase(
            "an unknown argument of proportion",
            Map.of("proportion", arguments(Map.of("kvalue", 2))),
            "plugins.proportion.arguments.kvalue",
            "plugins.proportion.arguments.kvalue: unknown argument of plugin proportion"),
        new ErrorCase(
            "a non-numeric kValue",
            Map.of("proportion", arguments(Map.of("kValue", "high"))),
            "plugins.proportion.arguments.kValue",
            "plugins.proportion.arguments.kValue: expected a number, got \"high\""),
        new ErrorCase(
            "an unknown argument of a plugin without arguments",
            Map.of("priority", arguments(Map.of("weight", 2))),
            "plugins.priority.arguments.weight",
            "plugins.priority.arguments.weight: unknown argument of plugin priority"),
        new ErrorCase(
            "a placement strategy that is neither binpack nor spread",
            Map.of("nodeplacement", arguments(Map.of("gpu", "fill"))),
            "plugins.nodeplacement.arguments.gpu",
            "plugins.nodeplacement.arguments.gpu: expected one of binpack, spread,"
                + " fragmentation-aware, random, best-fit, dot-product, gpu-packing, got \"fill\""),
        new ErrorCase(
            "a fragmentation-aware half-life of zero",
            Map.of("fragmentationaware", enabledWith(Map.of("halfLife", "0s"))),
            "plugins.fragmentationaware.arguments.halfLife",
            "plugins.fragmentationaware.arguments.halfLife: expected a duration above 0s, got"
                + " \"0s\""),
        new ErrorCase(
            "an ask exponent above 1",
            Map.of("fragmentationaware", enabledWith(Map.of("askExponent", 2))),
            "plugins.fragmentationaware.arguments.askExponent",
            "plugins.fragmentationaware.arguments.askExponent: expected a number from 0 to 1, got"
                + " 2.0"),
        new ErrorCase(
            "a negative ask exponent",
            Map.of("fragmentationaware", enabledWith(Map.of("askExponent", "-0.5"))),
            "plugins.fragmentationaware.arguments.askExponent",
            "plugins.fragmentationaware.arguments.askExponent: expected a number from 0 to 1, got"
                + " -0.5"),
        new ErrorCase(
            "an unknown argument of nodeplacement",
            Map.of("nodeplacement", arguments(Map.of("gpus", "spread"))),
            "plugins.nodeplacement.arguments.gpus",
            "plugins.nodeplacement.arguments.gpus: unknown argument of plugin nodeplacement"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errors")
  void rejectsBadSettingsNamingTheField(ErrorCase c) {
    assertThatThrownBy(() -> new PluginRegistry().build(c.settings(), Placement.DEFAULTS))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e -> {
              assertThat(e.key()).isEqualTo(c.field());
              assertThat(e.getMessage()).isEqualTo(c.message());
            });
  }

  @Test
  void unknownPluginNameIsAnErrorNamingIt() {
    assertThatThrownBy(
            () -> new PluginRegistry().build(Map.of("binpack", enabled()), Placement.DEFAULTS))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e -> {
              assertThat(e.key()).isEqualTo("plugins.binpack");
              assertThat(e.getMessage())
                  .startsWith(
                      "plugins.binpack: unknown plugin; known plugins: predicates, proportion,")
                  .contains("topology", "gpusharingorder");
            });
  }

  record ProportionCase(String name, Map<String, Object> arguments, ProportionArgs expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ProportionCase> proportionArguments() {
    return Stream.of(
        new ProportionCase("defaults", Map.of(), new ProportionArgs(1.0, 1.0)),
        new ProportionCase("kValue", Map.of("kValue", 2.5), new ProportionArgs(2.5, 1.0)),
        new ProportionCase(
            "kValue as a string", Map.of("kValue", "0.5"), new ProportionArgs(0.5, 1.0)),
        new ProportionCase(
            "negative kValue is treated as 0", Map.of("kValue", -3), new ProportionArgs(0, 1.0)),
        new ProportionCase(
            "KAI's spelling relcaimerSaturationMultiplier",
            Map.of("relcaimerSaturationMultiplier", 1.5),
            new ProportionArgs(1.0, 1.5)),
        new ProportionCase(
            "alias reclaimerSaturationMultiplier",
            Map.of("reclaimerSaturationMultiplier", 2),
            new ProportionArgs(1.0, 2.0)),
        new ProportionCase(
            "alias reclaimerUtilizationMultiplier (KAI's docs)",
            Map.of("reclaimerUtilizationMultiplier", 3),
            new ProportionArgs(1.0, 3.0)),
        new ProportionCase(
            "a multiplier below 1 is clamped to 1",
            Map.of("relcaimerSaturationMultiplier", 0.5),
            new ProportionArgs(1.0, 1.0)),
        new ProportionCase(
            "both arguments",
            Map.of("kValue", 0, "relcaimerSaturationMultiplier", 1.2),
            new ProportionArgs(0, 1.2)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("proportionArguments")
  void bindsProportionArguments(ProportionCase c) {
    PluginHooks hooks =
        new PluginRegistry()
            .build(Map.of("proportion", arguments(c.arguments())), Placement.DEFAULTS);

    assertThat(plugin(hooks, ProportionPlugin.class).args()).isEqualTo(c.expected());
  }

  @Test
  void nodePlacementArgumentsOverrideTheShardStrategy() {
    PluginHooks hooks =
        new PluginRegistry()
            .build(Map.of("nodeplacement", arguments(Map.of("gpu", "spread"))), Placement.DEFAULTS);

    assertThat(plugin(hooks, NodePlacementPlugin.class).args())
        .isEqualTo(new Placement(PlacementStrategy.SPREAD, PlacementStrategy.BINPACK));
  }

  @Test
  void nodePlacementTakesBothStrategies() {
    PluginHooks hooks =
        new PluginRegistry()
            .build(
                Map.of("nodeplacement", arguments(Map.of("gpu", "spread", "cpu", "spread"))),
                Placement.DEFAULTS);

    assertThat(plugin(hooks, NodePlacementPlugin.class).args())
        .isEqualTo(new Placement(PlacementStrategy.SPREAD, PlacementStrategy.SPREAD));
  }

  @Test
  void knownNamesListKaisPlugins() {
    assertThat(new PluginRegistry().knownNames())
        .contains(
            "predicates",
            "proportion",
            "podaffinity",
            "kubeflow",
            "ray",
            "nominatednode",
            "dynamicresources",
            "minruntime",
            "topology",
            "snapshot",
            "numa",
            "reflectjoborder");
  }

  private static List<String> names(PluginHooks hooks) {
    return hooks.plugins().stream().map(Plugin::name).toList();
  }

  private static <T> T plugin(PluginHooks hooks, Class<T> type) {
    return hooks.plugins().stream()
        .filter(type::isInstance)
        .map(type::cast)
        .findFirst()
        .orElseThrow();
  }

  private static PluginSetting enabled() {
    return new PluginSetting(Optional.of(true), ImmutableSortedMap.of());
  }

  private static PluginSetting disabled() {
    return new PluginSetting(Optional.of(false), ImmutableSortedMap.of());
  }

  private static PluginSetting enabledWith(Map<String, Object> arguments) {
    return new PluginSetting(Optional.of(true), ImmutableSortedMap.copyOf(arguments));
  }

  private static PluginSetting arguments(Map<String, Object> arguments) {
    return new PluginSetting(Optional.empty(), ImmutableSortedMap.copyOf(arguments));
  }
}
