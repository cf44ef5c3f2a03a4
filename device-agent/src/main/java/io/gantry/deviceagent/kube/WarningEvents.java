package io.gantry.deviceagent.kube;

import static java.util.Objects.requireNonNull;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Records Warning events reported by component {@value #COMPONENT} on this node, named like the
 * kubelet's ({@code <object>.<hex time><hex sequence>}).
 */
final class WarningEvents {
  /** The event source. */
  static final String COMPONENT = "gantry-device-agent";

  private final CoreV1Api core;
  private final String nodeName;
  private final Clock clock;
  private final AtomicLong sequence = new AtomicLong();

  WarningEvents(ApiClient client, String nodeName, Clock clock) {
    this.core = new CoreV1Api(requireNonNull(client, "client is null"));
    this.nodeName = requireNonNull(nodeName, "nodeName is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** A Warning about {@code involved}, stored in {@code namespace}. */
  void record(V1ObjectReference involved, String namespace, String reason, String message)
      throws ApiException {
    var now = clock.instant().atOffset(ZoneOffset.UTC);
    CoreV1Event event =
        new CoreV1Event()
            .apiVersion("v1")
            .kind("Event")
            .metadata(
                new V1ObjectMeta()
                    .namespace(namespace)
                    .name(
                        involved.getName()
                            + "."
                            + Long.toHexString(clock.millis()).toLowerCase(Locale.ROOT)
                            + Long.toHexString(sequence.incrementAndGet())))
            .involvedObject(involved)
            .type("Warning")
            .reason(reason)
            .message(message)
            .count(1)
            .firstTimestamp(now)
            .lastTimestamp(now)
            .source(new V1EventSource().component(COMPONENT).host(nodeName))
            .reportingComponent(COMPONENT)
            .reportingInstance(nodeName);
    core.createNamespacedEvent(namespace, event).execute();
  }
}
