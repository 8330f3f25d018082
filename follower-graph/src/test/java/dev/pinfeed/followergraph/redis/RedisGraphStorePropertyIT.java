package dev.pinfeed.followergraph.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.followergraph.CommandOutcome;
import dev.pinfeed.followergraph.GraphAssertions;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphModel;
import dev.pinfeed.followergraph.GraphScenarios;
import dev.pinfeed.followergraph.GraphScenarios.Scenario;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import java.util.List;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The property of {@code InMemoryGraphStorePropertyTest} against real Redis (its Lua scripts, its
 * ordering of ties, its HSCAN), fewer tries: each try a fresh key prefix, shards over both instances.
 */
class RedisGraphStorePropertyIT {

    private static RedisShardMap shards;

    @BeforeContainer
    static void attach() {
        shards = RedisShards.defaultShardMap(SharedStack.config());
    }

    @AfterContainer
    static void detach() {
        shards = null;
    }

    @Property(tries = 30)
    void everyQueryMatchesTheModelWhateverTheDeliveryOrder(@ForAll("histories") Scenario scenario) {
        try (GraphStore store = RedisGraphStore.connect(SharedStack.config(), () -> shards,
                SharedStack.keyPrefix("graph-prop"))) {
            GraphModel model = new GraphModel();
            int n = 0;
            for (GraphCommand c : scenario.deliveries()) {
                store.apply(c);
                model.apply(c);
                if (++n == scenario.deliveries().size() / 2) {
                    GraphAssertions.assertSameGraph(model, store, GraphScenarios.USERS, GraphScenarios.boards(), 2);
                }
            }
            GraphAssertions.assertSameGraph(model, store, GraphScenarios.USERS, GraphScenarios.boards(), 2);
        }
    }

    /** The deliveries as a processor's polls deliver them: {@code applyAll} in batches of 1 to 40, pipelined over both instances. */
    @Property(tries = 20)
    void batchesMatchTheModelWhateverTheDeliveryOrder(@ForAll("histories") Scenario scenario, @ForAll @IntRange(min = 1, max = 40) int size) {
        try (GraphStore store = RedisGraphStore.connect(SharedStack.config(), () -> shards,
                SharedStack.keyPrefix("graph-prop"))) {
            GraphModel model = new GraphModel();
            List<GraphCommand> deliveries = scenario.deliveries();
            for (int from = 0; from < deliveries.size(); from += size) {
                List<GraphCommand> batch = deliveries.subList(from, Math.min(deliveries.size(), from + size));
                assertThat(store.applyAll(batch)).allMatch(CommandOutcome::isApplied);
                batch.forEach(model::apply);
            }
            GraphAssertions.assertSameGraph(model, store, GraphScenarios.USERS, GraphScenarios.boards(), 2);
        }
    }

    @Provide
    Arbitrary<Scenario> histories() {
        return GraphScenarios.scenarios(60, 90);
    }
}
