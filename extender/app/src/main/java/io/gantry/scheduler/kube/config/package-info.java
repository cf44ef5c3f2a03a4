/**
 * The live scheduler's settings: {@link io.gantry.scheduler.kube.config.SchedulerSettings}, read
 * from the configuration file by {@link io.gantry.scheduler.kube.config.SchedulerConfigFile}, and
 * its node pool.
 */
package io.gantry.scheduler.kube.config;
