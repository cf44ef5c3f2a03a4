package io.gantry.dradriver.prepare;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.dradriver.DriverNames;
import io.gantry.dradriver.cdi.CdiSpec;
import io.gantry.dradriver.cdi.CdiSpecFiles;
import io.gantry.dradriver.devices.CurrentDevices;
import io.gantry.dradriver.devices.SliceDevice;
import io.gantry.dradriver.metrics.DraDriverMetrics;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares and unprepares claims, one at a time, each on its own: a bad claim gets its error and
 * the others of the same call are still prepared.
 *
 * <p>Prepare: a claim in the checkpoint gets the recorded answer again (the kubelet repeats calls,
 * also after a driver restart). Otherwise the claim is read from the API server, each of its
 * results for this driver is checked against this node's pool and devices, its devices are grouped
 * by request and enforced as the request's opaque {@link SharingConfig} says (whole devices without
 * one), the CDI spec file is written and the answer recorded in the checkpoint before it is given.
 *
 * <p>Unprepare: removes the claim's CDI spec and forgets it; a claim this driver does not know (or
 * no longer knows) is already unprepared, which is no error. The claim object is not read: it may
 * be gone. Thread-safe: calls are serialised.
 *
 * <p>The metrics hear of each CDI spec written (or not) and of the claims prepared after each call.
 */
public final class ClaimPreparer {
  private static final Logger log = LoggerFactory.getLogger(ClaimPreparer.class);

  private final String node;
  private final CurrentDevices devices;
  private final ClaimReader claims;
  private final CdiSpecFiles cdi;
  private final Checkpoint checkpoint;
  private final DraDriverMetrics metrics;

