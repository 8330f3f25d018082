package dev.pinfeed.feedstore.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.feedstore.Chunk;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.FeedPage;
import dev.pinfeed.feedstore.GeneratorState;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.MaterializedFeedStoreContract;
import dev.pinfeed.feedstore.Outage;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.PoolStoreContract;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.SpeculativeMaterializedFeedStore;
import dev.pinfeed.feedstore.SpeculativeReads;
import dev.pinfeed.feedstore.SpeculativeSettings;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The speculative stores over the shared stack's real primary and standby HBase clusters: the store
 * contracts (every read also asking the standby), and a primary taken away from this reader only
 * (failing or hanging in front of it, the shared server untouched) while the standby, replicated,
 * keeps answering.
 */
@ExtendWith(StackExtension.class)
class SpeculativeHBaseStoresIT {

    private static TestStack stack;
    private static Connection primary;
    private static Connection standby;
    private static SpeculativeHBaseStores stores;
    private static HBaseLayout layout;

    private static Connection on(String cluster) {
        return cluster.equals(HBaseClusters.STANDBY) ? standby : primary;
    }
    private static final MeterRegistry CONTRACT_METERS = new SimpleMeterRegistry();

    static SpeculativeSettings settings(double warmPercent) {
        return settings(warmPercent, SpeculativeSettings.defaults().deadline());
    }

    /**
     * The defaults with {@code warmPercent} and {@code deadline}. The outage test below sets a 30 s deadline (the default is
     * 3 s), far from the 200 ms cutoff: a read answered by the hedge at the cutoff and one that waits for the deadline are then
     * seconds apart even on a loaded box, and a slow standby read does not fail the call.
     */
    static SpeculativeSettings settings(double warmPercent, Duration deadline) {
        SpeculativeSettings d = SpeculativeSettings.defaults();
        return new SpeculativeSettings(d.floor(), d.ceiling(), d.quantile(), d.margin(), d.window(), d.warmupSamples(), warmPercent,
                d.downAfter(), d.probeInterval(), deadline);
    }

    /** The outage test's deadline: what a read that is not answered by the standby in time waits (and then fails). */
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    /** A read answered by the standby, at the cutoff (200 ms) or at once: 50 times the cutoff, a third of the deadline. */
    private static final long ANSWERED_WITHIN_MS = 10_000;

    @BeforeAll
    static void connect(TestStack s) {
        stack = s;
        primary = HBaseClusters.connect(s.config(), HBaseClusters.PRIMARY);
        standby = HBaseClusters.connect(s.config(), HBaseClusters.STANDBY);
        layout = HBaseLayout.from(s.config());
        stores = SpeculativeHBaseStores.over(primary, standby, layout, settings(100), Duration.ofMillis(200), CONTRACT_METERS);
    }

    @AfterAll
    static void close() throws Exception {
        stores.close();
        primary.close();
        standby.close();
    }

    @Nested
    class Pools extends PoolStoreContract {
        @Override
        protected PoolStore store() {
            return stores.pools();
        }

        @Override
        protected long freshUser() {
            return stack.freshId();
        }
    }

    @Nested
    class Materialized extends MaterializedFeedStoreContract {
        @Override
        protected MaterializedFeedStore store() {
            return stores.materializedFeed();
        }

        @Override
        protected long freshUser() {
            return stack.freshId();
        }
    }

    @Test
    void theContractsAlsoReadTheStandbyAndTheLagIsMeasured() {
        long u = stack.freshId();
        stores.pools().upsert(List.of(new PoolEntry(u, Source.FOLLOWED_USER, 1.0, 1, 2, 3, 4)));
        assertThat(stores.pools().all(u)).hasSize(1);
        assertThat(CONTRACT_METERS.find("feed_store_warmups_total").tag("store", "pools").counter().count()).isPositive();
        await().atMost(Duration.ofSeconds(20)).until(() -> stores.replicaLag().millis().isPresent());
        // The first measurement is about one 0.2 s tick (the stack replicates within ~0.1 s): the bound leaves a loaded box
        // seconds of slack and still fails a lag in the wrong unit (µs, ns) or an absolute time instead of an age.
        long lagMs = stores.replicaLag().millis().getAsLong();
        System.out.printf("materialized feed's standby lag first measured at %d ms%n", lagMs);
        assertThat(lagMs).as("the stack replicates within ~0.1 s; a tick is 0.2 s").isBetween(0L, 30_000L);
        // The pools' heartbeat goes the other way when the stages are split (home: the pools' cluster).
        await().atMost(Duration.ofSeconds(20)).until(() -> stores.replicaLag(HBaseStage.POOLS).millis().isPresent());
        long poolsLagMs = stores.replicaLag(HBaseStage.POOLS).millis().getAsLong();
        System.out.printf("pools' standby lag first measured at %d ms (%s)%n", poolsLagMs, layout);
        assertThat(poolsLagMs).isBetween(0L, 30_000L);
        // Both arrive, so neither heartbeat stays unseen: within seconds each lag is back to a tick or so, not growing.
        await().atMost(Duration.ofSeconds(30)).until(() -> stores.replicaLag().millis().getAsLong() < 5_000
                && stores.replicaLag(HBaseStage.POOLS).millis().getAsLong() < 5_000);
    }

