package io.gantry.scheduler.testing;

import io.gantry.gpusharing.GpuGroupView;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.Plugin;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.plugins.PluginRegistry;
import java.util.List;
import java.util.Map;

/** Opens sessions on a snapshot with hand-picked plugins or KAI's default set. */
public final class Sessions {
  private Sessions() {}

  /** A session whose hooks are exactly {@code plugins}, in the given (priority) order. */
  public static Session open(ClusterSnapshot snapshot, Plugin... plugins) {
    return Session.open(snapshot, new PluginHooks(List.of(plugins)));
  }

  /** A session with the registry's default plugins for binpack placement. */
  public static Session openDefault(ClusterSnapshot snapshot) {
    return Session.open(snapshot, new PluginRegistry().build(Map.of(), Placement.DEFAULTS));
  }

  /** What a node holds, as one comparable value. */
  public record NodeView(
      Resources idle, Resources releasing, int podCount, List<GpuGroupView> gpuGroups) {
    public static NodeView of(NodeState n) {
      return new NodeView(n.idle(), n.releasing(), n.podCount(), n.gpuGroups());
    }
  }
}
