package io.gantry.fakekube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * client-java's SharedInformerFactory against the fake: list, watch, and the reflector's recovery
 * paths when the API server ends a watch, the connection drops, or the history is compacted.
 */
class InformerTest {
  private static final String PODS = "/api/v1/namespaces/default/pods";
  private static final Duration WAIT = Duration.ofSeconds(15);

  private final FakeKubeServer kube = FakeKubeServer.start();
  private final ApiClient client = Clients.apiClient(kube);
  private final CoreV1Api core = new CoreV1Api(client);
  private final SharedInformerFactory factory = new SharedInformerFactory(client);
  private final List<String> seen = new CopyOnWriteArrayList<>();
  private SharedIndexInformer<V1Pod> informer;

  @BeforeEach
  void startInformer() {
    informer =
        factory.sharedIndexInformerFor(
            params ->
                core.listNamespacedPod("default")
                    .resourceVersion(params.resourceVersion)
                    .watch(params.watch)
                    .timeoutSeconds(params.timeoutSeconds)
                    .buildCall(null),
            V1Pod.class,
            V1PodList.class);
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(V1Pod pod) {
            seen.add("add " + pod.getMetadata().getName());
          }

          @Override
          public void onUpdate(V1Pod before, V1Pod after) {
            if (!before
                .getMetadata()
                .getResourceVersion()
                .equals(after.getMetadata().getResourceVersion())) {
              seen.add("update " + after.getMetadata().getName());
            }
          }

          @Override
          public void onDelete(V1Pod pod, boolean finalStateUnknown) {
            seen.add("delete " + pod.getMetadata().getName());
          }
        });
    factory.startAllRegisteredInformers();
    await().atMost(WAIT).until(informer::hasSynced);
    await()
        .atMost(WAIT)
        .until(() -> kube.requests().count("watch", PODS) == 1 && kube.openWatches() == 1);
  }

  @AfterEach
  void stop() {
    factory.stopAllRegisteredInformers();
    kube.close();
  }

  private void createPod(String name) throws ApiException {
    core.createNamespacedPod("default", Clients.pod("default", name)).execute();
  }

  @Test
  void informerSeesAddUpdateAndDeleteAndItsListerServesTheCache() throws ApiException {
    createPod("p");
    kube.store().bind("default", "p", Json.parseObject("{\"target\":{\"name\":\"n1\"}}"));
    Lister<V1Pod> lister = new Lister<>(informer.getIndexer());
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(lister.namespace("default").get("p").getSpec().getNodeName())
                    .isEqualTo("n1"));

    core.deleteNamespacedPod("p", "default").gracePeriodSeconds(0).execute();

    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(seen).containsExactly("add p", "update p", "delete p"));
    assertThat(lister.list()).isEmpty();
  }

  @Test
  void watchEndedByTheServerIsResumedFromTheLastResourceVersionWithoutRelisting()
      throws ApiException {
    createPod("a");
    await().atMost(WAIT).until(() -> seen.contains("add a"));

    kube.closeWatches();
    createPod("b");

    await().atMost(WAIT).until(() -> seen.contains("add b"));
    await().atMost(WAIT).until(() -> kube.requests().count("watch", PODS) == 2);
    assertThat(kube.requests().count("list", PODS)).isEqualTo(1);
    assertThat(seen).containsExactly("add a", "add b");
  }

  @Test
  void droppedWatchConnectionMakesTheReflectorRelist() throws ApiException {
    kube.breakWatches();
    createPod("a");

    await().atMost(WAIT).until(() -> kube.requests().count("list", PODS) == 2);
    await().atMost(WAIT).until(() -> seen.contains("add a"));
    assertThat(seen).containsExactly("add a");
  }

  @Test
  void watchRestartedAfterCompactionGets410AndTheInformerRelists() throws ApiException {
    createPod("a");
    await().atMost(WAIT).until(() -> seen.contains("add a"));
    // Another kind moves the global resourceVersion on; the pod informer's last one falls
    // behind the compaction, as happens to a quiet informer on a busy cluster.
    kube.store()
        .create(
            ResourceKinds.CONFIG_MAPS,
            "default",
            Json.parseObject("{\"metadata\":{\"name\":\"c\"}}"));
    kube.compact();

    kube.closeWatches();

    await().atMost(WAIT).until(() -> kube.requests().count("list", PODS) == 2);
    createPod("b");
    await().atMost(WAIT).until(() -> seen.contains("add b"));
    assertThat(seen).containsExactly("add a", "add b");
  }
}
