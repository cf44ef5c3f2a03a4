package io.gantry.kubemodel.cel;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.common.util.concurrent.UncheckedExecutionException;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import io.gantry.scheduler.api.dra.DeviceSelectorEvaluator;
import io.gantry.scheduler.api.dra.SelectorOutcome;
import io.gantry.scheduler.model.dra.DeviceAttribute;
import io.gantry.scheduler.model.dra.DraDevice;
import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;

/**
 * DRA device selectors in CEL (protocols.md §4.4, §7.3): the variable {@code device} is a {@code
 * kubernetes.DRADevice} with {@code driver}, {@code attributes}, {@code capacity} and {@code
 * allowMultipleAllocations}; attributes and capacity are maps from domain to maps from name to
 * value, names without a domain under the driver's, and an unknown domain reads as an empty map.
 * Versions are {@code Semver} values and capacities {@code Quantity} values, with Kubernetes'
 * semver and quantity functions. Expressions must yield a bool, are at most 10 Ki long, and may
 * evaluate at most {@link #MAX_COST} expression nodes. Compiled programs are cached by expression
 * (KAI's {@code maxCelCacheEntries}, 10); thread-safe.
 */
public final class CelDeviceSelectors implements DeviceSelectorEvaluator {
  /** Kubernetes' {@code CELSelectorExpressionMaxCost}, spent here one unit per evaluated node. */
  public static final long MAX_COST = 1_000_000;

  /** Kubernetes' {@code CELSelectorExpressionMaxLength}. */
  public static final int MAX_LENGTH = 10 * 1024;

  /** KAI's default {@code maxCelCacheEntries}. */
  public static final int CACHE_ENTRIES = 10;