  public ClaimPreparer(
      String node,
      CurrentDevices devices,
      ClaimReader claims,
      CdiSpecFiles cdi,
      Checkpoint checkpoint,
      DraDriverMetrics metrics) {
    this.node = requireNonNull(node, "node is null");
    this.devices = requireNonNull(devices, "devices is null");
    this.claims = requireNonNull(claims, "claims is null");
    this.cdi = requireNonNull(cdi, "cdi is null");
    this.checkpoint = requireNonNull(checkpoint, "checkpoint is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
    metrics.preparedClaims(checkpoint.size());
  }

  /** Prepares each claim; the answer has one outcome per claim UID. */
  public synchronized Map<String, ClaimOutcome> prepare(List<ClaimRef> refs) {
    Map<String, ClaimOutcome> out = new TreeMap<>();
    for (ClaimRef ref : refs) {
      try {
        out.put(ref.uid(), ClaimOutcome.prepared(prepareOne(ref)));
      } catch (ClaimException e) {
        log.warn("cannot prepare claim {} ({}): {}", ref.describe(), ref.uid(), e.getMessage());
        out.put(ref.uid(), ClaimOutcome.failed(e.getMessage()));
      }
    }
    metrics.preparedClaims(checkpoint.size());
    return out;
  }

  /** Unprepares each claim; the answer has one outcome per claim UID. */
  public synchronized Map<String, ClaimOutcome> unprepare(List<ClaimRef> refs) {
    Map<String, ClaimOutcome> out = new TreeMap<>();
    for (ClaimRef ref : refs) {
      try {
        boolean removed = cdi.delete(ref.uid());
        checkpoint.remove(ref.uid());
        log.info(
            "unprepared claim {} ({}){}", ref.describe(), ref.uid(), removed ? "" : ": no spec");
        out.put(ref.uid(), ClaimOutcome.done());
      } catch (IOException e) {
        String error = "cannot unprepare ResourceClaim " + ref.describe() + ": " + e.getMessage();
        log.warn(error);
        out.put(ref.uid(), ClaimOutcome.failed(error));
      }
    }
    metrics.preparedClaims(checkpoint.size());
    return out;
  }

  private List<PreparedDevice> prepareOne(ClaimRef ref) throws ClaimException {
    Optional<PreparedClaim> recorded = checkpoint.get(ref.uid());
    if (recorded.isPresent()) {
      return recorded.get().devices();
    }
    AllocatedClaim claim = claims.read(ref);
    String prefix = "ResourceClaim " + ref.describe() + ": ";
    if (claim.results().isEmpty()) {
      throw new ClaimException(
          prefix + "status.allocation.devices.results: no device of driver " + DriverNames.DRIVER);
    }
    Map<String, List<Resolved>> byRequest = new TreeMap<>();
    for (AllocatedClaim.Result result : claim.results()) {
      byRequest
          .computeIfAbsent(result.request(), r -> new ArrayList<>())
          .add(resolve(result, prefix));
    }
    ImmutableList.Builder<CdiSpec.Device> specDevices = ImmutableList.builder();
    List<PreparedDevice> prepared = new ArrayList<>();
    for (List<Resolved> request : byRequest.values()) {
      Optional<SharingConfig> sharing = sharingOf(claim, request.get(0).result(), prefix);
      CdiSpec.ContainerEdits edits =
          RequestEnforcement.edits(
              node, request.stream().map(Resolved::device).toList(), sharing, prefix);
      for (Resolved r : request) {
        CdiSpec.Device device = new CdiSpec.Device(ref.uid() + "-" + r.device().name(), edits);
        specDevices.add(device);
        prepared.add(
            new PreparedDevice(
                List.of(r.result().request()),
                r.result().pool(),
                r.result().device(),
                List.of(DriverNames.CDI_KIND + "=" + device.name())));
      }
    }
    try {
      writeSpec(ref.uid(), new CdiSpec(CdiSpec.VERSION, DriverNames.CDI_KIND, specDevices.build()));
      checkpoint.put(new PreparedClaim(ref.namespace(), ref.uid(), ref.name(), prepared));
    } catch (IOException e) {
      throw new ClaimException(
          prefix + "cannot write its CDI spec or checkpoint: " + e.getMessage(), e);
    }
    log.info("prepared claim {} ({}): {} device(s)", ref.describe(), ref.uid(), prepared.size());
    return prepared;
  }

  private void writeSpec(String claimUid, CdiSpec spec) throws IOException {
    try {
      cdi.write(claimUid, spec);
    } catch (IOException e) {
      metrics.cdiSpecWritten(false);
      throw e;
    }
    metrics.cdiSpecWritten(true);
  }

  private record Resolved(AllocatedClaim.Result result, SliceDevice device) {}

  private Resolved resolve(AllocatedClaim.Result result, String prefix) throws ClaimException {
    String field = "status.allocation.devices.results[" + result.position() + "]";
    if (!result.pool().equals(node)) {
      throw new ClaimException(
          prefix + field + ".pool: '" + result.pool() + "' is not this node's pool '" + node + "'");
    }
    Optional<SliceDevice> device = devices.named(result.device());
    if (device.isEmpty()) {
      throw new ClaimException(
          prefix
              + field
              + ".device: unknown device '"
              + result.device()
              + "' in pool '"
              + node
              + "' (this node has "
              + String.join(", ", devices.all().stream().map(SliceDevice::name).toList())
              + ")");
    }
    return new Resolved(result, device.get());
  }

  /**
   * The sharing of a request: the last of the driver's configurations that applies to it (the
   * allocation lists class configurations before claim configurations, so a claim's wins).
   */
  private static Optional<SharingConfig> sharingOf(
      AllocatedClaim claim, AllocatedClaim.Result result, String prefix) throws ClaimException {
    Optional<SharingConfig> chosen = Optional.empty();
    for (AllocatedClaim.Config config : claim.configs()) {
      if (config.appliesTo(result)) {
        try {
          chosen = Optional.of(SharingConfig.parse(config.parameters(), config.field()));
        } catch (ClaimException e) {
          throw new ClaimException(prefix + e.getMessage(), e);
        }
      }
    }
    return chosen;
  }
}
