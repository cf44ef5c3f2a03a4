package io.gantry.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.fakekube.StoreEvent;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BindClockTest {
  @Test
  void recordsTheNodeAndOnlyTheAnnotationsTheBindingSetOrChanged() throws Exception {
    BindClock clock = new BindClock(1);
    ObjectNode before = pod("p-1", "", Map.of("team", "a", "gpu", "old"));
    ObjectNode after = pod("p-1", "node-00003", Map.of("team", "a", "gpu", "new", "added", "x"));

    clock.accept(modified(after, before));

    BindClock.Bound b = clock.bound().get("p-1");
    assertThat(b.node()).isEqualTo("node-00003");
    assertThat(b.annotations())
        .containsExactlyInAnyOrderEntriesOf(Map.of("gpu", "new", "added", "x"));
    assertThat(clock.awaitAll(Duration.ZERO)).isTrue();
  }

  @Test
  void aPodAlreadyOnANodeOrStillUnboundIsNotABind() throws Exception {
    BindClock clock = new BindClock(1);

    clock.accept(
        modified(pod("p-1", "node-00001", Map.of("a", "2")), pod("p-1", "node-00001", Map.of())));
    clock.accept(modified(pod("p-2", "", Map.of("a", "1")), pod("p-2", "", Map.of())));

    assertThat(clock.bound()).isEmpty();
    assertThat(clock.awaitAll(Duration.ZERO)).isFalse();
  }

  @Test
  void theFirstBindOfAPodIsTheOneTimed() {
    BindClock clock = new BindClock(2);
    clock.accept(modified(pod("p-1", "node-00001", Map.of()), pod("p-1", "", Map.of())));
    long first = clock.bound().get("p-1").boundNanos();

    clock.accept(modified(pod("p-1", "node-00002", Map.of()), pod("p-1", "", Map.of())));

    assertThat(clock.bound().get("p-1").boundNanos()).isEqualTo(first);
    assertThat(clock.bound().get("p-1").node()).isEqualTo("node-00001");
    assertThat(clock.count()).isEqualTo(1);
  }

  private static StoreEvent modified(ObjectNode pod, ObjectNode previous) {
    return new StoreEvent(StoreEvent.MODIFIED, ResourceKinds.PODS, 2, pod, Optional.of(previous));
  }

  private static ObjectNode pod(String name, String node, Map<String, String> annotations) {
    ObjectNode pod = Json.object();
    ObjectNode meta = pod.putObject("metadata");
    meta.put("name", name);
    ObjectNode a = meta.putObject("annotations");
    annotations.forEach(a::put);
    pod.putObject("spec").put("nodeName", node);
    return pod;
  }
}
