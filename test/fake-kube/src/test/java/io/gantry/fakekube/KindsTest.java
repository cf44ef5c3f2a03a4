package io.gantry.fakekube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.ApisApi;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreApi;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.apis.ResourceV1Api;
import io.kubernetes.client.openapi.apis.SchedulingApi;
import io.kubernetes.client.openapi.apis.SchedulingV1Api;
import io.kubernetes.client.openapi.apis.VersionApi;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1APIResource;
import io.kubernetes.client.openapi.models.V1Device;
import io.kubernetes.client.openapi.models.V1DeviceAttribute;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ResourcePool;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubernetes.client.openapi.models.V1ResourceSliceSpec;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The built-in kinds Gantry uses, through their typed client-java APIs, and discovery. */
class KindsTest {
  private final FakeKubeServer kube = FakeKubeServer.start();
  private final ApiClient client = Clients.apiClient(kube);
  private final CoreV1Api core = new CoreV1Api(client);

  @AfterEach
  void stop() {
    kube.close();
  }

  @Test
  void leaseIsAnOrdinaryResourceRenewedByOptimisticUpdates() throws ApiException {
    CoordinationV1Api coordination = new CoordinationV1Api(client);
    V1Lease lease =
        coordination
            .createNamespacedLease(
                "gantry",
                new V1Lease()
                    .metadata(new V1ObjectMeta().name("gantry-scheduler"))
                    .spec(new V1LeaseSpec().holderIdentity("a").leaseDurationSeconds(15)))
            .execute();

    lease.getSpec().renewTime(OffsetDateTime.now(ZoneOffset.UTC));
    V1Lease renewed =
        coordination.replaceNamespacedLease("gantry-scheduler", "gantry", lease).execute();
    lease.getSpec().holderIdentity("b");

    assertThat(renewed.getSpec().getRenewTime()).isNotNull();
    assertThatThrownBy(
            () ->
                coordination.replaceNamespacedLease("gantry-scheduler", "gantry", lease).execute())
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(409));
  }

  @Test
  void eventsAreOrdinaryResourcesInCoreV1AndEventsV1() throws ApiException {
    V1ObjectReference pod = new V1ObjectReference().kind("Pod").namespace("default").name("p");
    core.createNamespacedEvent(
            "default",
            new CoreV1Event()
                .metadata(new V1ObjectMeta().generateName("p."))
                .involvedObject(pod)
                .reason("Scheduled")
                .type("Normal")
                .message("Successfully assigned default/p to n1"))
        .execute();
    new EventsV1Api(client)
        .createNamespacedEvent(
            "default",
            new EventsV1Event()
                .metadata(new V1ObjectMeta().name("p.2"))
                .eventTime(OffsetDateTime.now(ZoneOffset.UTC))
                .regarding(pod)
                .reason("FailedScheduling")
                .reportingController("gantry-scheduler")
                .reportingInstance("gantry-0")
                .action("Scheduling")
                .type("Warning"))
        .execute();

    assertThat(
            core.listNamespacedEvent("default")
                .fieldSelector("involvedObject.name=p,reason=Scheduled")
                .execute()
                .getItems())
        .hasSize(1);
    assertThat(new EventsV1Api(client).listNamespacedEvent("default").execute().getItems())
        .extracting(e -> e.getReason())
        .containsExactly("FailedScheduling");
  }

  @Test
  void podPriorityComesFromItsPriorityClassAsThePriorityAdmissionPluginSetsIt()
      throws ApiException {
    new SchedulingV1Api(client)
        .createPriorityClass(
            new V1PriorityClass().metadata(new V1ObjectMeta().name("train")).value(50))
        .execute();
    V1Pod pod = Clients.pod("default", "p");
    pod.getSpec().priorityClassName("train");

    V1Pod created = core.createNamespacedPod("default", pod).execute();

    assertThat(created.getSpec().getPriority()).isEqualTo(50);
    assertThat(created.getSpec().getPreemptionPolicy()).isEqualTo("PreemptLowerPriority");
    V1Pod unknown = Clients.pod("default", "q");
    unknown.getSpec().priorityClassName("build");
    assertThatThrownBy(() -> core.createNamespacedPod("default", unknown).execute())
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(403);
              assertThat(Json.parseObject(e.getResponseBody()).path("message").asText())
                  .isEqualTo("pods \"q\" is forbidden: no PriorityClass with name build was found");
            });
  }

  @Test
  void resourceSlicesAreClusterScopedAndSelectableByNodeName() throws ApiException {
    ResourceV1Api resource = new ResourceV1Api(client);
    for (String node : new String[] {"n1", "n2"}) {
      resource
          .createResourceSlice(
              new V1ResourceSlice()
                  .metadata(new V1ObjectMeta().name(node + "-gpu.gantry.io"))
                  .spec(
                      new V1ResourceSliceSpec()
                          .driver("gpu.gantry.io")
                          .nodeName(node)
                          .pool(
                              new V1ResourcePool().name(node).generation(1L).resourceSliceCount(1L))
                          .addDevicesItem(
                              new V1Device()
                                  .name("gpu-0")
                                  .putAttributesItem(
                                      "model", new V1DeviceAttribute().string("H100")))))
          .execute();
    }

    assertThat(resource.listResourceSlice().fieldSelector("spec.nodeName=n2").execute().getItems())
        .extracting(s -> s.getMetadata().getName())
        .containsExactly("n2-gpu.gantry.io");
    // protocols.md §7.1: client-java 27 writes every unset list, so a one-of attribute arrives
    // with its empty list forms beside the value it holds.
    ObjectNode stored =
        kube.store().get(ResourceKinds.RESOURCE_SLICES, "", "n1-gpu.gantry.io").orElseThrow();
    assertThat(
            Json.write(stored.path("spec").path("devices").get(0).path("attributes").path("model")))
        .isEqualTo("{\"bools\":[],\"ints\":[],\"string\":\"H100\",\"strings\":[],\"versions\":[]}");
    assertThat(Json.write(stored.path("metadata").path("finalizers"))).isEqualTo("[]");
  }

  @Test
  void discoveryAnswersAreReadableByTheStrictClient() throws ApiException {
    assertThat(new VersionApi(client).getCode().execute().getMinor()).isEqualTo("36");
    assertThat(new CoreApi(client).getAPIVersions().execute().getVersions()).containsExactly("v1");
    assertThat(new ApisApi(client).getAPIVersions().execute().getGroups())
        .extracting(g -> g.getName())
        .contains("apps", "resource.k8s.io", "scheduling.run.ai", "kai.scheduler");
    assertThat(new SchedulingApi(client).getAPIGroup().execute().getPreferredVersion().getVersion())
        .isEqualTo("v1");
    assertThat(core.getAPIResources().execute().getResources())
        .extracting(V1APIResource::getName)
        .contains("pods", "pods/status", "pods/binding", "pods/eviction", "nodes", "events");
    assertThat(
            new CustomObjectsApi(client)
                .getAPIResources("scheduling.run.ai", "v2alpha2")
                .execute()
                .getResources())
        .extracting(V1APIResource::getKind)
        .containsExactly("PodGroup", "PodGroup");
  }

  @Test
  void aWithheldKindIsServedNoMoreAsOnAnOlderServer() throws ApiException {
    CustomObjectsApi custom = new CustomObjectsApi(client);
    for (String plural :
        List.of("deviceclasses", "resourceclaims", "resourceclaimtemplates", "resourceslices")) {
      kube.registry().withhold("resource.k8s.io", "v1", plural);
    }
    kube.registry().withhold("kai.scheduler", "v1alpha1", "topologies");

    assertThatThrownBy(() -> custom.getAPIResources("resource.k8s.io", "v1").execute())
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
    assertThatThrownBy(
            () -> new ResourceV1Api(client).listResourceClaimTemplateForAllNamespaces().execute())
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
    // the group's only kind: the group version is gone from discovery
    assertThatThrownBy(() -> custom.getAPIResources("kai.scheduler", "v1alpha1").execute())
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));

    kube.registry().register(ResourceKinds.TOPOLOGIES);
    assertThat(
            custom.getAPIResources("kai.scheduler", "v1alpha1").execute().getResources().stream()
                .map(V1APIResource::getName))
        .contains("topologies");
  }
}
