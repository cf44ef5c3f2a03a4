package io.gantry.scheduler.plugins.topology;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.NodeSubset;
import io.gantry.scheduler.framework.fit.TopologyDomainTooSmall;
import io.gantry.scheduler.model.ResourceKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The candidate domains of one constrained group inside a node set (kai-reference §9 (b)–(g)): the
 * domains of the levels from the preferred level (or the required one) up to the required level (or
 * the whole tree when only a preferred level is set) that hold the group's pods, lowest level
 * first, inside a level in tree order with the fullest sibling first (ties by id). Each becomes one
 * node set; inside one above the preferred level, nodes of emptier preferred-level sub-domains
 * score higher.
 */
final class DomainCandidates {
  /** KAI's topology score tier (kai-reference §6). */
  static final double SCORE_TIER = 100_000;

  private final GroupRequest request;
  private final int deepest;
  private final Optional<Integer> preferred;

  /** Per level, the domains that hold some allowed node, restricted to those nodes. */
  private final List<List<Domain>> levels = new ArrayList<>();

  private final Map<String, DomainRoom> rooms = new HashMap<>();

  /** The allowed nodes of the tree: the root domain. */
  private final ImmutableList<NodeState> rootNodes;

  /**
   * @param allowed names of the nodes the group may use; empty for every node
   * @param deepest the preferred level, or else the required one
   */
  DomainCandidates(
      TopologyTree tree,
      Optional<Set<String>> allowed,
      GroupRequest request,
      int deepest,
      Optional<Integer> preferred) {
    this.request = request;
    this.deepest = deepest;
    this.preferred = preferred;
    ImmutableList.Builder<NodeState> root = ImmutableList.builder();
    for (int l = 0; l <= deepest; l++) {
      List<Domain> domains = new ArrayList<>();
      for (Domain d : tree.domains(l)) {
        List<NodeState> nodes =
            allowed.isEmpty()
                ? d.nodes()
                : d.nodes().stream().filter(n -> allowed.get().contains(n.name())).toList();
        if (nodes.isEmpty()) {
          continue;
        }
        Domain kept = new Domain(d.path(), ImmutableList.copyOf(nodes));
        domains.add(kept);
        rooms.put(key(kept), DomainRoom.of(kept.nodes(), request));
        if (l == 0) {
          root.addAll(nodes);
        }
      }
      levels.add(domains);
    }
    this.rootNodes = root.build();
  }

  /**
   * The lowest domain at or above the deepest candidate level that holds every allowed node; empty
   * when the nodes span several top-level domains (the whole cluster).
   */
  Optional<Domain> lowestCommonDomain() {
    Optional<Domain> common = Optional.empty();
    for (int l = 0; l <= deepest && levels.get(l).size() == 1; l++) {
      common = Optional.of(levels.get(l).get(0));
    }
    return common;
  }

  /** Whether the group could fit anywhere in the allowed nodes: in their lowest common domain. */
  boolean fitsAnywhere() {
    Optional<Domain> common = lowestCommonDomain();
    DomainRoom room =
        common.isPresent() ? rooms.get(key(common.get())) : DomainRoom.of(rootNodes, request);
    return !rootNodes.isEmpty() && room.fits(request);
  }

  /**
   * The node sets to try, in order: fitting domains from the deepest level up to {@code widest}
   * (-1: the whole tree as the last candidate), not above the lowest common domain, and, when
   * {@code pinned} is given, only those inside the pinned domains of level {@code widest}.
   */
  ImmutableList<NodeSubset> candidates(
      int widest, Optional<Set<String>> pinned, ImmutableMap<String, Double> inheritedScores) {
    int commonLevel = lowestCommonDomain().map(Domain::level).orElse(-1);
    int top = Math.max(widest, commonLevel);
    ImmutableList.Builder<NodeSubset> out = ImmutableList.builder();
    for (int l = deepest; l >= Math.max(top, 0); l--) {
      List<Domain> fitting = new ArrayList<>();
      for (Domain d : levels.get(l)) {
        boolean inPinned = pinned.isEmpty() || pinned.get().contains(d.idAt(widest));
        if (inPinned && rooms.get(key(d)).fits(request)) {
          fitting.add(d);
        }
      }
      fitting.sort(treeOrder());
      for (Domain d : fitting) {
        out.add(NodeSubset.of(d.nodes(), scores(d, inheritedScores)));
      }
    }
    if (top < 0 && DomainRoom.of(rootNodes, request).fits(request)) {
      out.add(NodeSubset.of(rootNodes, scoresOver(rootNodes, -1, inheritedScores)));
    }
    return out.build();
  }

