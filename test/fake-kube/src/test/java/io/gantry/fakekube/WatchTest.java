package io.gantry.fakekube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.Watch;
import io.kubernetes.client.util.Watchable;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.dynamic.Dynamics;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Watches over chunked HTTP, read by client-java's Watch as a Gantry informer would. */
class WatchTest {
  private FakeKubeServer kube = FakeKubeServer.start();
  private ApiClient client = Clients.apiClient(kube, 10);
  private CoreV1Api core = new CoreV1Api(client);

  @AfterEach
  void stop() {
    kube.close();
  }

  private void restart(FakeKubeConfig config) {
    kube.close();
    kube = FakeKubeServer.start(config);
    client = Clients.apiClient(kube, 10);
    core = new CoreV1Api(client);
  }

  private Watch<V1Pod> watchPods(String resourceVersion) throws ApiException {
    return Watch.createWatch(
        client,
        core.listNamespacedPod("default")
            .watch(true)
            .resourceVersion(resourceVersion)
            .buildCall(null),
        Clients.POD_EVENTS);
  }

  private void createPod(String name) throws ApiException {
    core.createNamespacedPod("default", Clients.pod("default", name)).execute();
  }

  private void label(String name, String key, String value) {
    ObjectNode pod = kube.store().get(ResourceKinds.PODS, "default", name).orElseThrow();
    pod.withObject("/metadata/labels").put(key, value);
    kube.store().update(ResourceKinds.PODS, "default", name, pod);
  }

  private static String describe(Watch.Response<V1Pod> event) {
    return event.type
        + " "
        + event.object.getMetadata().getName()
        + " "
        + event.object.getMetadata().getResourceVersion();
  }

  @Test
  void watchFromAResourceVersionReplaysLaterChangesInOrder() throws Exception {
    createPod("x");
    label("x", "a", "1");
    core.deleteNamespacedPod("x", "default").execute();
    createPod("y");

    try (Watch<V1Pod> watch = watchPods("1")) {
      assertThat(describe(watch.next())).isEqualTo("MODIFIED x 2");
      assertThat(describe(watch.next())).isEqualTo("DELETED x 3");
      assertThat(describe(watch.next())).isEqualTo("ADDED y 4");
    }
  }

  @Test
  void watchWithoutResourceVersionStartsWithTheCurrentObjectsAsAdded() throws Exception {
    createPod("a");
    createPod("b");

    try (Watch<V1Pod> watch = watchPods(null)) {
      assertThat(describe(watch.next())).isEqualTo("ADDED a 1");
      assertThat(describe(watch.next())).isEqualTo("ADDED b 2");
      createPod("c");
      assertThat(describe(watch.next())).isEqualTo("ADDED c 3");
    }
  }

  @Test
  void watchFromACompactedResourceVersionGets410ExpiredAsAnErrorEvent() throws Exception {
    createPod("a");
    createPod("b");
    kube.compact();

    try (Watch<V1Pod> watch = watchPods("1")) {
      Watch.Response<V1Pod> event = watch.next();
      assertThat(event.type).isEqualTo("ERROR");
      assertThat(event.status.getCode()).isEqualTo(410);
      assertThat(event.status.getReason()).isEqualTo("Expired");
      assertThat(event.status.getMessage()).isEqualTo("too old resource version: 1 (3)");
      assertThat(watch.hasNext()).isFalse();
    }
    try (Watch<V1Pod> watch = watchPods("2")) {
      createPod("c");
      assertThat(describe(watch.next())).isEqualTo("ADDED c 3");
    }
  }

  @Test
  void historySizeIsTheCompactionWindow() throws Exception {
    restart(FakeKubeConfig.defaults().withHistorySize(2));
    for (String name : new String[] {"a", "b", "c", "d"}) {
      createPod(name);
    }

    try (Watch<V1Pod> watch = watchPods("1")) {
      assertThat(watch.next().status.getCode()).isEqualTo(410);
    }
    try (Watch<V1Pod> watch = watchPods("2")) {
      assertThat(describe(watch.next())).isEqualTo("ADDED c 3");
    }
  }

