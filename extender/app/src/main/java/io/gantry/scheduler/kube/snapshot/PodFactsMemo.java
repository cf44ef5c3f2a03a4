package io.gantry.scheduler.kube.snapshot;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cached pods' {@link PodFacts}, converted once per pod version and shared by a cycle's readers
 * (the pod grouper, then the snapshot builder): a cycle over mostly unchanged pods converts only
 * the pods that changed since the last one. A version is a pod's uid and resourceVersion, which the
 * API server changes with every write (the informer cache then holds a new object); a pod without a
 * resourceVersion (not read from an API server) is converted every time.
 *
 * <p>Only the pods of the latest list are kept: each call forgets every pod it was not given
 * (deleted, or recreated under a new uid), so the memo never outgrows the cache. Calls are
 * serialized: an explain request builds snapshots beside the loop's cycle.
 */
public final class PodFactsMemo {
  /** One pod's facts and the call that last saw the pod. */
  private static final class Entry {
    PodFacts facts;
    long seenInCall;

    Entry(PodFacts facts, long seenInCall) {
      this.facts = facts;
      this.seenInCall = seenInCall;
    }
  }

  private final Map<String, Entry> byUid = new HashMap<>();
  private long calls;

  /**
   * The facts of each pod, in the list's order; afterwards the memo holds these pods' facts and no
   * others.
   */
  public synchronized List<PodFacts> of(List<V1Pod> pods) {
    long call = ++calls;
    List<PodFacts> out = new ArrayList<>(pods.size());
    int seen = 0;
    for (V1Pod pod : pods) {
      V1ObjectMeta meta = pod.getMetadata();
      String uid = meta.getUid() == null ? "" : meta.getUid();
      Entry e = byUid.get(uid);
      if (e == null) {
        e = new Entry(PodFacts.of(pod), call);
        byUid.put(uid, e);
        seen++;
      } else {
        if (!sameVersion(e.facts, meta)) {
          e.facts = PodFacts.of(pod);
        }
        if (e.seenInCall != call) {
          e.seenInCall = call;
          seen++;
        }
      }
      out.add(e.facts);
    }
    // the walk over every entry is needed only when some entry was not seen: a pod left the cache
    if (byUid.size() > seen) {
      byUid.values().removeIf(e -> e.seenInCall != call);
    }
    return out;
  }

  /** How many pods' facts are kept. */
  synchronized int size() {
    return byUid.size();
  }

  /**
   * Whether {@code facts} were read from this version of the pod; the name is compared too, as pods
   * a test writes by hand may share an empty uid.
   */
  private static boolean sameVersion(PodFacts facts, V1ObjectMeta meta) {
    String rv = meta.getResourceVersion();
    return rv != null
        && !rv.isEmpty()
        && rv.equals(facts.resourceVersion())
        && facts.name().equals(meta.getName())
        && facts.namespace().equals(meta.getNamespace());
  }
}
