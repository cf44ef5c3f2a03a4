package io.gantry.scheduler.kube.kaisnapshot;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.config.ConfigBinder;
import io.gantry.kubemodel.config.GpuSharingMode;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.api.config.QueueDepthPerAction;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.kube.config.NodePool;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.snapshot.SnapshotScope;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * KAI's scheduler configuration and parameters in a snapshot file, both ways. KAI writes them with
 * Go's field names ({@code Actions}, {@code Tiers[].Plugins[].Arguments}, {@code SchedulerName},
 * {@code PartitionParams.NodePoolLabelKey}); a key is also found spelled with a lower-case first
 * letter, as its YAML tag has it.
 *
 * <p>What has a meaning in Gantry: {@code Actions} (the actions Gantry has, in KAI's order of the
 * list), the {@code nodeplacement} plugin's {@code gpu} and {@code cpu} arguments (binpack or
 * spread), {@code QueueDepthPerAction}, and of the parameters {@code SchedulerName} and {@code
 * PartitionParams} (whose pods, nodes and PodGroups the snapshot is about). Everything else is
 * named in {@link Mapped#ignored()}: Gantry runs its own plugin set with its defaults.
 */
public final class KaiSchedulerConfig {
  // offline nothing is bound, so a fraction pod's container environment (what reservation-pods mode
  // checks before binding) does not matter; reservation pods are accounted for in either mode
  private static final GpuSharingMode OFFLINE_SHARING = GpuSharingMode.DEVICE_PLUGIN;

  /** KAI's default scheduler name, for a snapshot without parameters. */
  public static final String KAI_SCHEDULER_NAME = "kai-scheduler";

  static final String NODE_PLACEMENT = "nodeplacement";

  private static final ObjectMapper JSON = new ObjectMapper();

  private KaiSchedulerConfig() {}

  /**
   * The snapshot's settings in Gantry's terms, and what of KAI's was not taken over (each {@code
   * config.X} or {@code schedulerParams.X}).
   */
  public record Mapped(SnapshotScope scope, SchedulerConfig engine, ImmutableList<String> ignored) {
    public Mapped {
      requireNonNull(scope, "scope is null");
      requireNonNull(engine, "engine is null");
      requireNonNull(ignored, "ignored is null");
    }
  }

  /**
   * Maps KAI's {@code config} and {@code schedulerParams}.
   *
   * @throws ScenarioException naming the field of {@code source} when a value Gantry reads has the
   *     wrong type or an unknown value
   */
  public static Mapped fromKai(String source, ObjectNode config, ObjectNode params)
      throws ScenarioException {
    List<String> ignored = new ArrayList<>();
    List<String> actions = actions(source, config, ignored);
    Placement placement = placement(source, config, ignored);
    Map<String, Integer> depths = depths(source, config, actions, ignored);
    unknownKeys("config", config, List.of("actions", "tiers", "queueDepthPerAction"), ignored);
    SchedulerConfig engine;
    try {
      engine =
          SchedulerConfig.of(actions, Map.of(), placement)
              .withQueueDepthPerAction(QueueDepthPerAction.of(depths));
    } catch (ConfigException e) {
      throw new ScenarioException(source, 0, "config." + e.key(), e.problem());
    }
    SnapshotScope scope = scope(source, params);
    unknownKeys("schedulerParams", params, List.of("schedulerName", "partitionParams"), ignored);
    return new Mapped(scope, engine, ImmutableList.copyOf(ignored));
  }

  /** {@code Actions}: the ones Gantry has, in the file's order; KAI's default when none. */
  private static List<String> actions(String source, ObjectNode config, List<String> ignored)
      throws ScenarioException {
    List<String> actions = new ArrayList<>();
    Optional<JsonNode> node = get(config, "actions");
    if (node.isPresent()) {
      String text = text(source, "config.actions", node.get());
      for (String action : Splitter.on(',').trimResults().omitEmptyStrings().split(text)) {
        if (!ConfigBinder.ACTIONS.contains(action)) {
          ignored.add("config.actions " + action);
        } else if (!actions.contains(action)) {
          actions.add(action);
        }
      }
    }
    return actions.isEmpty() ? SchedulerConfig.DEFAULT_ACTIONS : actions;
  }

  /** The {@code nodeplacement} plugin's {@code gpu} and {@code cpu} arguments in the tiers. */
  private static Placement placement(String source, ObjectNode config, List<String> ignored)
      throws ScenarioException {
    PlacementStrategy gpu = Placement.DEFAULTS.gpu();
    PlacementStrategy cpu = Placement.DEFAULTS.cpu();
    TreeSet<String> otherPlugins = new TreeSet<>();
    JsonNode tiers = list(source, "config.tiers", get(config, "tiers"));
    for (int t = 0; t < tiers.size(); t++) {
      String tier = "config.tiers[" + t + "]";
      JsonNode plugins =
          list(
              source,
              tier + ".plugins",
              get(object(source, tier, Optional.of(tiers.get(t))), "plugins"));
      for (int p = 0; p < plugins.size(); p++) {
        String field = tier + ".plugins[" + p + "]";
        JsonNode plugin = object(source, field, Optional.of(plugins.get(p)));
        String name = text(source, field + ".name", get(plugin, "name").orElse(null));
        if (!name.equals(NODE_PLACEMENT)) {
          otherPlugins.add(name);
          continue;
        }
        JsonNode args = object(source, field + ".arguments", get(plugin, "arguments"));
        Iterator<Map.Entry<String, JsonNode>> it = args.fields();
        while (it.hasNext()) {
          Map.Entry<String, JsonNode> a = it.next();
          String argField = field + ".arguments." + a.getKey();
          switch (a.getKey()) {
            case "gpu" -> gpu = strategy(source, argField, a.getValue());
            case "cpu" -> cpu = strategy(source, argField, a.getValue());
            default -> ignored.add(argField);
          }
        }
      }
    }
    if (!otherPlugins.isEmpty()) {
      ignored.add("config.tiers plugins " + String.join(" ", otherPlugins));
    }
    return new Placement(gpu, cpu);
  }

  /** {@code QueueDepthPerAction}, of the actions that run. */
  private static Map<String, Integer> depths(
      String source, ObjectNode config, List<String> actions, List<String> ignored)
      throws ScenarioException {
    Map<String, Integer> depths = new TreeMap<>();
    JsonNode node =
        object(source, "config.queueDepthPerAction", get(config, "queueDepthPerAction"));
    Iterator<Map.Entry<String, JsonNode>> it = node.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> d = it.next();
      String field = "config.queueDepthPerAction." + d.getKey();
      if (!d.getValue().canConvertToInt()) {
        throw new ScenarioException(source, 0, field, "expected a whole number");
      }
      if (actions.contains(d.getKey())) {
        depths.put(d.getKey(), d.getValue().intValue());
      } else {
        ignored.add(field);
      }
    }
    return depths;
  }

  /** {@code SchedulerName} and {@code PartitionParams}: whose pods, nodes and PodGroups. */
  private static SnapshotScope scope(String source, ObjectNode params) throws ScenarioException {
    Optional<JsonNode> name = get(params, "schedulerName");
    String schedulerName =
        name.isPresent()
            ? text(source, "schedulerParams.SchedulerName", name.get())
            : KAI_SCHEDULER_NAME;
    Optional<JsonNode> partition = get(params, "partitionParams").filter(n -> !n.isNull());
    if (partition.isEmpty()) {
      return new SnapshotScope(schedulerName, NodePool.ALL, OFFLINE_SHARING);
    }
    String field = "schedulerParams.PartitionParams";
    JsonNode p = object(source, field, partition);
    JsonNode empty = JSON.getNodeFactory().textNode("");
    String key =
        text(source, field + ".NodePoolLabelKey", get(p, "nodePoolLabelKey").orElse(empty));
    String value =
        text(source, field + ".NodePoolLabelValue", get(p, "nodePoolLabelValue").orElse(empty));
    return new SnapshotScope(
        schedulerName,
        new NodePool(
            key.isEmpty() ? Optional.empty() : Optional.of(key),
            key.isEmpty() || value.isEmpty() ? Optional.empty() : Optional.of(value)),
        OFFLINE_SHARING);
  }

  /** Names each key of {@code object} that is not one of {@code read}, in either spelling. */
  private static void unknownKeys(
      String prefix, ObjectNode object, List<String> read, List<String> ignored) {
    Iterator<String> keys = object.fieldNames();
    while (keys.hasNext()) {
      String key = keys.next();
      if (!read.contains(lowerFirst(key))) {
        ignored.add(prefix + "." + key);
      }
    }
  }

  /** Gantry's configuration in KAI's words, with the plugin list KAI's defaults give. */
  public static ObjectNode toKaiConfig(SchedulerConfig engine) {
    ObjectNode out = JSON.createObjectNode();
    out.put("Actions", String.join(", ", engine.actions()));
    ArrayNode plugins = out.putArray("Tiers").addObject().putArray("Plugins");
    for (String name : KAI_PLUGINS) {
      ObjectNode p = plugins.addObject().put("Name", name);
      if (name.equals(NODE_PLACEMENT)) {
        p.putObject("Arguments")
            .put("gpu", engine.placement().gpu().k8sName())
            .put("cpu", engine.placement().cpu().k8sName());
      }
    }
    if (!engine.queueDepthPerAction().depths().isEmpty()) {
      ObjectNode depths = out.putObject("QueueDepthPerAction");
      engine.queueDepthPerAction().depths().forEach(depths::put);
    }
    return out;
  }

  /** The scheduler's name and node pool as KAI's {@code schedulerParams}. */
  public static ObjectNode toKaiParams(SchedulerSettings settings) {
    ObjectNode out = JSON.createObjectNode();
    out.put("SchedulerName", settings.schedulerName());
    out.putObject("PartitionParams")
        .put("NodePoolLabelKey", settings.nodePool().labelKey().orElse(""))
        .put("NodePoolLabelValue", settings.nodePool().labelValue().orElse(""));
    out.put(
        "MaxNumberConsolidationPreemptees",
        settings.engine().evictions().maxConsolidationPreemptees());
    out.put("AllowConsolidatingReclaim", settings.engine().evictions().allowConsolidatingReclaim());
    // Go's time.Duration: nanoseconds
    out.put(
        "GlobalDefaultStalenessGracePeriod",
        settings.engine().evictions().defaultStalenessGracePeriod().toNanos());
    out.put("SchedulePeriod", settings.schedulePeriod().toNanos());
    return out;
  }

  /** KAI's default plugins, in the order of their priority (kai-reference §2.5). */
  static final ImmutableList<String> KAI_PLUGINS =
      ImmutableList.of(
          "predicates",
          "proportion",
          "priority",
          "nodeavailability",
          "resourcetype",
          "podaffinity",
          "elastic",
          "kubeflow",
          "ray",
          "subgrouporder",
          "taskorder",
          "nominatednode",
          "dynamicresources",
          "minruntime",
          "topology",
          "snapshot",
          NODE_PLACEMENT);

  private static PlacementStrategy strategy(String source, String field, JsonNode value)
      throws ScenarioException {
    String text = text(source, field, value);
    try {
      return PlacementStrategy.parse(text);
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(source, 0, field, e.getMessage());
    }
  }

  private static String text(String source, String field, JsonNode node) throws ScenarioException {
    if (node == null || node.isNull()) {
      throw new ScenarioException(source, 0, field, "required");
    }
    if (!node.isTextual()) {
      throw new ScenarioException(source, 0, field, "expected a string");
    }
    return node.textValue();
  }

  /** The value of {@code key} or of {@code Key} (Go's field name). */
  private static Optional<JsonNode> get(JsonNode object, String key) {
    if (object == null || !object.isObject()) {
      return Optional.empty();
    }
    JsonNode v = object.get(key);
    if (v == null) {
      v = object.get(Character.toUpperCase(key.charAt(0)) + key.substring(1));
    }
    return Optional.ofNullable(v);
  }

  private static String lowerFirst(String key) {
    return key.isEmpty() ? key : Character.toLowerCase(key.charAt(0)) + key.substring(1);
  }

  /** {@code node} as a list (none when absent or null). */
  private static JsonNode list(String source, String field, Optional<JsonNode> node)
      throws ScenarioException {
    if (node.isEmpty() || node.get().isNull()) {
      return JSON.createArrayNode();
    }
    if (!node.get().isArray()) {
      throw new ScenarioException(source, 0, field, "expected a list");
    }
    return node.get();
  }

  /** {@code node} as an object (empty when absent or null). */
  private static JsonNode object(String source, String field, Optional<JsonNode> node)
      throws ScenarioException {
    if (node.isEmpty() || node.get().isNull()) {
      return JSON.createObjectNode();
    }
    if (!node.get().isObject()) {
      throw new ScenarioException(source, 0, field, "expected an object");
    }
    return node.get();
  }
}
