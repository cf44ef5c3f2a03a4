package io.gantry.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ApiRequestTallyTest {
  @Test
  void namesTheResourceAndSubresourceWithoutNamesOrNamespaces() {
    assertThat(ApiRequestTally.resource("/api/v1/namespaces/bench/pods/p-1/binding"))
        .isEqualTo("pods/binding");
    assertThat(ApiRequestTally.resource("/api/v1/namespaces/bench/pods/p-1")).isEqualTo("pods");
    assertThat(ApiRequestTally.resource("/api/v1/pods")).isEqualTo("pods");
    assertThat(ApiRequestTally.resource("/api/v1/nodes")).isEqualTo("nodes");
    assertThat(ApiRequestTally.resource("/api/v1/namespaces/bench/events")).isEqualTo("events");
    assertThat(
            ApiRequestTally.resource(
                "/apis/scheduling.run.ai/v2alpha2/namespaces/bench/podgroups/g/status"))
        .isEqualTo("podgroups/status");
    assertThat(ApiRequestTally.resource("/apis/scheduling.run.ai/v2/queues/team-0/status"))
        .isEqualTo("queues/status");
    assertThat(ApiRequestTally.resource("/api/v1/namespaces")).isEqualTo("namespaces");
    assertThat(ApiRequestTally.resource("/apis")).isEqualTo("/apis");
  }
}
