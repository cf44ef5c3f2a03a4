/**
 * The scheduler's operations endpoints ({@code /metrics}, {@code /healthz}, {@code /readyz}), its
 * debug endpoints on a separate address ({@code /snapshot}) and its Prometheus metrics.
 */
package io.gantry.scheduler.kube.ops;
