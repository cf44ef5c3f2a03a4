package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.read.UniqueNames;
import java.util.List;

/** Binds the {@code topologies} section. */
final class TopologyBinder {
  private static final ImmutableSet<String> KEYS = ImmutableSet.of("name", "levels");
  private static final ImmutableSet<String> LEVEL_KEYS = ImmutableSet.of("nodeLabel", "alias");

  private TopologyBinder() {}

  static List<TopologySpec> bind(List<Field> items) throws ScenarioException {
    ImmutableList.Builder<TopologySpec> topologies = ImmutableList.builder();
    UniqueNames names = new UniqueNames("topology");
    for (Field item : items) {
      MapReader topology = item.asMap(KEYS);
      Field nameField = topology.required("name");
      String name = nameField.asNonEmptyString();
      names.add(nameField, name);
      Field levelsField = topology.required("levels");
      List<Field> levelItems = levelsField.asList();
      if (levelItems.isEmpty()) {
        throw levelsField.error("must list at least one level");
      }
      ImmutableList.Builder<TopologyLevelSpec> levels = ImmutableList.builder();
      UniqueNames labels = new UniqueNames("level nodeLabel");
      for (Field levelItem : levelItems) {
        MapReader level = levelItem.asMap(LEVEL_KEYS);
        Field labelField = level.required("nodeLabel");
        String nodeLabel = labelField.asNonEmptyString();
        labels.add(labelField, nodeLabel);
        levels.add(new TopologyLevelSpec(nodeLabel, level.optString("alias")));
      }
      topologies.add(new TopologySpec(name, levels.build(), topology.line()));
    }
    return topologies.build();
  }
}
