package io.gantry.scheduler.testing;

import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.QueueResource;
import java.time.Duration;
import java.util.Optional;

/**
 * Builds {@link QueueInfo}s: {@code Queues.queue("q").gpu(4, 1, -1).parent("p").build()}. Amounts
 * are in engine units (GPU devices, CPU millicores, memory bytes). Defaults: every resource
 * unlimited (quota -1, weight 1, limit -1), priority 100, top level, creation order assigned by
 * {@link Snapshots#of} from the queue's position unless set.
 */
public final class Queues {
  private static final QueueResource UNLIMITED =
      new QueueResource(QueueResource.UNLIMITED, 1, QueueResource.UNLIMITED);

  private Queues() {}

  public static Builder queue(String name) {
    return new Builder(name);
  }

  public static final class Builder {
    private final String name;
    private Optional<String> parent = Optional.empty();
    private int priority = QueueInfo.DEFAULT_PRIORITY;
    private QueueResource gpu = UNLIMITED;
    private QueueResource cpu = UNLIMITED;
    private QueueResource memory = UNLIMITED;
    private long creationOrder = Snapshots.UNSET;
    private Optional<Duration> preemptMinRuntime = Optional.empty();
    private Optional<Duration> reclaimMinRuntime = Optional.empty();

    private Builder(String name) {
      this.name = name;
    }

    public Builder gpu(double quota, double weight, double limit) {
      this.gpu = new QueueResource(quota, weight, limit);
      return this;
    }

    public Builder cpu(double quotaMillis, double weight, double limitMillis) {
      this.cpu = new QueueResource(quotaMillis, weight, limitMillis);
      return this;
    }

    public Builder memory(double quotaBytes, double weight, double limitBytes) {
      this.memory = new QueueResource(quotaBytes, weight, limitBytes);
      return this;
    }

    public Builder parent(String parent) {
      this.parent = Optional.of(parent);
      return this;
    }

    public Builder priority(int priority) {
      this.priority = priority;
      return this;
    }

    public Builder preemptMinRuntime(Duration d) {
      this.preemptMinRuntime = Optional.of(d);
      return this;
    }

    public Builder reclaimMinRuntime(Duration d) {
      this.reclaimMinRuntime = Optional.of(d);
      return this;
    }

    public Builder creationOrder(long creationOrder) {
      this.creationOrder = creationOrder;
      return this;
    }

    public QueueInfo build() {
      return new QueueInfo(
          name,
          parent,
          priority,
          gpu,
          cpu,
          memory,
          preemptMinRuntime,
          reclaimMinRuntime,
          creationOrder);
    }
  }
}
