package io.gantry.scheduler.framework;

import static io.gantry.scheduler.testing.Jobs.job;
import static io.gantry.scheduler.testing.Nodes.node;
import static io.gantry.scheduler.testing.Queues.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Typed per-cycle values: read what was written under the same key, nothing under another. */
class CycleStateTest {
  private static final StateKey<String> OWNER = new StateKey<>("owner", String.class);
  private static final StateKey<String> OTHER = new StateKey<>("owner", String.class);
  private static final StateKey<Integer> COUNT = new StateKey<>("count", Integer.class);

  @Test
  void keysAreTypedAndCompareByIdentity() {
    CycleState state = new CycleState();
    assertThat(state.read(OWNER)).isEmpty();

    state.write(OWNER, "proportion");
    state.write(COUNT, 3);

    assertThat(state.read(OWNER)).contains("proportion");
    assertThat(state.read(COUNT)).contains(3);
    assertThat(state.read(OTHER)).as("a key with the same name is another key").isEmpty();
  }

  @Test
  void aSecondWriteReplacesTheFirst() {
    CycleState state = new CycleState();
    state.write(COUNT, 1);
    state.write(COUNT, 2);
    assertThat(state.read(COUNT)).contains(2);
  }

  @Test
  void theProportionPluginPublishesFairSharesWhenTheSessionOpens() {
    var snapshot =
        Snapshots.of(
            List.of(node("n1").gpus(4).build()),
            List.of(queue("q").gpu(2, 1, -1).build()),
            List.of(job("j").queue("q").tasks(3, t -> t.gpus(1)).build()));
    Session session = Sessions.openDefault(snapshot);

    FairShares shares = session.state().read(FairShares.KEY).orElseThrow();

    assertThat(shares.fairShare("q").orElseThrow().gpus()).isEqualTo(3);
    assertThat(shares.fairShare("missing")).isEmpty();
  }
}
