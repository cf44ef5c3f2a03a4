package io.gantry.scheduler.kube.kaisnapshot;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiQueue;
import io.gantry.scheduler.kube.crd.KaiTopology;
import io.gantry.scheduler.kube.informers.ClusterObjects;
import io.gantry.scheduler.kube.informers.DraInformers;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes the objects a Gantry scheduler schedules by as a KAI snapshot (the ZIP KAI's {@code
 * /get-snapshot} serves, {@link KaiSnapshot#ENTRY} in it): {@code config} and {@code
 * schedulerParams} in KAI's words ({@link KaiSchedulerConfig}), and under {@code rawObjects} every
 * cached pod, node, Queue, PodGroup, PriorityClass, Topology and DRA object as the API server sent
 * it, sorted by namespace and name, except that a pod's environment variables keep their names and
 * lose their values (which often hold credentials and schedule nothing). The lists of kinds Gantry
 * does not watch ({@code bindRequests}, {@code configMaps}, storage) are written empty; {@code
 * resourceClaimTemplates}, which KAI's lists lack, is added (KAI's reader skips keys it does not
 * know).
 */
public final class KaiSnapshotWriter {
  private static final JsonFactory FACTORY = new ObjectMapper().getFactory();

  private KaiSnapshotWriter() {}

  public static void write(ClusterObjects objects, SchedulerSettings settings, OutputStream out)
      throws IOException {
    KubeClients.installRelaxedJson();
    ZipOutputStream zip = new ZipOutputStream(out);
    zip.putNextEntry(new ZipEntry(KaiSnapshot.ENTRY));
    JsonGenerator g = FACTORY.createGenerator(zip, JsonEncoding.UTF8);
    g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    g.writeStartObject();
    g.writeFieldName("config");
    g.writeTree(KaiSchedulerConfig.toKaiConfig(settings.engine()));
    g.writeFieldName("schedulerParams");
    g.writeTree(KaiSchedulerConfig.toKaiParams(settings));
    g.writeObjectFieldStart("rawObjects");
    typed(g, "pods", objects.pods(), "v1", "Pod");
    typed(g, "nodes", objects.nodes(), "v1", "Node");
    typed(g, "queues", objects.queues(), KaiQueue.GROUP + "/" + KaiQueue.VERSION, KaiQueue.KIND);
    typed(
        g,
        "podGroups",
        objects.podGroups(),
        KaiPodGroup.GROUP + "/" + KaiPodGroup.VERSION,
        KaiPodGroup.KIND);
    typed(g, "priorityClasses", objects.priorityClasses(), "scheduling.k8s.io/v1", "PriorityClass");
    typed(
        g,
        "topologies",
        objects.topologies(),
        KaiTopology.GROUP + "/" + KaiTopology.VERSION,
        KaiTopology.KIND);
    String dra = DraInformers.GROUP + "/" + DraInformers.VERSION;
    dynamic(g, "resourceClaims", objects.dra().claims(), dra, "ResourceClaim");
    dynamic(g, "resourceSlices", objects.dra().slices(), dra, "ResourceSlice");
    dynamic(g, "deviceClasses", objects.dra().deviceClasses(), dra, "DeviceClass");
    dynamic(g, "resourceClaimTemplates", objects.dra().templates(), dra, "ResourceClaimTemplate");
    // Gantry's binds in flight live in its binder, not in BindRequest objects
    g.writeArrayFieldStart("bindRequests");
    g.writeEndArray();
    for (String unread : KaiSnapshotReader.UNREAD_LISTS) {
      g.writeArrayFieldStart(unread);
      g.writeEndArray();
    }
    g.writeEndObject();
    g.writeEndObject();
    g.flush();
    zip.closeEntry();
    zip.finish();
  }

  private static void typed(
      JsonGenerator g,
      String key,
      List<? extends KubernetesObject> objects,
      String apiVersion,
      String kind)
      throws IOException {
    List<KubernetesObject> sorted = new ArrayList<>(objects);
    sorted.sort(BY_NAME);
    g.writeArrayFieldStart(key);
    for (KubernetesObject o : sorted) {
      JsonObject tree = JSON.getGson().toJsonTree(o).getAsJsonObject();
      if (kind.equals("Pod")) {
        withoutEnvValues(tree);
      }
      raw(g, tree, apiVersion, kind);
    }
    g.writeEndArray();
  }

  private static void dynamic(
      JsonGenerator g,
      String key,
      List<DynamicKubernetesObject> objects,
      String apiVersion,
      String kind)
      throws IOException {
    List<DynamicKubernetesObject> sorted = new ArrayList<>(objects);
    sorted.sort(BY_NAME);
    g.writeArrayFieldStart(key);
    for (DynamicKubernetesObject o : sorted) {
      raw(g, o.getRaw().deepCopy(), apiVersion, kind);
    }
    g.writeEndArray();
  }

  /**
   * Leaves the values of the containers' environment variables out: nothing schedules by them, and
   * they often hold credentials. Their names, and references to ConfigMaps and Secrets, stay.
   */
  private static void withoutEnvValues(JsonObject pod) {
    JsonElement spec = pod.get("spec");
    if (spec == null || !spec.isJsonObject()) {
      return;
    }
    for (String list : List.of("initContainers", "containers", "ephemeralContainers")) {
      JsonElement containers = spec.getAsJsonObject().get(list);
      if (containers == null || !containers.isJsonArray()) {
        continue;
      }
      for (JsonElement c : containers.getAsJsonArray()) {
        JsonElement env = c.isJsonObject() ? c.getAsJsonObject().get("env") : null;
        if (env != null && env.isJsonArray()) {
          for (JsonElement e : env.getAsJsonArray()) {
            if (e.isJsonObject()) {
              e.getAsJsonObject().remove("value");
            }
          }
        }
      }
    }
  }

  /** One object, with the apiVersion and kind a list's items leave out. */
  private static void raw(JsonGenerator g, JsonObject o, String apiVersion, String kind)
      throws IOException {
    JsonObject out = new JsonObject();
    out.addProperty(
        "apiVersion", has(o, "apiVersion") ? o.get("apiVersion").getAsString() : apiVersion);
    out.addProperty("kind", has(o, "kind") ? o.get("kind").getAsString() : kind);
    for (var e : o.entrySet()) {
      if (!e.getKey().equals("apiVersion") && !e.getKey().equals("kind")) {
        out.add(e.getKey(), e.getValue());
      }
    }
    g.writeRawValue(out.toString());
  }

  private static boolean has(JsonObject o, String key) {
    JsonElement e = o.get(key);
    return e != null && e.isJsonPrimitive();
  }

  private static final Comparator<KubernetesObject> BY_NAME =
      Comparator.comparing((KubernetesObject o) -> nullToEmpty(o.getMetadata().getNamespace()))
          .thenComparing(o -> nullToEmpty(o.getMetadata().getName()));

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