  /**
   * Why no candidate came out of {@link #candidates} with the same arguments: each domain of the
   * widest candidate level (KAI reports that level only, kai-reference §9 (e)) that cannot hold the
   * group, by id. Pods that all ask the same are counted (the domain's allocatable pods); otherwise
   * each resource the domain lacks is one reason.
   */
  ImmutableList<TopologyDomainTooSmall> shortfalls(int widest, Optional<Set<String>> pinned) {
    int level = Math.max(widest, lowestCommonDomain().map(Domain::level).orElse(-1));
    if (widest < 0 || level < 0) {
      return ImmutableList.of();
    }
    List<Domain> domains = new ArrayList<>(levels.get(level));
    domains.sort(Comparator.comparing(Domain::id));
    ImmutableList.Builder<TopologyDomainTooSmall> out = ImmutableList.builder();
    for (Domain d : domains) {
      DomainRoom room = rooms.get(key(d));
      if (pinned.isPresent() && !pinned.get().contains(d.idAt(widest)) || room.fits(request)) {
        continue;
      }
      if (request.homogeneous()) {
        out.add(TopologyDomainTooSmall.pods(d.id(), room.allocatablePods(), request.pods()));
        continue;
      }
      for (ResourceKind kind : room.shortOf(request)) {
        out.add(TopologyDomainTooSmall.resource(d.id(), kind));
      }
    }
    return out.build();
  }

  /**
   * Tree order: ancestors first, from the widest level down, each level's siblings fullest first
   * (the group's largest share of a free resource, descending), then by id.
   */
  private Comparator<Domain> treeOrder() {
    return (a, b) -> {
      for (int l = 0; l <= a.level(); l++) {
        String idA = a.idAt(l);
        String idB = b.idAt(l);
        if (idA.equals(idB)) {
          continue;
        }
        int byFill =
            Double.compare(
                rooms.get(key(l, idB)).fillRatio(request),
                rooms.get(key(l, idA)).fillRatio(request));
        return byFill != 0 ? byFill : idA.compareTo(idB);
      }
      return 0;
    };
  }

  private ImmutableMap<String, Double> scores(
      Domain domain, ImmutableMap<String, Double> inheritedScores) {
    return scoresOver(domain.nodes(), domain.level(), inheritedScores);
  }

  /**
   * The preferred-level score of each node of a candidate above the preferred level: its
   * preferred-level sub-domains in tree order, the i-th of n scoring floor((i+1)/n·10) tiers, so
   * the emptiest scores highest. At the preferred level itself every node would score alike, and
   * the scores the enclosing group set stay.
   */
  private ImmutableMap<String, Double> scoresOver(
      List<NodeState> nodes, int level, ImmutableMap<String, Double> inheritedScores) {
    if (preferred.isEmpty() || level >= preferred.get()) {
      return inheritedScores;
    }
    int pref = preferred.get();
    Set<String> inside = new HashSet<>();
    nodes.forEach(n -> inside.add(n.name()));
    List<Domain> subDomains = new ArrayList<>();
    for (Domain d : levels.get(pref)) {
      if (inside.contains(d.nodes().get(0).name())) {
        subDomains.add(d);
      }
    }
    subDomains.sort(treeOrder());
    ImmutableMap.Builder<String, Double> out = ImmutableMap.builder();
    int n = subDomains.size();
    for (int i = 0; i < n; i++) {
      double score = Math.floor((i + 1) * 10.0 / n) * SCORE_TIER;
      for (NodeState node : subDomains.get(i).nodes()) {
        out.put(node.name(), score);
      }
    }
    return out.buildOrThrow();
  }

  private static String key(Domain d) {
    return key(d.level(), d.id());
  }

  private static String key(int level, String id) {
    return level + "/" + id;
  }
}
