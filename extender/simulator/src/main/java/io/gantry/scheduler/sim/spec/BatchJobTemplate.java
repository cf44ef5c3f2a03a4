package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import java.util.List;

/**
 * The spec of a {@code batch/v1} Job (a Job manifest, or a JobSet's Job template): how many pods it
 * starts — {@code parallelism} (default 1), at most {@code completions} — and their template.
 */
record BatchJobTemplate(int pods, boolean indexed, ManifestPodTemplate template) {
  static final String INDEX_LABEL = "batch.kubernetes.io/job-completion-index";

  private static final ImmutableSet<String> KEYS =
      ImmutableSet.of(
          "template",
          "parallelism",
          "completions",
          "completionMode",
          "backoffLimit",
          "backoffLimitPerIndex",
          "maxFailedIndexes",
          "activeDeadlineSeconds",
          "ttlSecondsAfterFinished",
          "podFailurePolicy",
          "podReplacementPolicy",
          "successPolicy",
          "selector",
          "manualSelector",
          "suspend",
          "managedBy");

  BatchJobTemplate {
    requireNonNull(template, "template is null");
  }

  static BatchJobTemplate bind(Field specField) throws ScenarioException {
    MapReader spec = ManifestKeys.read(specField, KEYS);
    ManifestKeys.requireNotTrue(spec, "suspend", "a suspended Job starts no pods");
    int parallelism = spec.intOr("parallelism", 1, 0);
    int pods = parallelism;
    if (spec.optional("completions").isPresent()) {
      pods = Math.min(parallelism, spec.intOr("completions", 1, 0));
    }
    boolean indexed =
        spec.optChoice("completionMode", List.of("NonIndexed", "Indexed"))
            .filter("Indexed"::equals)
            .isPresent();
    return new BatchJobTemplate(pods, indexed, PodTemplateBinder.bind(spec.required("template")));
  }
}
