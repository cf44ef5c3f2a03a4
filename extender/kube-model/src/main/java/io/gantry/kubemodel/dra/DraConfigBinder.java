package io.gantry.kubemodel.dra;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.read.UniqueNames;
import io.gantry.scheduler.model.dra.ClaimConfig;
import io.gantry.scheduler.model.dra.DeviceRequest;
import io.gantry.scheduler.model.dra.DeviceSubRequest;
import io.gantry.scheduler.model.dra.OpaqueConfig;
import java.util.List;

/**
 * Binds the {@code config} lists of a DeviceClass's and a claim's spec: entries of {@code opaque}
 * configuration ({@code driver}, and {@code parameters} kept as JSON the scheduler never reads),
 * for a claim with the {@code requests} they apply to, each the name of a request of the claim or
 * {@code <request>/<subrequest>} of a {@code firstAvailable} request (Kubernetes' validation).
 */
final class DraConfigBinder {
  private static final ImmutableSet<String> CLASS_CONFIG_KEYS = ImmutableSet.of("opaque");
  private static final ImmutableSet<String> CLAIM_CONFIG_KEYS =
      ImmutableSet.of("requests", "opaque");
  private static final ImmutableSet<String> OPAQUE_KEYS = ImmutableSet.of("driver", "parameters");

  private DraConfigBinder() {}

  /** A DeviceClass's {@code spec.config}. */
  static ImmutableList<OpaqueConfig> classConfig(List<Field> items) throws ScenarioException {
    ImmutableList.Builder<OpaqueConfig> out = ImmutableList.builder();
    for (Field item : items) {
      out.add(opaque(item.asMap(CLASS_CONFIG_KEYS)));
    }
    return out.build();
  }

  /** A claim's {@code spec.devices.config}, whose request names must be among {@code requests}. */
  static ImmutableList<ClaimConfig> claimConfig(List<Field> items, List<DeviceRequest> requests)
      throws ScenarioException {
    ImmutableSet<String> known = requestNames(requests);
    ImmutableList.Builder<ClaimConfig> out = ImmutableList.builder();
    for (Field item : items) {
      MapReader config = item.asMap(CLAIM_CONFIG_KEYS);
      ImmutableList.Builder<String> names = ImmutableList.builder();
      UniqueNames unique = new UniqueNames("request");
      for (Field name : config.list("requests")) {
        String text = name.asNonEmptyString();
        if (!known.contains(text)) {
          throw name.error(
              "must be the name of a request in the claim or the name of a request and a"
                  + " subrequest separated by '/', got "
                  + Field.quote(text));
        }
        unique.add(name, text);
        names.add(text);
      }
      out.add(new ClaimConfig(names.build(), opaque(config)));
    }
    return out.build();
  }

  private static OpaqueConfig opaque(MapReader config) throws ScenarioException {
    MapReader opaque = config.required("opaque").asMap(OPAQUE_KEYS);
    return new OpaqueConfig(
        opaque.requiredString("driver"), OpaqueParameters.json(opaque.required("parameters")));
  }

  /** What a config may name: each request, and each subrequest as {@code <request>/<sub>}. */
  private static ImmutableSet<String> requestNames(List<DeviceRequest> requests) {
    ImmutableSet.Builder<String> names = ImmutableSet.builder();
    for (DeviceRequest r : requests) {
      names.add(r.name());
      for (DeviceSubRequest choice : r.firstAvailable()) {
        names.add(r.resultName(choice));
      }
    }
    return names.build();
  }
}
