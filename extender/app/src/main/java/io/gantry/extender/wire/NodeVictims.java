package io.gantry.extender.wire;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/** The pods kube-scheduler would evict on one node ({@code MetaVictims}): UIDs and PDB cost. */
public record NodeVictims(ImmutableList<String> podUids, long numPdbViolations) {
  public NodeVictims {
    requireNonNull(podUids, "podUids is null");
  }
}
