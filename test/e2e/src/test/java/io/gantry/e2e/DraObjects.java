package io.gantry.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.PatchType;
import io.gantry.fakekube.ResourceKinds;

/**
 * DRA objects for end-to-end tests, and what Kubernetes' resourceclaim controller does, which the
 * fake API server does not run: the claim generated from a pod's ResourceClaimTemplate.
 */
final class DraObjects {
  static final String DRIVER = "gpu.gantry.io";

  private DraObjects() {}

  /** The DeviceClass {@value #DRIVER} selecting the driver's devices. */
  static ObjectNode deviceClass() {
    ObjectNode dc = Json.object();
    dc.put("apiVersion", "resource.k8s.io/v1").put("kind", "DeviceClass");
    dc.putObject("metadata").put("name", DRIVER);
    dc.putObject("spec")
        .putArray("selectors")
        .addObject()
        .putObject("cel")
        .put("expression", "device.driver == '" + DRIVER + "'");
    return dc;
  }

  /** A ResourceClaimTemplate whose claims ask for one device of {@link #deviceClass()}. */
  static ObjectNode template(String namespace, String name) {
    ObjectNode t = Json.object();
    t.put("apiVersion", "resource.k8s.io/v1").put("kind", "ResourceClaimTemplate");
    t.putObject("metadata").put("name", name).put("namespace", namespace);
    t.putObject("spec")
        .putObject("spec")
        .putObject("devices")
        .putArray("requests")
        .addObject()
        .put("name", "gpu")
        .putObject("exactly")
        .put("deviceClassName", DRIVER)
        .put("allocationMode", "ExactCount")
        .put("count", 1);
    return t;
  }

  /** The pod with its claim {@code gpu} from {@code template}, used by its first container. */
  static ObjectNode withTemplateClaim(ObjectNode pod, String template) {
    ObjectNode spec = (ObjectNode) pod.get("spec");
    spec.putArray("resourceClaims")
        .addObject()
        .put("name", "gpu")
        .put("resourceClaimTemplateName", template);
    ((ObjectNode) spec.get("containers").get(0).get("resources"))
        .putArray("claims")
        .addObject()
        .put("name", "gpu");
    return pod;
  }

  /**
   * What Kubernetes' resourceclaim controller does for the pod's claim {@code gpu}: creates {@code
   * claim} from the template, owned by the pod, and names it in the pod's {@code
   * status.resourceClaimStatuses}.
   */
  static void generateClaim(
      E2eCluster cluster, String namespace, String pod, String template, String claim) {
    JsonNode owner = cluster.pod(namespace, pod);
    JsonNode source =
        cluster
            .kube
            .store()
            .get(ResourceKinds.RESOURCE_CLAIM_TEMPLATES, namespace, template)
            .orElseThrow();
    ObjectNode generated = Json.object();
    generated.put("apiVersion", "resource.k8s.io/v1").put("kind", "ResourceClaim");
    ObjectNode meta =
        generated.putObject("metadata").put("name", claim).put("namespace", namespace);
    meta.putObject("annotations").put("resource.kubernetes.io/pod-claim-name", "gpu");
    meta.putArray("ownerReferences")
        .addObject()
        .put("apiVersion", "v1")
        .put("kind", "Pod")
        .put("name", pod)
        .put("uid", owner.at("/metadata/uid").asText())
        .put("controller", true)
        .put("blockOwnerDeletion", true);
    generated.set("spec", source.at("/spec/spec").deepCopy());
    cluster.create(generated);
    ObjectNode status = Json.object();
    ArrayNode statuses = status.putObject("status").putArray("resourceClaimStatuses");
    statuses.addObject().put("name", "gpu").put("resourceClaimName", claim);
    cluster
        .kube
        .store()
        .patch(ResourceKinds.PODS, namespace, pod, PatchType.MERGE_PATCH, Json.write(status), true);
  }
}
