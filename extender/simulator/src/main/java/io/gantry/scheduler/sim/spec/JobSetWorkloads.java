package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.gantry.kubemodel.kai.grouping.JobSetGrouper;
import io.gantry.kubemodel.kai.grouping.OwnerMeta;
import io.gantry.kubemodel.kai.grouping.PodTemplateMeta;
import io.gantry.kubemodel.kai.grouping.ReplicatedJob;
import io.gantry.kubemodel.kai.grouping.WorkloadSpec;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The pods of a JobSet, {@code jobset.x-k8s.io/v1alpha2}: for each replicatedJob, {@code replicas}
 * (default 1) Jobs {@code <jobset>-<replicatedJob>-<index>}, each starting the pods its Job spec
 * asks for, named {@code <job>-<pod index>} and labelled {@code
 * jobset.sigs.k8s.io/replicatedjob-name} and {@code job-index} as the JobSet controller labels
 * them. Startup policy {@code InOrder} is an error: the controller starts each replicatedJob only
 * once the one before is ready, which the simulator does not model.
 */
final class JobSetWorkloads {
  static final String JOBSET_NAME_LABEL = "jobset.sigs.k8s.io/jobset-name";

  private static final ImmutableSet<String> KEYS =
      ImmutableSet.of(
          "replicatedJobs",
          "startupPolicy",
          "successPolicy",
          "failurePolicy",
          "network",
          "ttlSecondsAfterFinished",
          "suspend",
          "managedBy",
          "coordinator");
  private static final ImmutableSet<String> STARTUP_KEYS = ImmutableSet.of("startupPolicyOrder");
  private static final ImmutableSet<String> REPLICATED_JOB_KEYS =
      ImmutableSet.of("name", "replicas", "template");
  private static final ImmutableSet<String> JOB_TEMPLATE_KEYS = ImmutableSet.of("metadata", "spec");
  private static final ImmutableSet<String> JOB_TEMPLATE_METADATA_KEYS =
      ImmutableSet.of("labels", "annotations");

  private JobSetWorkloads() {}

  static List<ManifestPod> pods(ManifestObject object, PodBudget budget) throws ScenarioException {
    MapReader spec = ManifestKeys.read(object.requiredSpec(), KEYS);
    ManifestKeys.requireNotTrue(spec, "suspend", "a suspended JobSet starts no pods");
    Optional<String> order = Optional.empty();
    Optional<Field> startup = spec.optional("startupPolicy");
    if (startup.isPresent()) {
      MapReader policy = ManifestKeys.read(startup.get(), STARTUP_KEYS);
      order = policy.optChoice("startupPolicyOrder", List.of("AnyOrder", JobSetGrouper.IN_ORDER));
      if (order.filter(JobSetGrouper.IN_ORDER::equals).isPresent()) {
        throw policy
            .required("startupPolicyOrder")
            .error(
                "the JobSet controller starts each replicatedJob once the one before is ready,"
                    + " which the simulator does not model; use AnyOrder");
      }
    }
    List<ReplicatedJob> replicatedJobs = new ArrayList<>();
    List<BatchJobTemplate> jobs = new ArrayList<>();
    List<PodTemplateMeta> jobMetas = new ArrayList<>();
    for (Field item : spec.required("replicatedJobs").asList()) {
      MapReader rj = ManifestKeys.read(item, REPLICATED_JOB_KEYS);
      String name = rj.requiredString("name");
      int replicas = rj.intOr("replicas", 1, 0);
      MapReader template = ManifestKeys.read(rj.required("template"), JOB_TEMPLATE_KEYS);
      PodTemplateMeta jobMeta = PodTemplateMeta.EMPTY;
      Optional<Field> metadataField = template.optional("metadata");
      if (metadataField.isPresent()) {
        MapReader metadata = ManifestKeys.read(metadataField.get(), JOB_TEMPLATE_METADATA_KEYS);
        Optional<Field> annotations = metadata.optional("annotations");
        if (annotations.isPresent()) {
          KaiAnnotations.check(annotations.get());
        }
        jobMeta =
            PodTemplateMeta.of(metadata.stringMap("labels"), metadata.stringMap("annotations"));
      }
      Field jobSpecField = template.required("spec");
      BatchJobTemplate job = BatchJobTemplate.bind(jobSpecField);
      budget.take((long) replicas * job.pods(), rj.optional("replicas").orElse(item));
      Optional<Field> parallelism = jobSpecField.asOpenMap().optional("parallelism");
      replicatedJobs.add(
          new ReplicatedJob(
              name,
              OptionalInt.of(replicas),
              parallelism.isPresent()
                  ? OptionalInt.of(parallelism.get().asInt(0))
                  : OptionalInt.empty(),
              jobMeta));
      jobs.add(job);
      jobMetas.add(jobMeta);
    }
    WorkloadSpec.JobSetSpec jobSet =
        new WorkloadSpec.JobSetSpec(ImmutableList.copyOf(replicatedJobs), order);

    WorkloadPods pods = new WorkloadPods(object);
    OwnerMeta top = object.owner();
    for (int r = 0; r < replicatedJobs.size(); r++) {
      ReplicatedJob rj = replicatedJobs.get(r);
      BatchJobTemplate job = jobs.get(r);
      for (int j = 0; j < rj.replicas().getAsInt(); j++) {
        String jobName = object.name() + "-" + rj.name() + "-" + j;
        Map<String, String> labels =
            Map.of(
                JOBSET_NAME_LABEL,
                object.name(),
                JobSetGrouper.REPLICATED_JOB_LABEL,
                rj.name(),
                JobSetGrouper.JOB_INDEX_LABEL,
                Integer.toString(j));
        OwnerMeta jobOwner = pods.child("batch/v1", "Job", jobName, jobMetas.get(r).labels());
        for (int p = 0; p < job.pods(); p++) {
          pods.add(
              jobName + "-" + p, job.template(), labels, Map.of(), List.of(jobOwner, top), jobSet);
        }
      }
    }
    return pods.build();
  }
}
