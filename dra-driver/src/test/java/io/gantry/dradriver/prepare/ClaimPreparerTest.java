package io.gantry.dradriver.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gantry.dradriver.cdi.CdiSpecFiles;
import io.gantry.dradriver.devices.CurrentDevices;
import io.gantry.dradriver.devices.SliceDevices;
import io.gantry.dradriver.metrics.DraDriverMetrics;
import io.gantry.dradriver.testing.Claims;
import io.gantry.dradriver.testing.HgxH100;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.nodecommon.kube.ApiClients;
import io.kubernetes.client.openapi.apis.ResourceV1Api;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prepare and unprepare against claims in the fake API server and the HGX H100 node. */
class ClaimPreparerTest {
  private static final String NODE = "node-a";
  private static final String MPS_HALF =
      "{\"apiVersion\": \"gpu.gantry.io/v1\", \"kind\": \"GpuSharingConfig\","
          + " \"computeMode\": \"mps\", \"fraction\": 0.5}";

  @TempDir Path dir;

  private FakeKubeServer kube;
  private CurrentDevices devices;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final DraDriverMetrics metrics = new DraDriverMetrics(registry, NODE);

  @BeforeEach
  void start() throws Exception {
    kube = FakeKubeServer.start();
    devices = new CurrentDevices();
    devices.replace(
        SliceDevices.of(HgxH100.inventory(Files.createDirectories(dir.resolve("smi")))));
  }

  @AfterEach
  void stop() {
    kube.close();
  }

  private ClaimPreparer preparer() throws Exception {
    return new ClaimPreparer(
        NODE,
        devices,
        new ClaimReader(new ResourceV1Api(ApiClients.forUrl(kube.url()))),
        new CdiSpecFiles(dir.resolve("cdi")),
        Checkpoint.load(dir.resolve("plugin/checkpoint.json")),
        metrics);
  }

  private double preparedClaims() {
    return registry
        .get(DraDriverMetrics.PREFIX + "prepared.claims")
        .tag("node", NODE)
        .gauge()
        .value();
  }

  private double cdiSpecWrites(String result) {
    return registry
        .get(DraDriverMetrics.PREFIX + "cdi.spec.writes")
        .tags("node", NODE, "result", result)
        .counter()
        .count();
  }

  private Path specOf(ClaimRef ref) {
    return dir.resolve("cdi/k8s.gpu.gantry.io-claim_" + ref.uid() + ".json");
  }

  @Test
  void aWholeGpuIsPreparedAsACdiDeviceNamingItsUuid() throws Exception {
    ClaimRef ref = Claims.claim("c1").result("gpu", NODE, "gpu-3").create(kube.store());

    Map<String, ClaimOutcome> out = preparer().prepare(List.of(ref));

    assertThat(out)
        .containsExactly(
            Map.entry(
                ref.uid(),
                ClaimOutcome.prepared(
                    List.of(
                        new PreparedDevice(
                            List.of("gpu"),
                            NODE,
                            "gpu-3",
                            List.of("k8s.gpu.gantry.io/claim=" + ref.uid() + "-gpu-3"))))));
    assertThat(Files.readString(specOf(ref)))
        .isEqualTo(
            """
            {
              "cdiVersion" : "0.5.0",
              "kind" : "k8s.gpu.gantry.io/claim",
              "devices" : [ {
                "name" : "%s-gpu-3",
                "containerEdits" : {
                  "env" : [ "GPU_PORTION=1.00", "NVIDIA_VISIBLE_DEVICES=%s", "RUNAI_NUM_OF_GPUS=1" ]
                }
              } ]
            }
            """
                .formatted(ref.uid(), HgxH100.uuid(3)));
  }

