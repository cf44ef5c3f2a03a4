package io.gantry.scheduler.plugins;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.api.config.PluginSetting;
import io.gantry.scheduler.api.dra.DeviceSelectorEvaluator;
import io.gantry.scheduler.framework.Plugin;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.plugins.dynamicresources.DynamicResourcesPlugin;
import io.gantry.scheduler.plugins.dynamicresources.PublishedGpuDevices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * KAI's plugin names and priorities (kai-reference §2.5), mapped to Gantry's implementations, and
 * Gantry's {@code gpudomain} (GPU interconnect domains inside a node, which KAI does not have).
 * Every name of KAI's list is known: one without an implementation yet may be disabled, but
 * enabling or configuring it is an error naming it. Unknown names are errors.
 */
public final class PluginRegistry {
  private record Entry(
      String name,
      int priority,
      boolean enabledByDefault,
      Optional<BiFunction<PluginArguments, Placement, Plugin>> factory) {}

  private final ImmutableMap<String, Entry> entries;
  private final PublishedGpuDevices publishedGpus;

  /**
   * KAI's plugins; DRA selectors are not evaluated ({@link DeviceSelectorEvaluator#NONE}): for
   * engine tests and benchmarks, whose snapshots hold no claims with selectors.
   */
  public PluginRegistry() {
    this(DeviceSelectorEvaluator.NONE);
  }

  /** KAI's plugins, with DRA device selectors evaluated by {@code selectors}. */
  public PluginRegistry(DeviceSelectorEvaluator selectors) {
    requireNonNull(selectors, "selectors is null");
    ImmutableMap.Builder<String, Entry> b = ImmutableMap.builder();
    built(b, PredicatesPlugin.NAME, 1900, args -> new PredicatesPlugin());
    // one for every cycle: it keeps which published devices are GPUs while the slices stay
    this.publishedGpus = new PublishedGpuDevices(selectors);
    built(b, ProportionPlugin.NAME, 1800, args -> proportion(args, publishedGpus));
    built(b, PriorityPlugin.NAME, 1700, args -> new PriorityPlugin());
    built(b, NodeAvailabilityPlugin.NAME, 1600, args -> new NodeAvailabilityPlugin());
    built(b, ResourceTypePlugin.NAME, 1500, args -> new ResourceTypePlugin());
    missing(b, "podaffinity", 1400, true);
    built(b, ElasticPlugin.NAME, 1300, args -> new ElasticPlugin());
    missing(b, "kubeflow", 1200, true);
    missing(b, "ray", 1100, true);
    built(b, SubGroupOrderPlugin.NAME, 1000, args -> new SubGroupOrderPlugin());
    built(b, TaskOrderPlugin.NAME, 900, args -> new TaskOrderPlugin());
    missing(b, "nominatednode", 800, true);
    built(b, DynamicResourcesPlugin.NAME, 700, args -> new DynamicResourcesPlugin(selectors));
    built(b, MinRuntimePlugin.NAME, 600, PluginRegistry::minRuntime);
    built(b, TopologyPlugin.NAME, 500, args -> new TopologyPlugin());
    missing(b, "snapshot", 400, true);
    built(b, NodeLocalGreedyPlugin.NAME, 360, args -> new NodeLocalGreedyPlugin());
    built(b, MultiNodeGangPlugin.NAME, 350, args -> new MultiNodeGangPlugin());
    built(b, GpuPackPlugin.NAME, 300, args -> new GpuPackPlugin());
    built(b, GpuSpreadPlugin.NAME, 300, args -> new GpuSpreadPlugin());
    b.put(
        NodePlacementPlugin.NAME,
        new Entry(
            NodePlacementPlugin.NAME,
            200,
            true,
            Optional.of(
                (args, placement) -> new NodePlacementPlugin(nodePlacement(args, placement)))));
    // Gantry's own placement strategies, on when placement names them
    b.put(
        FragmentationAwarePlugin.NAME,
        new Entry(
            FragmentationAwarePlugin.NAME,
            200,
            false,
            Optional.of(PluginRegistry::fragmentationAware)));
    policy(b, RandomFitPlugin.NAME, RandomFitPlugin::new);
    policy(b, BestFitPlugin.NAME, BestFitPlugin::new);
    policy(b, DotProductPlugin.NAME, DotProductPlugin::new);
    policy(b, GpuPackingPlugin.NAME, GpuPackingPlugin::new);
    // Gantry's own: KAI has no interconnect domains inside a node
    built(b, GpuDomainPlugin.NAME, 150, args -> new GpuDomainPlugin());
    built(b, GpuSharingOrderPlugin.NAME, 100, args -> new GpuSharingOrderPlugin());
    missing(b, "numa", 0, false);
    missing(b, "reflectjoborder", 0, false);
    this.entries = b.buildOrThrow();
  }

