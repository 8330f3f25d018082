package dev.pinfeed.graphprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.followergraph.GraphAssertions;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphModel;
import dev.pinfeed.followergraph.GraphScenarios;
import dev.pinfeed.followergraph.GraphScenarios.Scenario;
import dev.pinfeed.followergraph.redis.RedisGraphStore;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The graph the live processor builds from the topics equals the one a rebuild makes by replaying
 * them into an empty prefix — and both equal the reference model of the valid events.
 */
@ExtendWith(StackExtension.class)
class GraphRebuildIT {

    @Test
    void aRebuildFromTheTopicsGivesTheGraphTheLiveProcessorBuilt(TestStack stack) throws Exception {
        Scenario scenario = GraphScenarios.scenarios(250, 300).sample(); // jqwik's sampling works outside properties
        long offset = stack.freshId();
        List<GraphCommand> deliveries = scenario.deliveries().stream().map(c -> GraphScenarios.shifted(c, offset)).toList();
        List<Long> users = GraphScenarios.USERS.stream().map(u -> u + offset).toList();
        List<Long> boards = GraphScenarios.boards().stream().map(b -> b + offset).toList();
        Supplier<RedisShardMap> shards = () -> RedisShards.defaultShardMap(stack.config());
        GraphModel model = new GraphModel();
        deliveries.forEach(model::apply);

        try (KafkaFixtures kafka = new KafkaFixtures(stack);
             RedisGraphStore live = RedisGraphStore.connect(stack.config(), shards, stack.keyPrefix("graph-live"));
             RedisGraphStore rebuilt = RedisGraphStore.connect(stack.config(), shards, stack.keyPrefix("graph-rebuilt"))) {
            int half = deliveries.size() / 2;
            for (GraphCommand c : deliveries.subList(0, half)) kafka.publish(c);
            kafka.publishRaw(kafka.follows, "1".getBytes(StandardCharsets.UTF_8), new byte[] {0, 0, 0});
            RunningProcessor processor = new RunningProcessor(kafka, live);
            try (processor) {
                for (GraphCommand c : deliveries.subList(half, deliveries.size())) kafka.publish(c); // while it runs
                await().atMost(Duration.ofSeconds(90)).untilAsserted(() ->
                        assertThat(processor.records()).isEqualTo(deliveries.size() + 1));
            }
            assertThat(processor.deadLettered()).isEqualTo(1);

            assertThat(rebuilt.isEmpty()).isTrue();
            GraphRebuild.Result result = GraphRebuild.replay(stack.config(), List.of(kafka.follows, kafka.boards),
                    kafka.decoder(), rebuilt, 4);

            assertThat(result.records()).isEqualTo(deliveries.size() + 1);
            assertThat(result.rejected()).isEqualTo(Map.of(DeadLetters.UNDECODABLE, 1L));
            assertThat(result.stopped()).isFalse();
            GraphAssertions.assertSameGraph(live, rebuilt, users, boards, 3);
            GraphAssertions.assertSameGraph(model, live, users, boards, 3);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nscenario (ids before offset " + offset + "): " + scenario, e);
        }
    }
}
