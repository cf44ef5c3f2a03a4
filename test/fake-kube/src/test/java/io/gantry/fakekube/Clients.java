package io.gantry.fakekube;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.util.Watch;
import java.lang.reflect.Type;
import java.util.concurrent.TimeUnit;

/** client-java 27 set up against a fake server, as a Gantry component would be. */
final class Clients {
  static final Type POD_EVENTS = new TypeToken<Watch.Response<V1Pod>>() {}.getType();

  private Clients() {}

  /** An ApiClient on the fake's URL, with no read timeout so watches may idle. */
  static ApiClient apiClient(FakeKubeServer server) {
    return apiClient(server, 0);
  }

  /** An ApiClient whose reads give up after the seconds given (0: never), so a test cannot hang. */
  static ApiClient apiClient(FakeKubeServer server, int readTimeoutSeconds) {
    ApiClient client = new ApiClient().setBasePath(server.url());
    client.setHttpClient(
        client
            .getHttpClient()
            .newBuilder()
            .readTimeout(readTimeoutSeconds, TimeUnit.SECONDS)
            .build());
    return client;
  }

  static V1Pod pod(String namespace, String name) {
    return new V1Pod()
        .apiVersion("v1")
        .kind("Pod")
        .metadata(new V1ObjectMeta().name(name).namespace(namespace))
        .spec(new V1PodSpec().addContainersItem(new V1Container().name("main").image("busybox")));
  }
}