  @Test
  void anMpsConfigurationGivesTheContractsLimitsAndThePipeDirectory() throws Exception {
    ClaimRef ref =
        Claims.claim("c1")
            .result("gpu", NODE, "gpu-0")
            .result("gpu", NODE, "gpu-1")
            .config("FromClaim", "gpu.gantry.io", MPS_HALF)
            .create(kube.store());

    preparer().prepare(List.of(ref));

    JsonNode spec = new ObjectMapper().readTree(specOf(ref).toFile());
    assertThat(spec.path("devices").findValuesAsText("name"))
        .containsExactly(ref.uid() + "-gpu-0", ref.uid() + "-gpu-1");
    for (JsonNode device : spec.path("devices")) {
      // 0.5 of 81559 MiB each, by the ordinal the container sees; one HAMi-core limit
      assertThat(device.path("containerEdits").path("env"))
          .extracting(JsonNode::asText)
          .containsExactly(
              "CUDA_DEVICE_MEMORY_LIMIT=40779m",
              "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50",
              "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=40779M,1=40779M",
              "CUDA_MPS_PIPE_DIRECTORY=/tmp/nvidia-mps",
              "GPU_PORTION=0.50",
              "NVIDIA_VISIBLE_DEVICES=" + HgxH100.uuid(0) + "," + HgxH100.uuid(1),
              "RUNAI_NUM_OF_GPUS=0.50");
      assertThat(device.path("containerEdits").path("mounts").toString())
          .isEqualTo(
              "[{\"hostPath\":\"/tmp/nvidia-mps\",\"containerPath\":\"/tmp/nvidia-mps\","
                  + "\"options\":[\"rw\",\"rbind\"]}]");
    }
  }

  @Test
  void anotherDriversConfigurationAndResultsAreLeftAlone() throws Exception {
    ClaimRef ref =
        Claims.claim("c1")
            .result("gpu", NODE, "gpu-2")
            .result("nic", "nic.example.com", NODE, "eth-0")
            .config("FromClass", "nic.example.com", "{\"anything\": true}")
            .create(kube.store());

    Map<String, ClaimOutcome> out = preparer().prepare(List.of(ref));

    assertThat(out.get(ref.uid()).error()).isEmpty();
    assertThat(out.get(ref.uid()).devices())
        .extracting(PreparedDevice::deviceName)
        .containsExactly("gpu-2");
  }

  @Test
  void eachClaimGetsItsOwnErrorAndTheGoodOnesArePrepared() throws Exception {
    ClaimRef good = Claims.claim("good").result("gpu", NODE, "gpu-0").create(kube.store());
    ClaimRef unknown = Claims.claim("unknown").result("gpu", NODE, "gpu-9").create(kube.store());
    ClaimRef otherNode =
        Claims.claim("elsewhere").result("gpu", "node-b", "gpu-0").create(kube.store());
    ClaimRef malformed =
        Claims.claim("malformed")
            .result("gpu", NODE, "gpu-1")
            .config(
                "FromClaim",
                "gpu.gantry.io",
                "{\"apiVersion\": \"gpu.gantry.io/v1\", \"kind\": \"GpuSharingConfig\","
                    + " \"computeMode\": \"mps\", \"fraction\": 2}")
            .create(kube.store());
    ClaimRef pending = Claims.claim("pending").unallocated().create(kube.store());
    ClaimRef missing = new ClaimRef("default", "uid-x", "missing");

    Map<String, ClaimOutcome> out =
        preparer().prepare(List.of(good, unknown, otherNode, malformed, pending, missing));

    assertThat(out.get(good.uid()).error()).isEmpty();
    assertThat(out.get(unknown.uid()).error())
        .hasValue(
            "ResourceClaim default/unknown: status.allocation.devices.results[0].device: unknown"
                + " device 'gpu-9' in pool 'node-a' (this node has gpu-0, gpu-1, gpu-2, gpu-3,"
                + " gpu-4, gpu-5, gpu-6, gpu-7)");
    assertThat(out.get(otherNode.uid()).error())
        .hasValue(
            "ResourceClaim default/elsewhere: status.allocation.devices.results[0].pool: 'node-b'"
                + " is not this node's pool 'node-a'");
    assertThat(out.get(malformed.uid()).error())
        .hasValue(
            "ResourceClaim default/malformed: status.allocation.devices.config[0].opaque.parameters"
                + ".fraction: expected a number in (0, 1], got 2");
    assertThat(out.get(pending.uid()).error())
        .hasValue("ResourceClaim default/pending: status.allocation: the claim is not allocated");
    assertThat(out.get("uid-x").error()).hasValue("ResourceClaim default/missing not found");
    assertThat(Files.exists(specOf(good))).isTrue();
    assertThat(Files.exists(specOf(unknown))).isFalse();
    assertThat(Files.exists(specOf(malformed))).isFalse();
    assertThat(cdiSpecWrites("ok")).isEqualTo(1.0);
    assertThat(preparedClaims()).isEqualTo(1.0);
  }

