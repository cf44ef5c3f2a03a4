package io.gantry.scheduler.kube.usage;

import static java.util.Objects.requireNonNull;

import io.gantry.kubemodel.config.UsageDbSpec;
import java.net.URI;

/**
 * Time-based fair share's usage database as the scheduler runs it: the Prometheus server (its
 * address resolved from {@code connectionString} or {@code connectionStringEnvVar}) and KAI's usage
 * parameters.
 */
public record UsageDb(URI address, UsageDbSpec spec) {
  public UsageDb {
    requireNonNull(address, "address is null");
    requireNonNull(spec, "spec is null");
  }
}
