package io.gantry.scheduler.sim.spec;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.kubemodel.read.ScenarioException;
import java.io.IOException;
import java.io.InputStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * KAI's documented example manifests (copied in {@code src/test/resources/kai-manifests}), each
 * submitted as a workload: the PodGroups KAI's podgrouper makes of them and their pods.
 */
class KaiManifestWorkloadsTest {
  record Case(String file, String jobs) {
    @Override
    public String toString() {
      return file;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "batch-pytorch-job.yaml",
            """
            default/pg-pytorch-dist-mnist-nccl-2ac6a8d5-9155-3c51-a816-579a876d895e minMember=3 queue=default-queue class=train
              subGroup master minMember=1
              subGroup worker minMember=2
              pod pytorch-dist-mnist-nccl-master-0 [master] {nvidia.com/gpu=1}
              pod pytorch-dist-mnist-nccl-worker-0 [worker] {nvidia.com/gpu=1}
              pod pytorch-dist-mnist-nccl-worker-1 [worker] {nvidia.com/gpu=1}
            """),
        new Case(
            "elastic-pytorch-elastic.yaml",
            """
            default/pg-elastic-example-imagenet-3f84fb0b-f97e-3aa2-89b5-1e9be9183dff minMember=1 queue=default-queue class=train
              subGroup worker minMember=1
              pod elastic-example-imagenet-worker-0 [worker] {cpu=4000}
              pod elastic-example-imagenet-worker-1 [worker] {cpu=4000}
            """),
        new Case(
            "batch-batch-job.yaml",
            """
            default/pg-batch-job-fcaee65d-851d-315f-8a1f-dc1dc3645fed minMember=1 queue=default-queue class=train
              pod batch-job-0 {nvidia.com/gpu=1}
              pod batch-job-1 {nvidia.com/gpu=1}
            """),
        new Case(
            "batch-batch-job-min-member.yaml",
            """
            default/pg-batch-job-min-member-73e9765d-9b1f-3d00-a885-9fb261402625 minMember=2 queue=default-queue class=train
              pod batch-job-min-member-0 {nvidia.com/gpu=1}
              pod batch-job-min-member-1 {nvidia.com/gpu=1}
              pod batch-job-min-member-2 {nvidia.com/gpu=1}
              pod batch-job-min-member-3 {nvidia.com/gpu=1}
              pod batch-job-min-member-4 {nvidia.com/gpu=1}
              pod batch-job-min-member-5 {nvidia.com/gpu=1}
            """),
        new Case(
            "quickstart-pods-gpu-pod.yaml",
            """
            default/pg-gpu-pod-3aebc22a-0017-34fc-9cb7-3e2c621ccac4 minMember=1 queue=default-queue class=train
              pod gpu-pod {nvidia.com/gpu=1}
            """),
        new Case(
            "gpu-sharing-gpu-sharing-init-container.yaml",
            """
            default/pg-gpu-sharing-init-container-6f8fe0d7-1acd-3f43-acbc-05932fd73595 minMember=1 queue=default-queue class=train
              pod gpu-sharing-init-container {} gpu-fraction=0.5
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void becomesPodGroups(Case c) throws IOException, ScenarioException {
    String manifest;
    try (InputStream in = getClass().getResourceAsStream("/kai-manifests/" + c.file())) {
      assertThat(in).as("fixture " + c.file()).isNotNull();
      manifest = new String(in.readAllBytes(), UTF_8);
    }

    ScenarioSpec spec = ScenarioLoader.parse(c.file(), WorkloadText.scenario(manifest));

    assertThat(WorkloadText.of(spec.jobs())).isEqualTo(c.jobs());
  }
}