  @Test
  void aClaimReplacedUnderTheSameNameIsRefused() throws Exception {
    ClaimRef ref = Claims.claim("c1").result("gpu", NODE, "gpu-0").create(kube.store());
    ClaimRef stale = new ClaimRef("default", "old-uid", "c1");

    Map<String, ClaimOutcome> out = preparer().prepare(List.of(stale));

    assertThat(out.get("old-uid").error())
        .hasValue(
            "ResourceClaim default/c1: metadata.uid is "
                + ref.uid()
                + ", the kubelet asked for old-uid");
  }

  @Test
  void aPreparedClaimIsAnsweredFromTheCheckpointAfterARestartEvenWhenTheObjectIsGone()
      throws Exception {
    ClaimRef ref = Claims.claim("c1").result("gpu", NODE, "gpu-5").create(kube.store());
    Map<String, ClaimOutcome> first = preparer().prepare(List.of(ref));
    kube.store()
        .delete(
            ResourceKinds.RESOURCE_CLAIMS,
            "default",
            "c1",
            io.gantry.fakekube.DeleteOptions.DEFAULT);

    Map<String, ClaimOutcome> again = preparer().prepare(List.of(ref));

    assertThat(again).isEqualTo(first);
    assertThat(first.get(ref.uid()).error()).isEmpty();
    // the second answer came from the checkpoint: one spec written
    assertThat(cdiSpecWrites("ok")).isEqualTo(1.0);
    assertThat(preparedClaims()).isEqualTo(1.0);
  }

  @Test
  void unprepareRemovesTheSpecAndForgetsTheClaimAndAnUnknownClaimIsNoError() throws Exception {
    ClaimRef ref = Claims.claim("c1").result("gpu", NODE, "gpu-5").create(kube.store());
    preparer().prepare(List.of(ref));
    assertThat(preparedClaims()).isEqualTo(1.0);

    Map<String, ClaimOutcome> out = preparer().unprepare(List.of(ref));
    assertThat(preparedClaims()).isZero();
    Map<String, ClaimOutcome> again = preparer().unprepare(List.of(ref));

    assertThat(out).containsExactly(Map.entry(ref.uid(), ClaimOutcome.done()));
    assertThat(again).containsExactly(Map.entry(ref.uid(), ClaimOutcome.done()));
    assertThat(Files.exists(specOf(ref))).isFalse();
    assertThat(Checkpoint.load(dir.resolve("plugin/checkpoint.json")).get(ref.uid()))
        .isEqualTo(Optional.empty());
  }

  @Test
  void aCdiSpecThatCannotBeWrittenFailsTheClaimAndIsCounted() throws Exception {
    ClaimRef ref = Claims.claim("c1").result("gpu", NODE, "gpu-2").create(kube.store());
    Files.writeString(dir.resolve("cdi"), "a file where the CDI directory should be");

    Map<String, ClaimOutcome> out = preparer().prepare(List.of(ref));

    assertThat(out.get(ref.uid()).error())
        .hasValueSatisfying(
            e -> assertThat(e).startsWith("ResourceClaim default/c1: cannot write its CDI spec"));
    assertThat(cdiSpecWrites("failed")).isEqualTo(1.0);
    assertThat(preparedClaims()).isZero();
  }
}