  /**
   * The learnt mix's memory ({@code halfLife}, above zero) and the power of a pod's GPU ask that
   * weighs it ({@code askExponent}: 0 counts pods, 1 counts GPU).
   */
  private static Plugin fragmentationAware(PluginArguments args, Placement placement) {
    Duration halfLife = args.duration(FragmentationAwarePlugin.DEFAULT_HALF_LIFE, "halfLife");
    if (halfLife.isNegative() || halfLife.isZero()) {
      throw args.fail(
          "halfLife", "expected a duration above 0s, got \"" + args.string("", "halfLife") + "\"");
    }
    double exponent = args.number(FragmentationAwarePlugin.DEFAULT_ASK_EXPONENT, "askExponent");
    if (!(exponent >= 0 && exponent <= 1)) {
      throw args.fail("askExponent", "expected a number from 0 to 1, got " + exponent);
    }
    return new FragmentationAwarePlugin(placement, halfLife, exponent);
  }

  /**
   * The DRA GPU devices ResourceSlices publish, as the proportion plugin's capacity counts them;
   * the cycle's node outcomes count each node's own from the same instance.
   */
  public PublishedGpuDevices publishedGpuDevices() {
    return publishedGpus;
  }

  public ImmutableList<String> knownNames() {
    return entries.keySet().asList();
  }

  /**
   * The enabled plugins, highest priority first, with {@code settings} merged onto KAI's defaults
   * for the given placement strategy. Throws {@link ConfigException} naming the plugin.
   */
  public PluginHooks build(Map<String, PluginSetting> settings, Placement placement) {
    for (String name : settings.keySet()) {
      if (!entries.containsKey(name)) {
        throw new ConfigException(
            "plugins." + name,
            "unknown plugin; known plugins: " + String.join(", ", entries.keySet()));
      }
    }
    List<Entry> enabled = new ArrayList<>();
    for (Entry e : entries.values()) {
      PluginSetting setting = settings.get(e.name());
      boolean on =
          (setting != null && setting.enabled().isPresent())
              ? setting.enabled().get()
              : enabledByDefault(e, placement);
      boolean configured = setting != null && !setting.arguments().isEmpty();
      boolean explicitlyOn = setting != null && setting.enabled().orElse(false);
      if (e.factory().isEmpty()) {
        if (explicitlyOn || configured) {
          throw new ConfigException(
              "plugins." + e.name(), "plugin " + e.name() + " is not supported yet");
        }
        continue;
      }
      if (on) {
        enabled.add(e);
      }
    }
    enabled.sort(Comparator.comparingInt(Entry::priority).reversed());
    List<Plugin> plugins = new ArrayList<>();
    for (Entry e : enabled) {
      PluginSetting setting = settings.get(e.name());
      PluginArguments args =
          new PluginArguments(e.name(), setting == null ? Map.of() : setting.arguments());
      Plugin plugin = e.factory().orElseThrow().apply(args, placement);
      args.requireAllUsed();
      plugins.add(plugin);
    }
    return new PluginHooks(plugins);
  }

