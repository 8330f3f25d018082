package dev.pinfeed.followergraph.sharded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.followergraph.CommandOutcome;
import dev.pinfeed.followergraph.GraphAssertions;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphCommand.CreateBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowInterest;
import dev.pinfeed.followergraph.GraphCommand.FollowUser;
import dev.pinfeed.followergraph.GraphCommand.UnfollowBoard;
import dev.pinfeed.followergraph.GraphCommand.UnfollowUser;
import dev.pinfeed.followergraph.GraphModel;
import dev.pinfeed.followergraph.GraphScenarios;
import dev.pinfeed.followergraph.GraphScenarios.Scenario;
import dev.pinfeed.followergraph.UserRelation;
import dev.pinfeed.redisshards.VirtualShards;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@code applyAll} (the write protocol in pipelined phases) against one-by-one {@code apply} and the
 * reference model, over {@link MemoryBackend} split into two instances ({@code a}: virtual shards
 * 0-4095, {@code b}: the rest) so a batch's phases run two pipelines in parallel, and either can be down.
 */
class BatchWritesTest {

    /** Two instances over one memory store; an instance in {@link #down} refuses every call. */
    static final class TwoInstances extends ForwardingBackend {
        final Set<String> down = ConcurrentHashMap.newKeySet();
        final AtomicInteger batchCalls = new AtomicInteger();

        TwoInstances() {
            super(new MemoryBackend());
        }

        @Override
        public String instanceOf(int shard) {
            return shard < VirtualShards.COUNT / 2 ? "a" : "b";
        }

        private void call(String instance) {
            batchCalls.incrementAndGet();
            if (down.contains(instance)) throw new StoreUnavailableException(instance, "connection refused");
        }

        @Override
        public List<Long> claimOwners(String instance, List<OwnerClaim> claims) {
            call(instance);
            return super.claimOwners(instance, claims);
        }

        @Override
        public List<PairRead> casRegisters(String instance, List<ShardCas> requests) {
            call(instance);
            return super.casRegisters(instance, requests);
        }

        @Override
        public List<Boolean> applyAll(String instance, List<Write> writes) {
            call(instance);
            return super.applyAll(instance, writes);
        }
    }

    private static ShardedGraphStore store(GraphBackend backend) {
        return new ShardedGraphStore(backend, new GraphKeys("")) {};
    }

    /** An id whose virtual shard is on instance {@code a} (first half) or {@code b}, from {@code from} up. */
    private static long idOn(String instance, long from) {
        long id = from;
        while ((VirtualShards.of(id) < VirtualShards.COUNT / 2) != instance.equals("a")) id++;
        return id;
    }

    @Property(tries = 200)
    void batchesOfAnySizeEndAsTheModelWhateverTheDeliveryOrder(@ForAll("histories") Scenario scenario, @ForAll("sizes") List<Integer> sizes) {
        ShardedGraphStore batched = store(new TwoInstances());
        GraphModel model = new GraphModel();
        List<GraphCommand> deliveries = scenario.deliveries();
        int from = 0;
        for (int k = 0; from < deliveries.size(); k++) {
            List<GraphCommand> batch = deliveries.subList(from, Math.min(deliveries.size(), from + sizes.get(k % sizes.size())));
            assertThat(batched.applyAll(batch)).allMatch(CommandOutcome::isApplied);
            batch.forEach(model::apply);
            from += batch.size();
        }
        GraphAssertions.assertSameGraph(model, batched, GraphScenarios.USERS, GraphScenarios.boards(), 2);
    }

    @Provide
    Arbitrary<Scenario> histories() {
        return GraphScenarios.scenarios(1, 120);
    }

    @Provide
    Arbitrary<List<Integer>> sizes() {
        return Arbitraries.integers().between(1, 60).list().ofMinSize(1).ofMaxSize(5);
    }

