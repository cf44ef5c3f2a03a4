/**
 * What {@code gantry explain}, {@code gantry queues} and {@code /get-job-order} report, as values
 * the engine's {@code cycle.Explainer} computes: the order the next allocate would try pending
 * jobs, each queue's standing, and for one job why it waits and what could make room for it.
 */
package io.gantry.scheduler.api.result.explain;