  @Test
  void timeoutSecondsEndsTheStreamCleanly() throws Exception {
    try (Watch<V1Pod> watch =
        Watch.createWatch(
            client,
            core.listNamespacedPod("default").watch(true).timeoutSeconds(1).buildCall(null),
            Clients.POD_EVENTS)) {
      assertThat(watch.hasNext()).isFalse();
    }
  }

  @Test
  void labelSelectorWatchSeesObjectsEnterAsAddedAndLeaveAsDeleted() throws Exception {
    try (Watch<V1Pod> watch =
        Watch.createWatch(
            client,
            core.listNamespacedPod("default").watch(true).labelSelector("app=web").buildCall(null),
            Clients.POD_EVENTS)) {
      createPod("p");
      label("p", "app", "web");
      label("p", "tier", "1");
      label("p", "app", "db");
      createPod("q");
      label("q", "app", "web");

      assertThat(describe(watch.next())).isEqualTo("ADDED p 2");
      assertThat(describe(watch.next())).isEqualTo("MODIFIED p 3");
      assertThat(describe(watch.next())).isEqualTo("DELETED p 4");
      assertThat(describe(watch.next())).isEqualTo("ADDED q 6");
    }
  }

  @Test
  void fieldSelectorWatchOnNodeNameSeesABoundPodAppear() throws Exception {
    createPod("p");
    try (Watch<V1Pod> watch =
        Watch.createWatch(
            client,
            core.listPodForAllNamespaces()
                .watch(true)
                .fieldSelector("spec.nodeName=n1")
                .resourceVersion("1")
                .buildCall(null),
            Clients.POD_EVENTS)) {
      kube.store()
          .bind(
              "default", "p", Json.parseObject("{\"target\":{\"kind\":\"Node\",\"name\":\"n1\"}}"));

      Watch.Response<V1Pod> event = watch.next();
      assertThat(describe(event)).isEqualTo("ADDED p 2");
      assertThat(event.object.getSpec().getNodeName()).isEqualTo("n1");
    }
  }