  /**
   * KAI's rule for its own strategies (§2.5); a strategy of Gantry's places shared tasks by its own
   * node score, so KAI's shared-GPU node tier is off with it. Fragmentation-aware chooses the
   * device itself; the other strategies keep KAI's packing device order.
   */
  private static boolean enabledByDefault(Entry e, Placement placement) {
    PlacementStrategy gpu = placement.gpu();
    boolean gpuSpread = gpu == PlacementStrategy.SPREAD;
    return switch (e.name()) {
      case GpuPackPlugin.NAME -> !gpuSpread && gpu != PlacementStrategy.FRAGMENTATION_AWARE;
      case GpuSharingOrderPlugin.NAME -> gpu == PlacementStrategy.BINPACK;
      case GpuSpreadPlugin.NAME -> gpuSpread;
      case FragmentationAwarePlugin.NAME -> uses(placement, PlacementStrategy.FRAGMENTATION_AWARE);
      case RandomFitPlugin.NAME -> uses(placement, PlacementStrategy.RANDOM);
      case BestFitPlugin.NAME -> uses(placement, PlacementStrategy.BEST_FIT);
      case DotProductPlugin.NAME -> uses(placement, PlacementStrategy.DOT_PRODUCT);
      case GpuPackingPlugin.NAME -> uses(placement, PlacementStrategy.GPU_PACKING);
      default -> e.enabledByDefault();
    };
  }

  private static boolean uses(Placement placement, PlacementStrategy strategy) {
    return placement.gpu() == strategy || placement.cpu() == strategy;
  }

  private static void policy(
      ImmutableMap.Builder<String, Entry> b, String name, Function<Placement, Plugin> factory) {
    b.put(
        name,
        new Entry(name, 200, false, Optional.of((args, placement) -> factory.apply(placement))));
  }

  private static Plugin proportion(PluginArguments args, PublishedGpuDevices publishedGpus) {
    double k = args.number(ProportionArgs.DEFAULTS.kValue(), "kValue");
    double multiplier =
        args.number(
            ProportionArgs.DEFAULTS.reclaimerSaturationMultiplier(),
            "relcaimerSaturationMultiplier",
            "reclaimerSaturationMultiplier",
            "reclaimerUtilizationMultiplier");
    try {
      return new ProportionPlugin(new ProportionArgs(k, multiplier), publishedGpus);
    } catch (IllegalArgumentException e) {
      throw new ConfigException("plugins." + ProportionPlugin.NAME + ".arguments", e.getMessage());
    }
  }

  private static Plugin minRuntime(PluginArguments args) {
    Duration preempt = args.duration(Duration.ZERO, "defaultPreemptMinRuntime");
    Duration reclaim = args.duration(Duration.ZERO, "defaultReclaimMinRuntime");
    MinRuntimeArgs.ResolveMethod method;
    try {
      method = MinRuntimeArgs.ResolveMethod.parse(args.string("lca", "reclaimResolveMethod"));
    } catch (IllegalArgumentException e) {
      throw args.fail("reclaimResolveMethod", e.getMessage());
    }
    try {
      return new MinRuntimePlugin(new MinRuntimeArgs(preempt, reclaim, method));
    } catch (IllegalArgumentException e) {
      throw new ConfigException("plugins." + MinRuntimePlugin.NAME + ".arguments", e.getMessage());
    }
  }

  private static Placement nodePlacement(PluginArguments args, Placement defaults) {
    return new Placement(
        strategy(args, "gpu", defaults.gpu()), strategy(args, "cpu", defaults.cpu()));
  }

  private static PlacementStrategy strategy(
      PluginArguments args, String key, PlacementStrategy fallback) {
    try {
      return PlacementStrategy.parse(args.string(fallback.k8sName(), key));
    } catch (IllegalArgumentException e) {
      throw args.fail(key, e.getMessage());
    }
  }

  private static void built(
      ImmutableMap.Builder<String, Entry> b,
      String name,
      int priority,
      Function<PluginArguments, Plugin> factory) {
    b.put(
        name,
        new Entry(name, priority, true, Optional.of((args, placement) -> factory.apply(args))));
  }

  private static void missing(
      ImmutableMap.Builder<String, Entry> b, String name, int priority, boolean enabledByDefault) {
    b.put(name, new Entry(name, priority, enabledByDefault, Optional.empty()));
  }
}
