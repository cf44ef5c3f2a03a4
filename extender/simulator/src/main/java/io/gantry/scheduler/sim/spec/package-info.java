/**
 * Scenario files for {@code gantry simulate}: {@link io.gantry.scheduler.sim.spec.ScenarioLoader}
 * reads one (YAML or JSON) into an immutable, validated {@link
 * io.gantry.scheduler.sim.spec.ScenarioSpec}, following {@code docs/scenario-format.md}.
 *
 * <p>Loading is two steps: kube-model's {@code YamlTreeReader} turns the document into a tree of
 * values that remember their lines, then the binders ({@code ScenarioBinder} and one per section,
 * with kube-model's binders for the configuration, DRA objects, affinity and tolerations) read that
 * tree by hand, tracking the field path. Every problem, whether syntax, unknown field, type, range
 * or a reference to something that does not exist, becomes a {@link
 * io.gantry.kubemodel.read.ScenarioException} of the form {@code file:line: field: problem}.
 *
 * <p>The records keep what the file says, not what the scheduler will make of it: optional fields
 * stay empty rather than taking defaults that belong to the engine, and each record keeps the lines
 * of its fields so that later stages can point at a setting they do not support.
 */
package io.gantry.scheduler.sim.spec;
