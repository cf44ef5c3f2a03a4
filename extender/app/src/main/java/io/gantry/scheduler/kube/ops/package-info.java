/**
 * The scheduler's operations endpoints ({@code /metrics}, {@code /healthz}, {@code /readyz}, {@code
 * /snapshot}) and its Prometheus metrics.
 */
package io.gantry.scheduler.kube.ops;
