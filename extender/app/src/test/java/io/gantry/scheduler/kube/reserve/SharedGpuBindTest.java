package io.gantry.scheduler.kube.reserve;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.fakekube.FakeKubeServer;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.kubemodel.config.GpuSharingSpec;
import io.gantry.kubemodel.kai.SharedGpuPods;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.write.KubeWriter;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The binder's guard against a fraction pod that the admission webhook never saw. */
class SharedGpuBindTest {
  @Test
  void aPodWithoutItsEnvironmentConfigMapFailsAtOnceAndNothingIsWritten() throws Exception {
    try (FakeKubeServer kube = FakeKubeServer.start()) {
      KubeWriter writer = new KubeWriter(KubeClients.forUrl(kube.url()));
      SharedGpuBind bind =
          new SharedGpuBind(
              writer,
              new GpuReserver(writer, GpuSharingSpec.DEFAULTS, Clock.systemUTC()),
              node -> null);
      V1Pod pod =
          new V1Pod()
              .metadata(
                  new V1ObjectMeta()
                      .namespace("ml")
                      .name("old")
                      .uid("uid-old")
                      .annotations(Map.of("gpu-fraction", "0.5")))
              .spec(new V1PodSpec());

      SharedGpuBind.Outcome outcome =
          bind.prepare(
              pod,
              GpuAllocation.shared(
                  "gpu-0",
                  GpuAmount.ofHundredths(50),
                  ComputeMode.TIME_SLICING,
                  List.of("gpu-0-gpu0")));

      assertThat(outcome).isEqualTo(new SharedGpuBind.Failed(SharedGpuPods.noEnvironmentMessage()));
      assertThat(kube.requests().writes())
          .as("no reservation pod, no ConfigMap, no patch")
          .isEmpty();
    }
  }
}
