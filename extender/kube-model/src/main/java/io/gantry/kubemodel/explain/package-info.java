/**
 * The engine's explanations ({@code io.gantry.scheduler.api.result.explain}) as text and JSON, for
 * every front door that serves them: {@code gantry explain} and {@code gantry queues} offline, and
 * the live scheduler's {@code /explain}, {@code /queues} and {@code /get-job-order}.
 */
package io.gantry.kubemodel.explain;
