package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

/**
 * KAI's podgrouper over plain values (kai-reference §1.3, §3.3–3.4): picks the grouper of the top
 * owner's kind ({@link WorkloadKind}) and returns the pod's PodGroup. Adapters resolve the owners
 * and build the {@link GroupingInput}; this class decides nothing else. Thread-safe.
 */
public final class PodGroupPlanner {
  public static final String SKIP_ANNOTATION = "kai.scheduler/skip-podgrouper";
  public static final String POD_GROUP_ANNOTATION = "pod-group-name";
  public static final String SUBGROUP_LABEL = "kai.scheduler/subgroup-name";

  private final DefaultGrouper defaults;
  private final BarePodGrouper barePod;
  private final DeploymentGrouper deployment;
  private final BatchJobGrouper batchJob;
  private final CronJobGrouper cronJob;
  private final KubeflowGrouper tfJob;
  private final PyTorchJobGrouper pytorchJob;
  private final KubeflowGrouper xgboostJob;
  private final KubeflowGrouper jaxJob;
  private final MpiJobGrouper mpiJob;
  private final KindPriorityGrouper notebook;
  private final KindPriorityGrouper spotRequest;
  private final RayGrouper rayCluster;
  private final RayGrouper rayJob;
  private final RayGrouper rayService;
  private final JobSetGrouper jobSet;
  private final LeaderWorkerSetGrouper leaderWorkerSet;
  private final KnativeGrouper knative;
  private final SkipTopOwnerGrouper skipTopOwner;

  public PodGroupPlanner(GroupingConfig config) {
    requireNonNull(config, "config is null");
    this.defaults = new DefaultGrouper(config);
    this.barePod = new BarePodGrouper(defaults);
    this.deployment = new DeploymentGrouper(defaults);
    this.batchJob = new BatchJobGrouper(defaults);
    this.cronJob = new CronJobGrouper(defaults);
    this.tfJob = KubeflowGrouper.tfJob(defaults);
    this.pytorchJob = new PyTorchJobGrouper(defaults);
    this.xgboostJob = KubeflowGrouper.xgboostJob(defaults);
    this.jaxJob = KubeflowGrouper.jaxJob(defaults);
    this.mpiJob = new MpiJobGrouper(defaults);
    this.notebook = new KindPriorityGrouper(defaults, DefaultGrouper.BUILD);
    this.spotRequest = new KindPriorityGrouper(defaults, DefaultGrouper.INFERENCE);
    this.rayCluster = RayGrouper.rayCluster(defaults);
    this.rayJob = RayGrouper.rayJob(defaults);
    this.rayService = RayGrouper.rayService(defaults);
    this.jobSet = new JobSetGrouper(defaults);
    this.leaderWorkerSet = new LeaderWorkerSetGrouper(defaults);
    this.knative = new KnativeGrouper(defaults);
    this.skipTopOwner = new SkipTopOwnerGrouper(defaults, this::plan);
  }

  /**
   * The pod's PodGroup.
   *
   * @throws io.gantry.kubemodel.kai.KaiObjectException as {@link Grouper#plan} does
   */
  public PodGroupPlan plan(GroupingInput input) {
    return grouper(input.kind()).plan(input);
  }

  public Grouper grouper(WorkloadKind kind) {
    return switch (kind) {
      case POD -> barePod;
      case DEPLOYMENT -> deployment;
      case REPLICA_SET, STATEFUL_SET, DEFAULT -> defaults;
      case BATCH_JOB -> batchJob;
      case CRON_JOB -> cronJob;
      case TF_JOB -> tfJob;
      case PYTORCH_JOB -> pytorchJob;
      case XGBOOST_JOB -> xgboostJob;
      case JAX_JOB -> jaxJob;
      case MPI_JOB -> mpiJob;
      case NOTEBOOK -> notebook;
      case SPOT_REQUEST -> spotRequest;
      case RAY_CLUSTER -> rayCluster;
      case RAY_JOB -> rayJob;
      case RAY_SERVICE -> rayService;
      case JOB_SET -> jobSet;
      case LEADER_WORKER_SET -> leaderWorkerSet;
      case KNATIVE_SERVICE -> knative;
      case SKIP_TOP_OWNER -> skipTopOwner;
    };
  }

  /**
   * Whether KAI's podgrouper leaves the pod alone: the pod or one of its owners is annotated
   * {@value #SKIP_ANNOTATION}{@code : "true"} (its PodGroup is the user's), or a pod without owners
   * already names its PodGroup ({@value #POD_GROUP_ANNOTATION}).
   */
  public static boolean leavesAlone(GroupingInput input) {
    if ("true".equals(input.pod().annotations().get(SKIP_ANNOTATION))) {
      return true;
    }
    if (input.owners().stream()
        .anyMatch(o -> "true".equals(o.annotations().get(SKIP_ANNOTATION)))) {
      return true;
    }
    return input.owners().isEmpty() && input.pod().annotations().containsKey(POD_GROUP_ANNOTATION);
  }
}
