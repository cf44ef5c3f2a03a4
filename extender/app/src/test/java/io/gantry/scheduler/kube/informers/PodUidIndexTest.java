package io.gantry.scheduler.kube.informers;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.kubernetes.client.informer.cache.Cache;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PodUidIndexTest {
  private static V1Pod pod(String namespace, String name, String uid, int generation) {
    return new V1Pod()
        .metadata(
            new V1ObjectMeta()
                .namespace(namespace)
                .name(name)
                .uid(uid)
                .resourceVersion(Integer.toString(generation)));
  }

  /** The walk over every cached pod that the index replaces. */
  private static Optional<String> walk(Cache<V1Pod> cache, String uid) {
    for (V1Pod p : cache.list()) {
      if (uid.equals(p.getMetadata().getUid())) {
        return Optional.of(PodFacts.key(p.getMetadata().getNamespace(), p.getMetadata().getName()));
      }
    }
    return Optional.empty();
  }

  @Test
  void agreesWithAWalkOverEveryPodAfterRandomAddsUpdatesAndDeletes() {
    // the informer's cache, with the index the pod informer registers
    Cache<V1Pod> cache = new Cache<>();
    cache.addIndexers(PodUidIndex.indexers());
    Random random = new Random(20261201);
    TreeMap<String, V1Pod> live = new TreeMap<>();
    List<String> uids = new ArrayList<>();
    int checkedFound = 0;
    for (int op = 0; op < 1500; op++) {
      String namespace = "ns-" + random.nextInt(3);
      String name = "pod-" + random.nextInt(40);
      String key = namespace + "/" + name;
      V1Pod old = live.get(key);
      int kind = random.nextInt(4);
      if (old == null || kind == 0) {
        // added, or deleted and created again under the same name with a new UID
        String uid = "uid-" + op;
        uids.add(uid);
        V1Pod p = pod(namespace, name, uid, op);
        if (old == null) {
          cache.add(p);
        } else {
          cache.update(p);
        }
        live.put(key, p);
      } else if (kind == 1) {
        cache.delete(old);
        live.remove(key);
      } else {
        // a status or label change: same UID
        V1Pod p = pod(namespace, name, old.getMetadata().getUid(), op);
        cache.update(p);
        live.put(key, p);
      }
      for (String uid : uids) {
        Optional<String> indexed = PodUidIndex.podKey(cache, uid);
        assertThat(indexed).as("uid %s after operation %d", uid, op).isEqualTo(walk(cache, uid));
        checkedFound += indexed.isPresent() ? 1 : 0;
      }
    }
    // the comparison covered pods that exist as well as UIDs that are gone
    assertThat(checkedFound).isGreaterThan(10_000);
    assertThat(PodUidIndex.podKey(cache, "never-seen")).isEmpty();
  }

  @Test
  void aPodWithoutUidIsNotIndexed() {
    Cache<V1Pod> cache = new Cache<>();
    cache.addIndexers(PodUidIndex.indexers());
    cache.add(pod("default", "a", null, 1));
    cache.add(pod("default", "b", "uid-b", 1));
    assertThat(PodUidIndex.podKey(cache, "uid-b")).contains("default/b");
    assertThat(cache.byIndex(PodUidIndex.NAME, "")).isEmpty();
  }
}
