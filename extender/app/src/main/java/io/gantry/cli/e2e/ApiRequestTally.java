package io.gantry.cli.e2e;

import io.gantry.fakekube.RequestCounts;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The fake API server's request counts by verb and resource ({@code "create pods/binding"}), the
 * object names and namespaces taken out of each path.
 */
final class ApiRequestTally {
  private static final Set<String> WRITES =
      Set.of("create", "update", "patch", "delete", "deletecollection");

  private ApiRequestTally() {}

  /** Requests by {@code "verb resource[/subresource]"}, sorted. */
  static SortedMap<String, Integer> byVerbAndResource(RequestCounts counts) {
    SortedMap<String, Integer> tally = new TreeMap<>();
    for (Map.Entry<RequestCounts.Key, Integer> e : counts.snapshot().entrySet()) {
      tally.merge(
          e.getKey().verb() + " " + resource(e.getKey().path()), e.getValue(), Integer::sum);
    }
    return tally;
  }

  /** How many of {@code tally}'s requests write. */
  static int writes(SortedMap<String, Integer> tally) {
    int writes = 0;
    for (Map.Entry<String, Integer> e : tally.entrySet()) {
      if (WRITES.contains(e.getKey().substring(0, e.getKey().indexOf(' ')))) {
        writes += e.getValue();
      }
    }
    return writes;
  }

  /**
   * {@code pods/binding} for {@code /api/v1/namespaces/ns/pods/p/binding}, {@code podgroups} for
   * {@code /apis/scheduling.run.ai/v2alpha2/namespaces/ns/podgroups}, {@code nodes} for {@code
   * /api/v1/nodes}; the path itself when it is not a resource's (discovery).
   */
  static String resource(String path) {
    String[] parts = path.startsWith("/") ? path.substring(1).split("/") : path.split("/");
    int at;
    if (parts.length >= 3 && parts[0].equals("api")) {
      at = 2;
    } else if (parts.length >= 4 && parts[0].equals("apis")) {
      at = 3;
    } else {
      return path;
    }
    if (parts[at].equals("namespaces") && parts.length > at + 2) {
      at += 2;
    }
    String resource = parts[at];
    return parts.length > at + 2 ? resource + "/" + parts[at + 2] : resource;
  }
}
