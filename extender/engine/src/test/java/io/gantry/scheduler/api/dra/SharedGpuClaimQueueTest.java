package io.gantry.scheduler.api.dra;

import static io.gantry.scheduler.testing.Dra.claim;
import static io.gantry.scheduler.testing.Dra.exactly;
import static io.gantry.scheduler.testing.Dra.labelled;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.dra.AllocationMode;
import io.gantry.scheduler.model.dra.DeviceSubRequest;
import io.gantry.scheduler.model.dra.PodClaim;
import io.gantry.scheduler.model.dra.ResourceClaim;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SharedGpuClaimQueueTest {
  private static final PodClaim BY_NAME = new PodClaim("gpu", "c", false);
  private static final PodClaim FROM_TEMPLATE = new PodClaim("gpu", "c", true);
  private static final ResourceClaim GPU_CLAIM = claim("c", exactly("gpu", 1));
  private static final ResourceClaim NIC_CLAIM =
      claim(
          "c",
          new DeviceSubRequest(
              "nic",
              "nic.example.com",
              ImmutableList.of(),
              AllocationMode.EXACT_COUNT,
              1,
              ImmutableList.of()));

  record Case(String name, PodClaim podClaim, ResourceClaim claim, Optional<String> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "a shared GPU claim without the label",
            BY_NAME,
            GPU_CLAIM,
            Optional.of(
                "DRA claim c is a shared GPU claim but does not have a queue label"
                    + " (kai.scheduler/queue)")),
        new Case(
            "a shared GPU claim with an empty label",
            BY_NAME,
            labelled(GPU_CLAIM, Map.of("kai.scheduler/queue", "")),
            Optional.of(
                "DRA claim c is a shared GPU claim but does not have a queue label"
                    + " (kai.scheduler/queue)")),
        new Case(
            "a shared GPU claim of another queue",
            BY_NAME,
            labelled(GPU_CLAIM, Map.of("kai.scheduler/queue", "other")),
            Optional.of(
                "DRA claim c is a shared GPU claim with wrong queue label (expected queue: q,"
                    + " claim queue label: other)")),
        new Case(
            "a shared GPU claim of the job's queue",
            BY_NAME,
            labelled(GPU_CLAIM, Map.of("kai.scheduler/queue", "q")),
            Optional.empty()),
        new Case(
            "a claim from a template is not shared", FROM_TEMPLATE, GPU_CLAIM, Optional.empty()),
        new Case(
            "a claim of no GPU class is not a GPU claim", BY_NAME, NIC_CLAIM, Optional.empty()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void checksTheQueueLabelOfSharedGpuClaims(Case c) {
    assertThat(SharedGpuClaimQueue.violation(c.podClaim(), c.claim(), "q")).isEqualTo(c.expected());
  }
}
