package io.gantry.scheduler.kube.informers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiPodGroupSpec;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ManagedFieldsEntry;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompactModelsTest {
  /** A pod built as the API's JSON would give it, with every string its own instance. */
  private static V1Pod pod(String name) {
    Map<String, String> annotations = new LinkedHashMap<>();
    annotations.put(new String("pod-group-name"), new String("job-1"));
    annotations.put(new String("a-second"), new String("z"));
    Map<String, Quantity> requests = new LinkedHashMap<>();
    requests.put(new String("cpu"), new Quantity("1"));
    requests.put(new String("nvidia.com/gpu"), new Quantity("1"));
    return new V1Pod()
        .metadata(
            new V1ObjectMeta()
                .name(name)
                .namespace(new String("team-a"))
                .uid("uid-" + name)
                .annotations(annotations))
        .spec(
            new V1PodSpec()
                .schedulerName(new String("kai-scheduler"))
                .nodeName(new String("node-1"))
                .containers(
                    List.of(
                        new V1Container()
                            .name(new String("main"))
                            .resources(new V1ResourceRequirements().requests(requests)))));
  }

  @Test
  void repeatedValuesAreSharedAndEveryValueStaysEqual() {
    CompactModels compact = new CompactModels();
    V1Pod a = pod("a");
    V1Pod b = pod("b");
    String before = JSON.serialize(pod("b"));

    compact.pod(a);
    compact.pod(b);

    assertThat(JSON.serialize(b)).isEqualTo(before);
    assertThat(b.getMetadata().getNamespace()).isSameAs(a.getMetadata().getNamespace());
    assertThat(b.getSpec().getNodeName()).isSameAs(a.getSpec().getNodeName());
    assertThat(b.getSpec().getContainers().get(0).getName())
        .isSameAs(a.getSpec().getContainers().get(0).getName());
    Map<String, Quantity> requestsA =
        a.getSpec().getContainers().get(0).getResources().getRequests();
    Map<String, Quantity> requestsB =
        b.getSpec().getContainers().get(0).getResources().getRequests();
    assertThat(requestsB.get("cpu")).isSameAs(requestsA.get("cpu"));
    assertThat(b.getMetadata().getAnnotations().get("pod-group-name"))
        .isSameAs(a.getMetadata().getAnnotations().get("pod-group-name"));
    // order kept, as the API gave it
    assertThat(b.getMetadata().getAnnotations().keySet())
        .containsExactly("pod-group-name", "a-second");
    assertThat(b.getMetadata().getUid()).isEqualTo("uid-b");
  }

  @Test
  void managedFieldsAreDroppedAndTheRestOfTheMetadataKept() {
    V1Pod pod = pod("a");
    pod.getMetadata()
        .addManagedFieldsItem(
            new V1ManagedFieldsEntry()
                .manager("kubectl-client-side-apply")
                .operation("Update")
                .fieldsType("FieldsV1")
                .fieldsV1(Map.of("f:metadata", Map.of("f:labels", Map.of()))));
    String withoutManagedFields = JSON.serialize(pod("a"));

    V1Pod compacted = new CompactModels().pod(pod);

    assertThat(compacted.getMetadata().getManagedFields()).isNull();
    assertThat(JSON.serialize(compacted)).isEqualTo(withoutManagedFields);
  }

  @Test
  void emptyCollectionsAreSharedAndCannotBeFilled() {
    V1Pod pod = new CompactModels().pod(pod("a"));

    assertThat(pod.getSpec().getTolerations()).isEmpty();
    assertThat(pod.getSpec().getTolerations()).isSameAs(List.of());
    assertThat(pod.getMetadata().getLabels()).isSameAs(Map.of());
    assertThatThrownBy(() -> pod.getMetadata().getFinalizers().add("x"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aPodGroupKeepsItsFieldsWithItsQueueShared() {
    CompactModels compact = new CompactModels();
    KaiPodGroup first = podGroup("pg-1");
    KaiPodGroup second = podGroup("pg-2");

    KaiPodGroup a = compact.podGroup(first);
    KaiPodGroup b = compact.podGroup(second);

    assertThat(b).isEqualTo(second);
    assertThat(b.spec().queue()).isSameAs(a.spec().queue());
    assertThat(b.kind()).isSameAs(a.kind());
    assertThat(b.metadata().getName()).isEqualTo("pg-2");
  }

  private static KaiPodGroup podGroup(String name) {
    return new KaiPodGroup(
        new String("scheduling.run.ai/v2alpha2"),
        new String("PodGroup"),
        new V1ObjectMeta().name(name).namespace(new String("team-a")),
        new KaiPodGroupSpec(
            8, null, new String("team-a-queue"), null, null, null, null, null, null, null, null),
        null);
  }
}
