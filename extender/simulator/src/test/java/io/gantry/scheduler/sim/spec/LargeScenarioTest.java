package io.gantry.scheduler.sim.spec;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.kubemodel.read.ScenarioException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot of a real cluster writes every node out, with the labels its kubelet and feature
 * discovery put there. 5,000 such nodes are more than SnakeYAML's default limit of 3,145,728 code
 * points, which the loader raises.
 */
class LargeScenarioTest {
  private static final int NODES = 5_000;
  private static final int LINES_PER_NODE = 22;
  private static final int SNAKEYAML_DEFAULT_CODE_POINT_LIMIT = 3 * 1024 * 1024;

  @TempDir Path dir;

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void aWrittenOutSnapshotOfFiveThousandNodesLoads() throws IOException, ScenarioException {
    String text = snapshot();
    assertThat(text.codePointCount(0, text.length()))
        .isGreaterThan(SNAKEYAML_DEFAULT_CODE_POINT_LIMIT);
    Path file = dir.resolve("snapshot.yaml");
    Files.writeString(file, text);

    ScenarioSpec scenario = ScenarioLoader.load(file);

    assertThat(scenario.nodes()).hasSize(NODES);
    NodeSpec last = scenario.nodes().get(NODES - 1);
    assertThat(last.name()).isEqualTo("gpu-node-04999");
    assertThat(last.labels()).containsEntry("kubernetes.io/hostname", "gpu-node-04999");
    // Four lines of header, then LINES_PER_NODE lines per node.
    assertThat(last.line()).isEqualTo(5 + (NODES - 1) * LINES_PER_NODE);
    assertThat(scenario.jobs().get(0).tasks().get(0).replicas()).isEqualTo(NODES);
  }

  private static String snapshot() {
    StringBuilder yaml =
        new StringBuilder(
            "apiVersion: gantry.io/v1alpha1\nkind: Scenario\nmetadata: {name: snapshot}\nnodes:\n");
    for (int i = 0; i < NODES; i++) {
      String name = String.format("gpu-node-%05d", i);
      yaml.append("  - name: ")
          .append(name)
          .append(
              """

                  gpus: 8
                  gpuMemory: 81920
                  gpuProduct: NVIDIA-H100-80GB-HBM3
                  cpu: "190"
                  memory: 2015Gi
                  maxPods: 110
                  labels:
                    kubernetes.io/hostname: %s
                    kubernetes.io/arch: amd64
                    kubernetes.io/os: linux
                    node.kubernetes.io/instance-type: p5.48xlarge
                    topology.kubernetes.io/region: us-east-1
                    topology.kubernetes.io/zone: us-east-1%s
                    nvidia.com/cuda.driver.major: "550"
                    nvidia.com/cuda.driver.minor: "54"
                    nvidia.com/gpu.family: hopper
                    nvidia.com/mig.capable: "true"
                    feature.node.kubernetes.io/kernel-version.full: 5.15.0-1051-aws
                    rack: rack-%d
                  taints:
                    - {key: nvidia.com/gpu, value: present, effect: NoSchedule}
              """
                  .formatted(name, "abc".charAt(i % 3), i / 32));
    }
    yaml.append(
        """
        queues:
          - name: q
        jobs:
          - name: sweep
            queue: q
            tasks: [{name: w, replicas: %d}]
        """
            .formatted(NODES));
    return yaml.toString();
  }
}