  @Test
  void podBookmarkIsShapedAsTheRealServersWithContainersNull() throws Exception {
    createPod("p");
    HttpResponse<Stream<String>> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        new Http(kube)
                            .uri(
                                "/api/v1/namespaces/default/pods?watch=true&resourceVersion=1&allowWatchBookmarks=true"))
                    .build(),
                HttpResponse.BodyHandlers.ofLines());
    Iterator<String> lines = response.body().iterator();

    kube.sendBookmarks();

    assertThat(response.headers().firstValue("Transfer-Encoding")).contains("chunked");
    assertThat(lines.next())
        .isEqualTo(
            "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\","
                + "\"metadata\":{\"resourceVersion\":\"1\"},\"spec\":{\"containers\":null},\"status\":{}}}");
    response.body().close();
  }

  @Test
  void strictClientJava27CannotReadAPodBookmark() throws Exception {
    try (Watch<V1Pod> watch =
        Watch.createWatch(
            client,
            core.listNamespacedPod("default").watch(true).allowWatchBookmarks(true).buildCall(null),
            Clients.POD_EVENTS)) {
      kube.sendBookmarks();

      assertThatThrownBy(watch::next)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Expected the field `containers` to be an array");
    }
  }

  @Test
  @SuppressWarnings("try") // the resource is only closed: that undoes the install
  void relaxedClientReadsBookmarksAndTheirResourceVersion() throws Exception {
    createPod("p");
    try (RelaxedJson relaxed = RelaxedJson.install();
        Watch<V1Pod> watch =
            Watch.createWatch(
                client,
                core.listNamespacedPod("default")
                    .watch(true)
                    .resourceVersion("1")
                    .allowWatchBookmarks(true)
                    .buildCall(null),
                Clients.POD_EVENTS)) {
      kube.store()
          .create(
              ResourceKinds.CONFIG_MAPS,
              "default",
              Json.parseObject("{\"metadata\":{\"name\":\"c\"}}"));
      kube.sendBookmarks();

      Watch.Response<V1Pod> event = watch.next();
      assertThat(event.type).isEqualTo("BOOKMARK");
      assertThat(event.object.getMetadata().getResourceVersion()).isEqualTo("2");
    }
  }

  @Test
  @SuppressWarnings("try") // the resource is only closed: that undoes the install
  void bookmarksComeEveryIntervalWhenAskedFor() throws Exception {
    restart(FakeKubeConfig.defaults().withBookmarkInterval(Duration.ofMillis(200)));
    try (RelaxedJson relaxed = RelaxedJson.install();
        Watch<V1Pod> watch =
            Watch.createWatch(
                client,
                core.listNamespacedPod("default")
                    .watch(true)
                    .allowWatchBookmarks(true)
                    .buildCall(null),
                Clients.POD_EVENTS)) {
      assertThat(watch.next().type).isEqualTo("BOOKMARK");
      assertThat(watch.next().type).isEqualTo("BOOKMARK");
    }
  }

  @Test
  void bookmarksSwitchedOffAreNeverSent() throws Exception {
    restart(FakeKubeConfig.defaults().withBookmarks(false));
    try (Watch<V1Pod> watch =
        Watch.createWatch(
            client,
            core.listNamespacedPod("default").watch(true).allowWatchBookmarks(true).buildCall(null),
            Clients.POD_EVENTS)) {
      kube.sendBookmarks();
      createPod("p");

      assertThat(watch.next().type).isEqualTo("ADDED");
    }
  }

  @Test
  @SuppressWarnings("try") // the resource is only closed: that undoes the install
  void sendInitialEventsEndsTheInitialAddedEventsWithAnAnnotatedBookmark() throws Exception {
    createPod("p");
    try (RelaxedJson relaxed = RelaxedJson.install();
        Watch<V1Pod> watch =
            Watch.createWatch(
                client,
                core.listNamespacedPod("default")
                    .watch(true)
                    .sendInitialEvents(true)
                    .resourceVersionMatch("NotOlderThan")
                    .allowWatchBookmarks(true)
                    .buildCall(null),
                Clients.POD_EVENTS)) {
      assertThat(describe(watch.next())).isEqualTo("ADDED p 1");
      Watch.Response<V1Pod> end = watch.next();
      assertThat(end.type).isEqualTo("BOOKMARK");
      assertThat(end.object.getMetadata().getAnnotations())
          .containsEntry("k8s.io/initial-events-end", "true");
    }
  }

  @Test
  void brokenWatchIsAnIoErrorForTheClient() throws Exception {
    try (Watch<V1Pod> watch = watchPods(null)) {
      assertThat(kube.openWatches()).isEqualTo(1);

      assertThat(kube.breakWatches()).isEqualTo(1);

      assertThatThrownBy(watch::hasNext)
          .isInstanceOf(RuntimeException.class)
          .hasMessage("IO Exception during hasNext method.");
    }
    createPod("still-serving");
  }

  @Test
  void closedWatchEndsLikeAServerSideTimeout() throws Exception {
    try (Watch<V1Pod> watch = watchPods(null)) {
      assertThat(kube.closeWatches()).isEqualTo(1);

      assertThat(watch.hasNext()).isFalse();
    }
    assertThat(kube.openWatches()).isZero();
  }

  @Test
  void customResourcesAreWatchedThroughDynamicKubernetesApi() throws ApiException, IOException {
    DynamicKubernetesApi podGroups =
        new DynamicKubernetesApi("scheduling.run.ai", "v2alpha2", "podgroups", client);
    Watchable<DynamicKubernetesObject> watch = podGroups.watch("team");
    try {
      podGroups
          .create(
              Dynamics.newFromJson(
                  "{\"apiVersion\":\"scheduling.run.ai/v2alpha2\",\"kind\":\"PodGroup\","
                      + "\"metadata\":{\"name\":\"job-1\",\"namespace\":\"team\"},\"spec\":{\"minMember\":2}}"))
          .throwsApiException();

      Watch.Response<DynamicKubernetesObject> event = watch.next();
      assertThat(event.type).isEqualTo("ADDED");
      assertThat(event.object.getMetadata().getName()).isEqualTo("job-1");
      assertThat(event.object.getRaw().getAsJsonObject("spec").get("minMember").getAsInt())
          .isEqualTo(2);
    } finally {
      watch.close();
    }
  }
}
