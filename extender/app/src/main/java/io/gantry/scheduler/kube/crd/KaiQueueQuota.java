package io.gantry.scheduler.kube.crd;

/** One resource of a Queue: quota, overQuotaWeight and limit, each optional as written. */
public record KaiQueueQuota(Double quota, Double overQuotaWeight, Double limit) {}
