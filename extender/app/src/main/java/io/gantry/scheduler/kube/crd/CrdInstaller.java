package io.gantry.scheduler.kube.crd;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.kube.access.ApiRule;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.util.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Applies the CRDs Gantry reads (KAI's Queue, PodGroup and Topology, the files under the chart's
 * {@code crds/}, bundled in the jar) to a cluster: creates the missing ones and replaces the rest
 * with Gantry's widened by the cluster's ({@link CrdSuperset}), so a cluster that has KAI's CRDs
 * loses no field, version or enum value KAI's controllers use. Helm installs a chart's {@code
 * crds/} only once and never upgrades them, so the chart runs this from a pre-upgrade hook ({@code
 * gantry crds apply}).
 */
public final class CrdInstaller {
  /** The bundled files, as under {@code charts/gantry/crds/}. */
  public static final ImmutableList<String> FILES =
      ImmutableList.of(
          "kai.scheduler_topologies.yaml",
          "scheduling.run.ai_podgroups.yaml",
          "scheduling.run.ai_queues.yaml");

  /** The calls {@link #apply} makes, as RBAC rules. */
  public static final ImmutableList<ApiRule> API_ACCESS =
      ImmutableList.of(
          ApiRule.cluster(
              "apiextensions.k8s.io", "customresourcedefinitions", "get", "create", "update"));

  private static final String RESOURCE_DIR = "/io/gantry/crds/";
  private static final int CONFLICT_ATTEMPTS = 5;

  private final ApiextensionsV1Api api;

  public CrdInstaller(ApiClient client) {
    this.api = new ApiextensionsV1Api(requireNonNull(client, "client is null"));
  }

  /** The bundled definitions, parsed. */
  public static ImmutableList<V1CustomResourceDefinition> bundled() {
    ImmutableList.Builder<V1CustomResourceDefinition> out = ImmutableList.builder();
    for (String file : FILES) {
      try (InputStream in = CrdInstaller.class.getResourceAsStream(RESOURCE_DIR + file)) {
        if (in == null) {
          throw new IllegalStateException("the jar has no " + RESOURCE_DIR + file);
        }
        try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
          out.add(Yaml.loadAs(reader, V1CustomResourceDefinition.class));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the bundled " + file, e);
      }
    }
    return out.build();
  }

  /** What {@link #apply} did to one definition. */
  public enum Outcome {
    CREATED,
    REPLACED
  }

  /**
   * Creates {@code crd}, or replaces the cluster's copy with {@code crd} widened by that copy; a
   * concurrent change (409) is read again and retried.
   */
  public Outcome apply(V1CustomResourceDefinition crd) throws ApiException {
    String name = crd.getMetadata().getName();
    for (int attempt = 1; ; attempt++) {
      V1CustomResourceDefinition existing;
      try {
        existing = api.readCustomResourceDefinition(name).execute();
      } catch (ApiException e) {
        if (e.getCode() != 404) {
          throw e;
        }
        api.createCustomResourceDefinition(crd).execute();
        return Outcome.CREATED;
      }
      V1CustomResourceDefinition united = CrdSuperset.of(crd, existing);
      united.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
      try {
        api.replaceCustomResourceDefinition(name, united).execute();
        return Outcome.REPLACED;
      } catch (ApiException e) {
        if (e.getCode() != 409 || attempt >= CONFLICT_ATTEMPTS) {
          throw e;
        }
      }
    }
  }
}
