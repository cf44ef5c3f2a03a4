package io.gantry.kubemodel.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/**
 * The scheduler file's {@code gpuSharing} block: how fraction pods get their GPU ({@link
 * GpuSharingMode}) and, in {@code reservation-pods} mode, where and how reservation pods and
 * scaling pods run.
 *
 * @param reservationNamespace the namespace of reservation pods (KAI: {@code
 *     kai-resource-reservation})
 * @param reservationTimeout how long the binder waits for a reservation pod to publish its GPU's
 *     UUID before it deletes it and leaves the fraction pod unbound (KAI: 40s)
 * @param reservationImage the image running {@code gantry-device-agent reserve}
 * @param reservationServiceAccount the service account of reservation pods (allowed to patch its
 *     own pod only)
 * @param runtimeClassName the runtime class of reservation pods (KAI: {@code nvidia}); empty for
 *     the cluster's default
 * @param scalingPods whether pending fraction pods get whole-GPU scaling pods that a cluster
 *     autoscaler sees (KAI's node-scale-adjuster, §1.8)
 * @param scalingNamespace the namespace of scaling pods (KAI: {@code kai-scale-adjust})
 * @param scalingImage the image of scaling pods (they only wait)
 */
public record GpuSharingSpec(
    GpuSharingMode mode,
    String reservationNamespace,
    Duration reservationTimeout,
    String reservationImage,
    String reservationServiceAccount,
    Optional<String> runtimeClassName,
    boolean scalingPods,
    String scalingNamespace,
    String scalingImage) {
  public static final String DEFAULT_RESERVATION_NAMESPACE = "gantry-resource-reservation";
  public static final Duration DEFAULT_RESERVATION_TIMEOUT = Duration.ofSeconds(40);
  public static final String DEFAULT_RESERVATION_IMAGE =
      "ghcr.io/gantry-scheduler/gantry-device-agent:latest";
  public static final String DEFAULT_RESERVATION_SERVICE_ACCOUNT = "gantry-reservation";
  public static final String DEFAULT_RUNTIME_CLASS = "nvidia";
  public static final String DEFAULT_SCALING_NAMESPACE = "gantry-scale-adjust";
  public static final String DEFAULT_SCALING_IMAGE = "registry.k8s.io/pause:3.10";

  /** Reservation pods with KAI's defaults, no scaling pods. */
  public static final GpuSharingSpec DEFAULTS =
      new GpuSharingSpec(
          GpuSharingMode.RESERVATION_PODS,
          DEFAULT_RESERVATION_NAMESPACE,
          DEFAULT_RESERVATION_TIMEOUT,
          DEFAULT_RESERVATION_IMAGE,
          DEFAULT_RESERVATION_SERVICE_ACCOUNT,
          Optional.of(DEFAULT_RUNTIME_CLASS),
          false,
          DEFAULT_SCALING_NAMESPACE,
          DEFAULT_SCALING_IMAGE);

  /** Gantry's own device plugin: no reservation pods, no scaling pods. */
  public static final GpuSharingSpec DEVICE_PLUGIN =
      DEFAULTS.withMode(GpuSharingMode.DEVICE_PLUGIN);

  public GpuSharingSpec {
    requireNonNull(mode, "mode is null");
    requireNonNull(reservationNamespace, "reservationNamespace is null");
    requireNonNull(reservationTimeout, "reservationTimeout is null");
    requireNonNull(reservationImage, "reservationImage is null");
    requireNonNull(reservationServiceAccount, "reservationServiceAccount is null");
    requireNonNull(runtimeClassName, "runtimeClassName is null");
    requireNonNull(scalingNamespace, "scalingNamespace is null");
    requireNonNull(scalingImage, "scalingImage is null");
    if (reservationTimeout.isNegative() || reservationTimeout.isZero()) {
      throw new IllegalArgumentException(
          "reservationTimeout must be positive, got " + reservationTimeout);
    }
  }

  public boolean reservationPods() {
    return mode == GpuSharingMode.RESERVATION_PODS;
  }

  public GpuSharingSpec withMode(GpuSharingMode newMode) {
    return new GpuSharingSpec(
        newMode,
        reservationNamespace,
        reservationTimeout,
        reservationImage,
        reservationServiceAccount,
        runtimeClassName,
        scalingPods,
        scalingNamespace,
        scalingImage);
  }

  public GpuSharingSpec withReservationTimeout(Duration timeout) {
    return new GpuSharingSpec(
        mode,
        reservationNamespace,
        timeout,
        reservationImage,
        reservationServiceAccount,
        runtimeClassName,
        scalingPods,
        scalingNamespace,
        scalingImage);
  }

  public GpuSharingSpec withScalingPods(boolean on) {
    return new GpuSharingSpec(
        mode,
        reservationNamespace,
        reservationTimeout,
        reservationImage,
        reservationServiceAccount,
        runtimeClassName,
        on,
        scalingNamespace,
        scalingImage);
  }
}
