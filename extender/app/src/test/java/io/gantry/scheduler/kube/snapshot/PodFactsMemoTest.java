package io.gantry.scheduler.kube.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAllocation;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodFactsMemoTest {
  private static final String ON_GPU0 =
      "{\"version\":1,\"node\":\"n1\",\"deviceCount\":1,\"portion\":\"0.50\","
          + "\"computeMode\":\"time-slicing\",\"gpuGroups\":[\"n1-gpu0\"],\"devices\":[]}";
  private static final String ON_GPU1 = ON_GPU0.replace("n1-gpu0", "n1-gpu1");

  private final PodFactsMemo memo = new PodFactsMemo();

  @Test
  void aPodVersionIsConvertedOnce() {
    PodFacts first = memo.of(List.of(pod("a", "uid-a", "7"))).get(0);
    // a relist hands out a new object of the same version
    PodFacts again = memo.of(List.of(pod("a", "uid-a", "7"))).get(0);

    assertThat(again).isSameAs(first);
  }

  @Test
  void aBoundPodIsReadAgainUnderItsNewVersion() {
    memo.of(List.of(pod("a", "uid-a", "7")));
    V1Pod bound = allocated(pod("a", "uid-a", "8"), ON_GPU0);
    bound.getSpec().setNodeName("n1");

    PodFacts facts = memo.of(List.of(bound)).get(0);

    assertThat(facts.resourceVersion()).isEqualTo("8");
    assertThat(facts.nodeName()).contains("n1");
    assertThat(facts.allocation().map(GpuAllocation::gpuGroups))
        .contains(ImmutableList.of("n1-gpu0"));
  }

  @Test
  void aNewAnnotationUnderANewVersionIsRead() {
    memo.of(List.of(allocated(pod("a", "uid-a", "7"), ON_GPU0)));

    PodFacts facts = memo.of(List.of(allocated(pod("a", "uid-a", "8"), ON_GPU1))).get(0);

    assertThat(facts.allocation().map(GpuAllocation::gpuGroups))
        .contains(ImmutableList.of("n1-gpu1"));
    assertThat(facts.annotations()).containsEntry(GpuAllocation.ANNOTATION, ON_GPU1);
  }

  @Test
  void aPodWithoutResourceVersionIsReadEveryTime() {
    V1Pod pod = pod("a", "uid-a", null);
    memo.of(List.of(pod));
    allocated(pod, ON_GPU0);

    PodFacts facts = memo.of(List.of(pod)).get(0);

    assertThat(facts.allocation().map(GpuAllocation::gpuGroups))
        .contains(ImmutableList.of("n1-gpu0"));
  }

  @Test
  void theFactsOfDeletedPodsAreDropped() {
    memo.of(List.of(pod("a", "uid-a", "1"), pod("b", "uid-b", "2"), pod("c", "uid-c", "3")));

    List<PodFacts> left = memo.of(List.of(pod("b", "uid-b", "2")));

    assertThat(left).extracting(PodFacts::name).containsExactly("b");
    assertThat(memo.size()).isEqualTo(1);
    // were a's facts still kept, this object of the same version would be given them
    PodFacts a = memo.of(List.of(allocated(pod("a", "uid-a", "1"), ON_GPU1))).get(0);
    assertThat(a.allocation().map(GpuAllocation::gpuGroups)).contains(ImmutableList.of("n1-gpu1"));
  }

  @Test
  void aPodRecreatedUnderItsNameIsReadAgain() {
    memo.of(List.of(pod("a", "uid-a", "1")));

    PodFacts facts = memo.of(List.of(pod("a", "uid-a2", "1"))).get(0);

    assertThat(facts.uid()).isEqualTo("uid-a2");
    assertThat(memo.size()).isEqualTo(1);
  }

  @Test
  void podsWithoutUidsKeepTheirOwnFacts() {
    List<V1Pod> pods = List.of(pod("a", null, "1"), pod("b", null, "1"));
    memo.of(pods);

    assertThat(memo.of(pods)).extracting(PodFacts::name).containsExactly("a", "b");
  }

  @Test
  void factsComeInTheListsOrder() {
    List<V1Pod> pods = List.of(pod("c", "uid-c", "3"), pod("a", "uid-a", "1"));
    memo.of(pods);

    assertThat(memo.of(List.of(pods.get(1), pods.get(0))))
        .extracting(PodFacts::name)
        .containsExactly("a", "c");
  }

  @Test
  void theFactsAreThoseAConversionGives() {
    V1Pod pod = allocated(pod("a", "uid-a", "7"), ON_GPU0);
    memo.of(List.of(pod));

    assertThat(memo.of(List.of(pod)).get(0)).isEqualTo(PodFacts.of(pod));
  }

  private static V1Pod pod(String name, String uid, String resourceVersion) {
    return new V1Pod()
        .metadata(
            new V1ObjectMeta()
                .namespace("ns")
                .name(name)
                .uid(uid)
                .resourceVersion(resourceVersion)
                .annotations(new HashMap<>(Map.of(PodFacts.POD_GROUP_ANNOTATION, "pg"))))
        .spec(new V1PodSpec().schedulerName("gantry"));
  }

  private static V1Pod allocated(V1Pod pod, String allocation) {
    pod.getMetadata().getAnnotations().put(GpuAllocation.ANNOTATION, allocation);
    return pod;
  }
}
