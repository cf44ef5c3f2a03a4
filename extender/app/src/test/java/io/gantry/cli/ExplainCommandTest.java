package io.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * {@code gantry explain} and {@code gantry queues} on scenario files: each of the four situations
 * users ask about states the facts that answer them.
 */
class ExplainCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String scenario(String name) throws URISyntaxException {
    return Path.of(
            Objects.requireNonNull(ExplainCommandTest.class.getResource("/explain/" + name))
                .toURI())
        .toString();
  }

  private static JsonNode explain(String file, String job) throws Exception {
    CliRunner run = CliRunner.run("explain", scenario(file), job, "--output", "json");
    assertThat(run.exitCode()).as(run.err()).isZero();
    return JSON.readTree(run.out());
  }

  private static List<String> texts(JsonNode array, String field) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(field.isEmpty() ? n.asText() : n.path(field).asText()));
    return out;
  }

  @Test
  void aGangThatCannotFitSaysHowManyMembersFitAndWhatTheNodesLack() throws Exception {
    JsonNode e = explain("gang-cannot-fit.yaml", "train");

    assertThat(e.path("job").asText()).isEqualTo("default/train");
    assertThat(e.path("status").asText()).isEqualTo("3 Pending");
    assertThat(e.at("/gang/minMember").asLong()).isEqualTo(3);
    assertThat(e.at("/gang/membersFit").asLong()).isEqualTo(2);
    assertThat(e.at("/holdBack/kind").asText()).isEqualTo("NODES");
    assertThat(e.path("reasons").get(0).path("reason").asText())
        .isEqualTo("node(s) didn't have enough resources: GPUs");
    assertThat(e.path("reasons").get(0).path("nodes").asLong()).isEqualTo(2);
    // each node holds one 4-GPU worker: the gang needs three
    assertThat(texts(e.path("closestNodes"), "node")).containsExactly("node-0", "node-1");
    assertThat(e.at("/closestNodes/0/tasksFit").asLong()).isEqualTo(1);
    assertThat(e.path("fitMessage").asText())
        .contains("Resources were found for 2 pods while 3 are required for gang scheduling");
    assertThat(texts(e.path("evictions"), "placesJob")).containsExactly("false", "false");
  }

  @Test
  void aJobOverItsQueuesLimitNamesTheLimitAndTheAmounts() throws Exception {
    JsonNode e = explain("over-limit.yaml", "big");

    assertThat(e.at("/holdBack/kind").asText()).isEqualTo("LIMIT");
    assertThat(e.at("/holdBack/queue").asText()).isEqualTo("team-a");
    assertThat(e.at("/holdBack/sentence").asText())
        .isEqualTo(
            "team-a quota has reached the allowable limit of GPUs. Limit is 4 GPUs, currently 2"
                + " GPUs allocated and workload requested 4 GPUs");
    assertThat(e.at("/queues/0/name").asText()).isEqualTo("team-a");
    assertThat(e.at("/queues/0/limit/gpus").asDouble()).isEqualTo(4);
    assertThat(e.at("/queues/0/allocated/gpus").asDouble()).isEqualTo(2);
    assertThat(e.at("/queues/0/quota/gpus").asDouble()).isEqualTo(2);
    // the node has room: only the limit holds it back
    assertThat(e.at("/closestNodes/0/tasksFit").asLong()).isEqualTo(1);
  }

  @Test
  void aJobBehindAnotherQueueInFairShareOrderSaysWhereItIsAndWhy() throws Exception {
    JsonNode e = explain("behind-in-fair-share.yaml", "b-more");

    assertThat(e.path("globalPosition").asInt()).isEqualTo(2);
    assertThat(e.path("globalLength").asInt()).isEqualTo(2);
    assertThat(e.path("queuePosition").asInt()).isEqualTo(1);
    assertThat(e.at("/holdBack/kind").asText()).isEqualTo("FAIR_SHARE");
    assertThat(e.at("/holdBack/queue").asText()).isEqualTo("team-b");
    assertThat(e.at("/holdBack/sentence").asText())
        .startsWith(
            "queue team-b holds 6 GPUs and this job asks 2 GPUs more, over its fair share of 6 GPUs");
    assertThat(e.at("/queues/0/fairShare/gpus").asDouble()).isEqualTo(6);

    CliRunner order =
        CliRunner.run("queues", scenario("behind-in-fair-share.yaml"), "--output", "json");
    assertThat(order.exitCode()).as(order.err()).isZero();
    JsonNode queues = JSON.readTree(order.out()).path("queues");
    assertThat(texts(queues, "name")).containsExactly("team-a", "team-b");
    assertThat(texts(queues.get(0).path("firstPending"), "")).containsExactly("default/a-job");
    assertThat(queues.get(1).path("pendingJobs").asInt()).isEqualTo(1);
  }

  @Test
  void aJobReclaimWouldPlaceNamesTheVictimsAsHypothetical() throws Exception {
    JsonNode e = explain("reclaim-would-place.yaml", "b-train");

    assertThat(e.path("status").asText()).isEqualTo("1 Pending");
    JsonNode reclaim = e.path("evictions").get(0);
    assertThat(reclaim.path("action").asText()).isEqualTo("reclaim");
    assertThat(reclaim.path("hypothetical").asBoolean()).isTrue();
    assertThat(reclaim.path("placesJob").asBoolean()).isTrue();
    // team A's two newest jobs, as the reclaim example evicts them
    assertThat(texts(reclaim.path("victims"), "job")).containsExactly("default/a-7", "default/a-6");
    JsonNode preempt = e.path("evictions").get(1);
    assertThat(preempt.path("action").asText()).isEqualTo("preempt");
    assertThat(preempt.path("placesJob").asBoolean()).isFalse();
  }

  @Test
  void textNamesThePlaceTheRuleAndTheHypotheticalVictims() throws Exception {
    CliRunner run =
        CliRunner.run("explain", scenario("reclaim-would-place.yaml"), "pod/b-train-run");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .startsWith("Job default/b-train (queue team-b): 1 Pending\n")
        .contains("Place in the allocation order: 1 of 1 overall, 1 of 1 in queue team-b\n")
        .contains("(hypothetical, nothing applied)")
        .contains(
            "  reclaim: would place the job by evicting default/a-7 (pod default/a-7/run on"
                + " node-0), default/a-6 (pod default/a-6/run on node-0)\n");
  }

  @Test
  void anUnknownJobIsBadInputInOneLine() throws Exception {
    CliRunner run = CliRunner.run("explain", scenario("over-limit.yaml"), "nope");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo("error: no job or pod nope among the jobs this scheduler schedules\n");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void aMissingScenarioIsBadInputInOneLine() {
    CliRunner run = CliRunner.run("explain", "no-such-file.yaml", "job");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).startsWith("error: ").doesNotContain("\tat ");
    assertThat(run.err().lines().count()).isEqualTo(1);
  }
}
