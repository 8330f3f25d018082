package dev.pinfeed.followergraph.sharded;

import dev.pinfeed.followergraph.GraphAssertions;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphModel;
import dev.pinfeed.followergraph.GraphScenarios;
import dev.pinfeed.followergraph.GraphScenarios.Scenario;
import dev.pinfeed.followergraph.GraphStore;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The store's rules and query code (shared with Redis) against the reference model, over random
 * histories delivered in random order with duplicates: after every delivery, every query answers
 * as the model does for what was delivered so far.
 */
class InMemoryGraphStorePropertyTest {

    @Property(tries = 300)
    void everyQueryMatchesTheModelWhateverTheDeliveryOrder(@ForAll("histories") Scenario scenario) {
        GraphStore store = new InMemoryGraphStore();
        GraphModel model = new GraphModel();
        int n = 0;
        for (GraphCommand c : scenario.deliveries()) {
            store.apply(c);
            model.apply(c);
            if (++n % 15 == 0) GraphAssertions.assertSameGraph(model, store, GraphScenarios.USERS, GraphScenarios.boards(), 2);
        }
        GraphAssertions.assertSameGraph(model, store, GraphScenarios.USERS, GraphScenarios.boards(), 2);
    }

    @Property(tries = 100)
    void theModelItselfIgnoresDeliveryOrderAndDuplicates(@ForAll("histories") Scenario scenario) {
        GraphModel inOrder = new GraphModel();
        scenario.events().forEach(inOrder::apply);
        GraphModel shuffled = new GraphModel();
        scenario.deliveries().forEach(shuffled::apply);
        GraphAssertions.assertSameGraph(inOrder, shuffled, GraphScenarios.USERS, GraphScenarios.boards(), 3);
    }

    @Provide
    Arbitrary<Scenario> histories() {
        return GraphScenarios.scenarios(1, 120);
    }
}