  private static final OpaqueType SEMVER = OpaqueType.create("kubernetes.Semver");
  private static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");
  private static final CelType VALUES =
      MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, SimpleType.DYN));
  private static final ImmutableMap<String, CelType> DEVICE_FIELDS =
      ImmutableMap.of(
          "driver",
          SimpleType.STRING,
          "attributes",
          VALUES,
          "capacity",
          VALUES,
          "allowMultipleAllocations",
          SimpleType.BOOL);
  private static final StructType DEVICE =
      StructType.create(
          "kubernetes.DRADevice",
          ImmutableSet.copyOf(DEVICE_FIELDS.keySet()),
          name -> Optional.ofNullable(DEVICE_FIELDS.get(name)));

  /** A compiled expression, or why it did not compile. */
  private record Compiled(Optional<CelRuntime.Program> program, String error) {}

  /** Stops an evaluation that spent its cost. */
  private static final class CostExceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CostExceeded() {
      super("evaluation cost exceeds the limit of " + MAX_COST, null, false, false);
    }
  }

  private final Cel cel;
  private final Cache<String, Compiled> programs =
      CacheBuilder.newBuilder().maximumSize(CACHE_ENTRIES).build();

  public CelDeviceSelectors() {
    CelOptions options =
        CelOptions.current()
            .maxExpressionCodePointSize(MAX_LENGTH)
            .comprehensionMaxIterations((int) MAX_COST)
            .build();
    this.cel =
        CelFactory.legacyCelBuilder()
            .setOptions(options)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .setTypeProvider(
                new CelTypeProvider() {
                  @Override
                  public ImmutableCollection<CelType> types() {
                    return ImmutableList.of(DEVICE);
                  }

                  @Override
                  public Optional<CelType> findType(String name) {
                    return name.equals(DEVICE.name()) ? Optional.of(DEVICE) : Optional.empty();
                  }
                })
            .addVar("device", DEVICE)
            .addCompilerLibraries(
                CelExtensions.bindings(), CelExtensions.strings(), CelExtensions.encoders(options))
            .addRuntimeLibraries(CelExtensions.strings(), CelExtensions.encoders(options))
            .addFunctionDeclarations(KubernetesLibraries.declarations(SEMVER, QUANTITY))
            .addFunctionBindings(KubernetesLibraries.bindings())
            .setResultType(SimpleType.BOOL)
            .build();
  }

  @Override
  public SelectorOutcome evaluate(String expression, String driver, DraDevice device) {
    Compiled compiled = compiled(expression);
    if (compiled.program().isEmpty()) {
      return SelectorOutcome.error(compiled.error());
    }
    long[] cost = {0};
    try {
      Object result =
          compiled
              .program()
              .get()
              .trace(
                  ImmutableMap.of("device", deviceValue(driver, device)),
                  (expr, value) -> {
                    if (++cost[0] > MAX_COST) {
                      throw new CostExceeded();
                    }
                  });
      if (!(result instanceof Boolean b)) {
        return SelectorOutcome.error("expression did not yield a bool");
      }
      return SelectorOutcome.of(b);
    } catch (CelEvaluationException e) {
      // CEL names the position; the cause (a function refusing its argument, the cost limit) why
      String root = rootMessage(e);
      String message = e.getMessage();
      return SelectorOutcome.error(message.contains(root) ? message : message + ": " + root);
    }
  }

  private Compiled compiled(String expression) {
    try {
      return programs.get(expression, () -> compile(expression));
    } catch (ExecutionException | UncheckedExecutionException e) {
      return new Compiled(Optional.empty(), rootMessage(e));
    }
  }

  private Compiled compile(String expression)
      throws CelEvaluationException, CelValidationException {
    CelValidationResult result = cel.compile(expression);
    if (result.hasError()) {
      return new Compiled(Optional.empty(), "does not compile: " + result.getErrorString());
    }
    CelAbstractSyntaxTree ast = result.getAst();
    return new Compiled(Optional.of(cel.createProgram(ast)), "");
  }

  private static Map<String, Object> deviceValue(String driver, DraDevice device) {
    Map<String, Map<String, Object>> attributes = new LinkedHashMap<>();
    for (Map.Entry<String, DeviceAttribute> a : device.attributes().entrySet()) {
      QualifiedName name = QualifiedName.of(a.getKey(), driver);
      attributes
          .computeIfAbsent(name.domain(), d -> new LinkedHashMap<>())
          .put(name.id(), attributeValue(a.getValue()));
    }
    Map<String, Map<String, Object>> capacity = new LinkedHashMap<>();
    for (Map.Entry<String, String> c : device.capacity().entrySet()) {
      QualifiedName name = QualifiedName.of(c.getKey(), driver);
      capacity
          .computeIfAbsent(name.domain(), d -> new LinkedHashMap<>())
          .put(name.id(), CelQuantity.parse(c.getValue()));
    }
    return ImmutableMap.of(
        "driver",
        driver,
        "attributes",
        new Domains(attributes),
        "capacity",
        new Domains(capacity),
        "allowMultipleAllocations",
        false);
  }

  private static Object attributeValue(DeviceAttribute a) {
    return switch (a.type()) {
      case INT -> a.asLong();
      case BOOL -> a.asBoolean();
      case STRING -> a.value();
      case VERSION -> Semver.parse(a.value(), false);
    };
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }

  /** {@code <domain>/<id>}, or a bare id in the driver's domain. */
  private record QualifiedName(String domain, String id) {
    static QualifiedName of(String name, String driver) {
      int slash = name.lastIndexOf('/');
      return slash < 0
          ? new QualifiedName(driver, name)
          : new QualifiedName(name.substring(0, slash), name.substring(slash + 1));
    }
  }

  /** Domains to values; a domain the device lacks reads as an empty map, as in Kubernetes. */
  private static final class Domains extends AbstractMap<String, Map<String, Object>> {
    private final Map<String, Map<String, Object>> known;

    Domains(Map<String, Map<String, Object>> known) {
      this.known = known;
    }

    @Override
    public Set<Entry<String, Map<String, Object>>> entrySet() {
      return known.entrySet();
    }

    @Override
    public Map<String, Object> get(Object key) {
      Map<String, Object> values = known.get(key);
      return values == null ? ImmutableMap.of() : values;
    }

    @Override
    public boolean containsKey(Object key) {
      return true;
    }
  }
}
