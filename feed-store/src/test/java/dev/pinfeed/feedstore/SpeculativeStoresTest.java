package dev.pinfeed.feedstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.StoreUnavailableException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The speculative decorators: writes reach the primary only; reads survive a primary outage, writes do not. */
class SpeculativeStoresTest {

    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final Outage outage = new Outage("hbase-primary");

    private static PoolEntry entry(long user, double score, long pin) {
        return new PoolEntry(user, Source.FOLLOWED_USER, score, pin, 10, 20, 1_767_225_600_000L);
    }

    private static Chunk chunk(long user, long chunkId, long pin) {
        return new Chunk(user, chunkId, List.of(new FeedItem(pin, Source.FOLLOWED_BOARD, 1.5, 10, 20)));
    }

    @Test
    void materializedFeedWritesGoToThePrimaryOnlyAndReadsSurviveItsOutage() {
        InMemoryMaterializedFeedStore primary = new InMemoryMaterializedFeedStore();
        InMemoryMaterializedFeedStore standby = new InMemoryMaterializedFeedStore();
        MaterializedFeedStore store = new SpeculativeMaterializedFeedStore(
                SpeculativeFixtures.inline(outage.wrap(MaterializedFeedStore.class, primary), standby, 0, registry));
        store.materialize(chunk(1, 100, 7));
        store.journal(chunk(1, 200, 8));
        store.saveState(1, new GeneratorState(30, 5));
        store.removePins(1, List.of(99L));
        store.trim(1, 10);
        assertThat(standby.all(1)).isEmpty();
        assertThat(standby.pending(1)).isEmpty();
        assertThat(standby.state(1)).isEmpty();

        // replication, by hand
        standby.materialize(chunk(1, 100, 7));
        standby.saveState(1, new GeneratorState(30, 5));
        outage.start();
        assertThat(store.read(1, null, 10).items()).extracting(p -> p.item().pinId()).containsExactly(7L);
        assertThat(store.all(1)).hasSize(1);
        assertThat(store.pending(1)).as("the journaled chunk had not reached the standby: a stale answer").isEmpty();
        assertThat(store.state(1)).contains(new GeneratorState(30, 5));
        assertThatThrownBy(() -> store.journal(chunk(1, 300, 9))).isInstanceOfSatisfying(StoreUnavailableException.class,
                e -> assertThat(e.store()).isEqualTo("hbase-primary"));
        assertThatThrownBy(() -> store.saveState(1, GeneratorState.initial(5))).isInstanceOf(StoreUnavailableException.class);
        assertThat(registry.find("feed_store_reads_total").tags("cluster", "standby", "outcome", "served").counter().count()).isEqualTo(4);
    }

    @Test
    void onceThePrimaryCountsAsDownWritesFailAtOnceWithoutCallingIt() {
        InMemoryMaterializedFeedStore primary = new InMemoryMaterializedFeedStore();
        InMemoryPoolStore primaryPools = new InMemoryPoolStore();
        MaterializedFeedStore feed = new SpeculativeMaterializedFeedStore(SpeculativeFixtures.inline(
                outage.wrap(MaterializedFeedStore.class, primary), new InMemoryMaterializedFeedStore(), 0, 1, registry));
        PoolStore pools = new SpeculativePoolStore(SpeculativeFixtures.inline(
                outage.wrap(PoolStore.class, primaryPools), new InMemoryPoolStore(), 0, 1, registry));
        feed.journal(chunk(1, 100, 7)); // up: written
        outage.start();
        feed.read(1, null, 10); // one failed read: counted as down (down-after 1)
        pools.best(1, Source.FOLLOWED_USER, 10);
        outage.end();

        // The primary answers again, but until a probe says so writes are not sent to it (they would wait out a timeout when it is dead).
        assertThatThrownBy(() -> feed.journal(chunk(1, 200, 8))).isInstanceOfSatisfying(StoreUnavailableException.class, e -> {
            assertThat(e.store()).isEqualTo("hbase-primary");
            assertThat(e.getMessage()).contains("write not attempted");
        });
        assertThatThrownBy(() -> pools.upsert(List.of(entry(1, 1.0, 9)))).isInstanceOf(StoreUnavailableException.class);
        assertThat(primary.pending(1)).extracting(Chunk::chunkId).containsExactly(100L);
        assertThat(primaryPools.all(1)).isEmpty();
    }

    @Test
    void poolWritesGoToThePrimaryOnlyAndReadsSurviveItsOutage() {
        InMemoryPoolStore primary = new InMemoryPoolStore();
        InMemoryPoolStore standby = new InMemoryPoolStore();
        PoolStore store = new SpeculativePoolStore(SpeculativeFixtures.inline(outage.wrap(PoolStore.class, primary), standby, 0, registry));
        store.upsert(List.of(entry(1, 2.0, 1), entry(1, 1.0, 2)));
        store.upsert(List.of(entry(1, 3.0, 3)), 5, 4);
        store.remove(1, List.of(2L));
        store.remove(Map.of(1L, List.of(99L)));
        store.trim(1, 10);
        assertThat(standby.all(1)).isEmpty();
        assertThat(primary.all(1)).extracting(PoolEntry::pinId).containsExactly(3L, 1L);

        standby.upsert(primary.all(1)); // replication, by hand
        outage.start();
        assertThat(store.best(1, Source.FOLLOWED_USER, 1)).extracting(PoolEntry::pinId).containsExactly(3L);
        assertThat(store.all(1)).hasSize(2);
        assertThatThrownBy(() -> store.upsert(List.of(entry(1, 1.0, 4)), 5, 4)).isInstanceOfSatisfying(StoreUnavailableException.class,
                e -> assertThat(e.store()).isEqualTo("hbase-primary"));
        assertThat(standby.all(1)).hasSize(2);
    }
}