    @Test
    void aBatchOfOnePairsWholeHistoryInAnyOrderEndsAsOneByOneInThatOrder() {
        long a = idOn("a", 1_000), b = idOn("b", 1_000), x = idOn("a", 5_000), y = idOn("b", 5_000);
        List<GraphCommand> history = List.of(new CreateBoard(1, 1, x, b), new CreateBoard(2, 2, y, b), new FollowUser(3, 3, a, b),
                new UnfollowBoard(4, 4, a, x, b), new FollowBoard(5, 5, a, y, b), new UnfollowUser(6, 6, a, b),
                new FollowUser(7, 7, a, b), new UnfollowBoard(8, 8, a, y, b), new FollowBoard(9, 9, a, x, b), new FollowUser(3, 3, a, b));
        for (List<GraphCommand> order : List.of(history, reversed(history), rotated(history, 4))) {
            ShardedGraphStore batched = store(new TwoInstances());
            ShardedGraphStore oneByOne = store(new TwoInstances());
            assertThat(batched.applyAll(order)).allMatch(CommandOutcome::isApplied);
            order.forEach(oneByOne::apply);
            GraphAssertions.assertSameGraph(oneByOne, batched, List.of(a, b), List.of(x, y), 1);
            assertThat(batched.relation(a, b)).isEqualTo(UserRelation.EXPLICIT);
            assertThat(batched.followsBoard(a, x)).isTrue();
            assertThat(batched.followsBoard(a, y)).as("unfollowed after the newest user follow").isFalse();
        }
    }

    @Test
    void aBatchIsThreeCallsPerInstanceWhateverItsSize() {
        TwoInstances backend = new TwoInstances();
        ShardedGraphStore graph = store(backend);
        List<GraphCommand> batch = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            long owner = 10_000 + i;
            batch.add(new CreateBoard(3L * i + 1, i, 50_000 + i, owner));
            batch.add(new FollowBoard(3L * i + 2, i, 20_000 + i, 50_000 + i, owner));
            batch.add(new FollowUser(3L * i + 3, i, 20_000 + i, 30_000 + i));
        }
        assertThat(graph.applyAll(batch)).allMatch(CommandOutcome::isApplied);
        assertThat(backend.batchCalls.get()).as("claims, registers, sides: one call per instance each").isEqualTo(6);
        assertThat(graph.followsBoard(20_007, 50_007)).isTrue();
    }

    @Test
    void anInstanceDownFailsOnlyTheCommandsWritingToItAndTheirRetryCompletesThem() {
        long a1 = idOn("a", 1_000), a2 = idOn("a", a1 + 1), a3 = idOn("a", a2 + 1), b1 = idOn("b", 1_000), b2 = idOn("b", b1 + 1);
        long xa = idOn("a", 9_000), xb = idOn("b", 9_000);
        TwoInstances backend = new TwoInstances();
        ShardedGraphStore graph = store(backend);
        List<GraphCommand> batch = List.of(
                new FollowUser(1, 1, a1, a2), // a only
                new FollowUser(2, 2, a1, b1), // register on a, followee side on b
                new FollowUser(3, 3, b1, a1), // register on b
                new CreateBoard(4, 4, xa, a3), // claim and entry on a
                new CreateBoard(5, 5, xb, a3), // claim on b
                new FollowBoard(6, 6, a2, xa, a3), // a only
                new FollowInterest(7, 7, a1, idOn("b", 70_000)), // interest side on b
                new FollowUser(8, 8, b2, b1)); // b only
        backend.down.add("b");

        List<CommandOutcome> outcomes = graph.applyAll(batch);

        assertThat(outcomes).extracting(CommandOutcome::isApplied).containsExactly(true, false, false, true, false, true, false, false);
        assertThat(outcomes).filteredOn(o -> !o.isApplied()).allSatisfy(o -> {
            assertThat(o.isUnavailable()).isTrue();
            assertThat(((StoreUnavailableException) o.failure()).store()).isEqualTo("b");
        });
        assertThat(graph.relation(a1, a2)).isEqualTo(UserRelation.EXPLICIT);
        assertThat(graph.followsBoard(a2, xa)).isTrue();
        assertThat(graph.relation(a1, b1)).as("the follower's side is written, the followee's is not yet").isEqualTo(UserRelation.EXPLICIT);

        backend.down.clear();
        List<GraphCommand> retried = new ArrayList<>();
        for (CommandOutcome o : outcomes) if (!o.isApplied()) retried.add(o.command());
        assertThat(graph.applyAll(retried)).allMatch(CommandOutcome::isApplied);

        ShardedGraphStore oneByOne = store(new TwoInstances());
        batch.forEach(oneByOne::apply);
        GraphAssertions.assertSameGraph(oneByOne, graph, List.of(a1, a2, a3, b1, b2), List.of(xa, xb), 2);
        assertThat(graph.counts(b1).explicitFollowers()).isEqualTo(2);
    }

    private static <T> List<T> reversed(List<T> list) {
        List<T> out = new ArrayList<>(list);
        java.util.Collections.reverse(out);
        return out;
    }

    private static <T> List<T> rotated(List<T> list, int by) {
        List<T> out = new ArrayList<>(list);
        java.util.Collections.rotate(out, by);
        return out;
    }

}
