package io.gantry.scheduler.kube.kaisnapshot;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;

/**
 * A KAI snapshot file as read: the scheduler configuration ({@code config}) and parameters ({@code
 * schedulerParams}) as KAI wrote them (empty objects when absent), the raw objects Gantry reads,
 * the BindRequests (binds under way), and the names of the {@code rawObjects} lists that hold
 * objects Gantry does not read ({@code configMaps}, storage, …).
 */
public record KaiSnapshot(
    ObjectNode config,
    ObjectNode schedulerParams,
    RawObjects objects,
    ImmutableList<KaiBindRequest> bindRequests,
    ImmutableList<String> unreadLists) {
  /** The one file of the archive, as KAI's {@code /get-snapshot} names it. */
  public static final String ENTRY = "snapshot.json";

  public KaiSnapshot {
    requireNonNull(config, "config is null");
    requireNonNull(schedulerParams, "schedulerParams is null");
    requireNonNull(objects, "objects is null");
    requireNonNull(bindRequests, "bindRequests is null");
    requireNonNull(unreadLists, "unreadLists is null");
  }
}