    @Test
    void whenThePrimaryFailsOrHangsForThisReaderTheReplicatedStandbyAnswersWithinTheCutoff() throws Exception {
        long u = stack.freshId();
        // The materialized feed's "primary" is its home cluster (hbase-standby in the split layout), its standby the other.
        String home = layout.home(HBaseStage.MATERIALIZED);
        String other = layout.standbyOf(HBaseStage.MATERIALIZED);
        HBaseMaterializedFeedStore onPrimary = new HBaseMaterializedFeedStore(on(home), home);
        HBaseMaterializedFeedStore onStandby = new HBaseMaterializedFeedStore(on(other), other);
        Chunk chunk = new Chunk(u, 100, List.of(new FeedItem(11, Source.FOLLOWED_USER, 2.5, 7, 8), new FeedItem(12, Source.FOLLOWED_BOARD, 1.0, 7, 9)));
        onPrimary.materialize(chunk);
        onPrimary.saveState(u, new GeneratorState(40, 1_767_225_600_000L));
        long written = System.nanoTime();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> onStandby.read(u, null, 10).items().size() == 2 && onStandby.state(u).isPresent());
        System.out.printf("standby had the feed %d ms after the primary%n", (System.nanoTime() - written) / 1_000_000);

        MeterRegistry meters = new SimpleMeterRegistry();
        Outage outage = new Outage(home);
        ExecutorService primaryCalls = Executors.newFixedThreadPool(8);
        ExecutorService standbyCalls = Executors.newFixedThreadPool(8);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        HBaseReplicaLag lag = new HBaseReplicaLag(HBaseStage.MATERIALIZED, on(home), on(other), System::currentTimeMillis);
        try {
            SpeculativeReads<MaterializedFeedStore> reads = new SpeculativeReads<>("materialized_feed",
                    new SpeculativeReads.Target<>(home, outage.wrap(MaterializedFeedStore.class, onPrimary), primaryCalls),
                    new SpeculativeReads.Target<>(other, onStandby, standbyCalls), settings(0, DEADLINE),
                    new SpeculativeReads.Environment(System::nanoTime, SpeculativeReads.Scheduler.of(timer),
                            () -> ThreadLocalRandom.current().nextDouble()), lag, meters);
            MaterializedFeedStore store = new SpeculativeMaterializedFeedStore(reads);
            lag.tick();
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
                lag.tick();
                return lag.millis().isPresent();
            });
            assertThat(pins(store.read(u, null, 10))).as("healthy: the primary").containsExactly(11L, 12L);

            outage.stall(); // hangs: answered at the cutoff (the ceiling, 200 ms: nothing learned yet)
            long t0 = System.nanoTime();
            assertThat(pins(store.read(u, null, 10))).containsExactly(11L, 12L);
            long stalledMs = (System.nanoTime() - t0) / 1_000_000;
            // Not before the cutoff (timers never fire early), and long before the deadline: answered by the hedge.
            assertThat(stalledMs).as("stalled primary: answered at the 200 ms cutoff, not at the %s deadline", DEADLINE)
                    .isBetween(190L, ANSWERED_WITHIN_MS);
            assertThat(count(meters, "feed_store_hedges_total", "reason", "timeout")).isEqualTo(1);
            outage.end(); // the stalled call goes on and answers late: dropped, and it counts the primary up again
            await().atMost(Duration.ofSeconds(30)).until(() -> count(meters, "feed_store_reads_total", "cluster", "primary", "outcome", "discarded") == 1);

            outage.start(); // fails: answered at once
            for (int i = 0; i < 10; i++) {
                long t1 = System.nanoTime();
                assertThat(store.state(u)).contains(new GeneratorState(40, 1_767_225_600_000L));
                // At once: the hedge on the error (the counts below say which path); never the deadline.
                assertThat((System.nanoTime() - t1) / 1_000_000).as("failing primary: the standby's answer (ms), not the %s deadline", DEADLINE)
                        .isLessThan(ANSWERED_WITHIN_MS);
            }
            assertThat(reads.primaryDown()).isTrue();
            assertThat(count(meters, "feed_store_hedges_total", "reason", "error")).isEqualTo(5);
            assertThat(count(meters, "feed_store_hedges_total", "reason", "primary-down")).isEqualTo(5);
            assertThat(count(meters, "feed_store_reads_total", "cluster", "standby", "outcome", "served")).isEqualTo(11);
            assertThat(meters.find("feed_store_standby_staleness_seconds").summary().count()).isEqualTo(11);
            assertThatThrownBy(() -> store.saveState(u, GeneratorState.initial(5))).isInstanceOfSatisfying(StoreUnavailableException.class,
                    e -> assertThat(e.store()).isEqualTo(home));
            System.out.printf("stalled primary: standby answered after %d ms; standby staleness last measured %s ms%n", stalledMs,
                    lag.millis());

            outage.end(); // back: the next probe (one per second) finds it
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
                store.state(u);
                return !reads.primaryDown();
            });
        } finally {
            outage.end();
            primaryCalls.shutdownNow();
            standbyCalls.shutdownNow();
            timer.shutdownNow();
        }
    }

    private static List<Long> pins(FeedPage page) {
        return page.items().stream().map(p -> p.item().pinId()).toList();
    }

    private static double count(MeterRegistry meters, String name, String... tags) {
        var c = meters.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }
}
