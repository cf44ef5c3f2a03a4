package io.gantry.kubemodel.dra;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.read.UniqueNames;
import io.gantry.kubemodel.selector.TolerationBinder;
import io.gantry.kubemodel.selector.TolerationSpec;
import io.gantry.scheduler.model.dra.AllocationMode;
import io.gantry.scheduler.model.dra.DeviceConstraint;
import io.gantry.scheduler.model.dra.DeviceRequest;
import io.gantry.scheduler.model.dra.DeviceSubRequest;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.model.placement.Toleration;
import java.util.List;
import java.util.Optional;

/**
 * Binds the {@code spec} of a {@code resource.k8s.io/v1} ResourceClaim or ResourceClaimTemplate:
 * its requests (one device class exactly, or the {@code firstAvailable} choices), constraints and
 * opaque configuration, with the limits the API server checks. {@link DraBinder} binds the other
 * DRA kinds and the DRA sections of a scenario.
 */
final class DraClaimBinder {
  private static final ImmutableSet<String> TEMPLATE_SPEC_KEYS = ImmutableSet.of("spec");
  private static final ImmutableSet<String> CLAIM_SPEC_KEYS = ImmutableSet.of("devices");
  private static final ImmutableSet<String> DEVICES_KEYS =
      ImmutableSet.of("requests", "constraints", "config");
  private static final ImmutableSet<String> REQUEST_KEYS =
      ImmutableSet.of("name", "exactly", "firstAvailable");
  private static final ImmutableSet<String> EXACT_KEYS =
      ImmutableSet.of("deviceClassName", "selectors", "allocationMode", "count", "tolerations");
  private static final ImmutableSet<String> SUB_REQUEST_KEYS =
      ImmutableSet.of(
          "name", "deviceClassName", "selectors", "allocationMode", "count", "tolerations");
  private static final ImmutableSet<String> CONSTRAINT_KEYS =
      ImmutableSet.of("requests", "matchAttribute");

  /** Kubernetes' {@code DeviceTolerationsMaxLength}. */
  private static final int MAX_TOLERATIONS = 16;

  /** Kubernetes' limit on the choices of a {@code firstAvailable} request. */
  private static final int MAX_SUB_REQUESTS = 8;

  private DraClaimBinder() {}

  /**
   * A ResourceClaim from the {@code spec} of its manifest, or of a ResourceClaimTemplate's (the
   * claim it stamps out, named like the template); with the object's labels, without status.
   */
  static ResourceClaim claim(
      String namespace,
      String name,
      ImmutableSortedMap<String, String> labels,
      Field specField,
      boolean template)
      throws ScenarioException {
    MapReader spec = specField.asMap(template ? TEMPLATE_SPEC_KEYS : CLAIM_SPEC_KEYS);
    if (template) {
      spec = spec.required("spec").asMap(CLAIM_SPEC_KEYS);
    }
    MapReader devices = spec.required("devices").asMap(DEVICES_KEYS);
    ImmutableList.Builder<DeviceRequest> requests = ImmutableList.builder();
    UniqueNames requestNames = new UniqueNames("request");
    for (Field r : devices.list("requests")) {
      requests.add(request(r, requestNames));
    }
    ImmutableList<DeviceRequest> bound = requests.build();
    return new ResourceClaim(
        namespace,
        name,
        labels,
        bound,
        constraints(devices.list("constraints"), bound),
        DraConfigBinder.claimConfig(devices.list("config"), bound),
        Optional.empty(),
        ImmutableList.of());
  }

  private static DeviceRequest request(Field item, UniqueNames names) throws ScenarioException {
    MapReader request = item.asMap(REQUEST_KEYS);
    String name = names.take(request.required("name"));
    Optional<Field> exactly = request.optional("exactly");
    Optional<Field> firstAvailable = request.optional("firstAvailable");
    if (exactly.isPresent() == firstAvailable.isPresent()) {
      throw item.error("exactly one of exactly and firstAvailable must be set");
    }
    if (exactly.isPresent()) {
      return DeviceRequest.exactly(name, subRequest(exactly.get(), name, EXACT_KEYS));
    }
    List<Field> choices = firstAvailable.get().asList();
    if (choices.isEmpty() || choices.size() > MAX_SUB_REQUESTS) {
      throw firstAvailable.get().error("must list 1 to " + MAX_SUB_REQUESTS + " subrequests");
    }
    ImmutableList.Builder<DeviceSubRequest> subs = ImmutableList.builder();
    UniqueNames subNames = new UniqueNames("subrequest");
    for (Field choice : choices) {
      String subName = subNames.take(choice.asMap(SUB_REQUEST_KEYS).required("name"));
      subs.add(subRequest(choice, subName, SUB_REQUEST_KEYS));
    }
    return DeviceRequest.firstAvailable(name, subs.build());
  }

  private static DeviceSubRequest subRequest(Field field, String name, ImmutableSet<String> keys)
      throws ScenarioException {
    MapReader sub = field.asMap(keys);
    AllocationMode mode =
        AllocationMode.parse(
            sub.optChoice("allocationMode", List.of("ExactCount", "All")).orElse("ExactCount"));
    Optional<Field> countField = sub.optional("count");
    if (mode == AllocationMode.ALL && countField.isPresent()) {
      throw countField.get().error("must not be set when allocationMode is All");
    }
    long count =
        countField.isPresent() ? countField.get().asLong(1) : (mode == AllocationMode.ALL ? 0 : 1);
    List<Field> tolerations = sub.list("tolerations");
    if (tolerations.size() > MAX_TOLERATIONS) {
      throw sub.required("tolerations")
          .error(
              "must list at most " + MAX_TOLERATIONS + " tolerations, got " + tolerations.size());
    }
    ImmutableList.Builder<Toleration> tolerated = ImmutableList.builder();
    for (TolerationSpec t :
        TolerationBinder.tolerations(tolerations, TolerationBinder.MANIFEST_TOLERATION_KEYS)) {
      tolerated.add(t.toToleration());
    }
    return new DeviceSubRequest(
        name,
        sub.requiredString("deviceClassName"),
        DraBinder.selectors(sub.list("selectors")),
        mode,
        count,
        tolerated.build());
  }

  private static ImmutableList<DeviceConstraint> constraints(
      List<Field> items, List<DeviceRequest> requests) throws ScenarioException {
    ImmutableList.Builder<DeviceConstraint> out = ImmutableList.builder();
    for (Field item : items) {
      MapReader constraint = item.asMap(CONSTRAINT_KEYS);
      List<String> names = constraint.stringList("requests");
      for (String n : names) {
        if (requests.stream().noneMatch(r -> r.name().equals(n))) {
          throw constraint.required("requests").error("unknown request " + Field.quote(n));
        }
      }
      out.add(
          new DeviceConstraint(
              ImmutableList.copyOf(names), constraint.requiredString("matchAttribute")));
    }
    return out.build();
  }
}
