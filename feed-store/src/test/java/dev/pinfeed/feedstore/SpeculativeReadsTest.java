package dev.pinfeed.feedstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.StoreUnavailableException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link SpeculativeReads} with a fake clock and scheduler and scripted clusters. Races run on real
 * threads, but nothing measures time: the fake clock decides what is late.
 */
@Timeout(30)
class SpeculativeReadsTest {

    private static final long MS = 1_000_000;

    /** A scripted cluster: each call runs its current behaviour and is counted. */
    static final class Node {
        final String name;
        final AtomicInteger calls = new AtomicInteger();
        volatile Function<String, String> behaviour;

        Node(String name, Function<String, String> behaviour) {
            this.name = name;
            this.behaviour = behaviour;
        }

        String get(String key) {
            calls.incrementAndGet();
            return behaviour.apply(key);
        }
    }

    /** A call that blocks until released, and says when it has started. */
    static final class Gate implements Function<String, String> {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch released = new CountDownLatch(1);
        final String answer;

        Gate(String answer) {
            this.answer = answer;
        }

        @Override
        public String apply(String key) {
            entered.countDown();
            try {
                released.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            if (answer == null) throw new StoreUnavailableException("x", "timed out");
            return answer + ":" + key;
        }
    }

    private final FakeTime time = new FakeTime();
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final Node primary = new Node("hbase-primary", k -> "primary:" + k);
    private final Node standby = new Node("hbase-standby", k -> "standby:" + k);
    private final ExecutorService primaryPool = Executors.newFixedThreadPool(4);
    private final ExecutorService standbyPool = Executors.newFixedThreadPool(4);
    private final ExecutorService callers = Executors.newFixedThreadPool(4);
    private DoubleSupplier random = () -> 0.99;
    private OptionalLong lag = OptionalLong.empty();

    @AfterEach
    void stop() {
        primaryPool.shutdownNow();
        standbyPool.shutdownNow();
        callers.shutdownNow();
    }

    static SpeculativeSettings settings(double warmPercent, int downAfter) {
        return new SpeculativeSettings(Duration.ofMillis(5), Duration.ofMillis(200), 0.9, 1.0, 100, 10, warmPercent, downAfter,
                Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    /** Calls run on the calling thread: no races, for what does not depend on the cutoff timer. */
    private SpeculativeReads<Node> direct(SpeculativeSettings s) {
        return reads(s, Runnable::run, Runnable::run);
    }

    private SpeculativeReads<Node> pooled(SpeculativeSettings s) {
        return reads(s, primaryPool, standbyPool);
    }

    private SpeculativeReads<Node> reads(SpeculativeSettings s, java.util.concurrent.Executor p, java.util.concurrent.Executor b) {
        return new SpeculativeReads<>("test", new SpeculativeReads.Target<>(primary.name, primary, p),
                new SpeculativeReads.Target<>(standby.name, standby, b), s,
                new SpeculativeReads.Environment(time, time, () -> random.getAsDouble()), () -> lag, registry);
    }

    /** Lets the pool's calls finish (and count themselves). */
    private static void quiesce(ExecutorService pool) throws InterruptedException {
        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private static String get(SpeculativeReads<Node> reads, String key) {
        return reads.read(n -> n.get(key));
    }

    private double reads(String cluster, String outcome) {
        var c = registry.find("feed_store_reads_total").tags("store", "test", "cluster", cluster, "outcome", outcome).counter();
        return c == null ? 0 : c.count();
    }

    private double hedges(String reason) {
        var c = registry.find("feed_store_hedges_total").tags("store", "test", "reason", reason).counter();
        return c == null ? 0 : c.count();
    }

    /** A primary that takes {@code ms} of fake time to answer (on the calling thread: run with direct executors). */
    private Function<String, String> takes(long ms) {
        return k -> {
            time.advance(ms * MS);
            return "primary:" + k;
        };
    }

    @Test
    void aSlowPrimaryLosesToTheStandbyExactlyAtTheCutoff() throws Exception {
        SpeculativeReads<Node> reads = pooled(settings(0, 5));
        Gate slow = new Gate("primary");
        primary.behaviour = slow;
        CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> get(reads, "k"), callers);
        slow.entered.await();
        time.awaitScheduled(2); // the deadline and the cutoff
        time.advance(199 * MS);
        assertThat(answer).isNotDone();
        assertThat(standby.calls).hasValue(0);
        time.advance(1 * MS);
        assertThat(answer.get()).isEqualTo("standby:k");
        assertThat(hedges("timeout")).isEqualTo(1);
        quiesce(standbyPool); // the answer is out before its call is counted
        assertThat(reads("standby", "served")).isEqualTo(1);

        slow.released.countDown(); // the primary answers after all: dropped, but its latency is learned
        quiesce(primaryPool);
        assertThat(reads("primary", "discarded")).isEqualTo(1);
        assertThat(reads("primary", "served")).isZero();
    }

    @Test
    void aPrimaryAnsweringWithinTheCutoffIsServedAndTheStandbyIsNeverAsked() {
        SpeculativeReads<Node> reads = direct(settings(0, 5));
        assertThat(get(reads, "a")).isEqualTo("primary:a");
        assertThat(standby.calls).hasValue(0);
        assertThat(reads("primary", "served")).isEqualTo(1);
        assertThat(hedges("timeout") + hedges("error") + hedges("primary-down")).isZero();
    }

    @Test
    void aFailingPrimaryGoesToTheStandbyAtOnce() {
        SpeculativeReads<Node> reads = direct(settings(0, 5));
        primary.behaviour = k -> {
            throw new StoreUnavailableException("hbase-primary", "connection refused");
        };
        lag = OptionalLong.of(250);
        assertThat(get(reads, "a")).isEqualTo("standby:a");
        assertThat(hedges("error")).isEqualTo(1);
        assertThat(reads("primary", "error")).isEqualTo(1);
        assertThat(reads("standby", "served")).isEqualTo(1);
        var staleness = registry.find("feed_store_standby_staleness_seconds").summary();
        assertThat(staleness.count()).isEqualTo(1);
        assertThat(staleness.totalAmount()).isEqualTo(0.25);
    }

    @Test
    void aPrimaryWhosePoolIsFullCountsAsFailed() {
        SpeculativeReads<Node> reads = reads(settings(0, 5), r -> {
            throw new RejectedExecutionException("full");
        }, Runnable::run);
        assertThat(get(reads, "a")).isEqualTo("standby:a");
        assertThat(primary.calls).hasValue(0);
        assertThat(hedges("error")).isEqualTo(1);
    }

    @Test
    void whenBothFailTheErrorNamesBothClusters() {
        SpeculativeReads<Node> reads = direct(settings(0, 5));
        primary.behaviour = k -> {
            throw new StoreUnavailableException("hbase-primary", "connection refused");
        };
        standby.behaviour = k -> {
            throw new StoreUnavailableException("hbase-standby", "region server down");
        };
        assertThatThrownBy(() -> get(reads, "a"))
                .isInstanceOfSatisfying(StoreUnavailableException.class, e -> {
                    assertThat(e.store()).isEqualTo("hbase-primary,hbase-standby");
                    assertThat(e.getMessage()).contains("connection refused").contains("region server down");
                    assertThat(e.getSuppressed()).hasSize(1);
                });
        assertThat(reads("standby", "error")).isEqualTo(1);
    }

    @Test
    void aBugOnBothClustersStaysABug() {
        SpeculativeReads<Node> reads = direct(settings(0, 5));
        primary.behaviour = k -> {
            throw new IllegalArgumentException("bad key " + k);
        };
        standby.behaviour = primary.behaviour;
        assertThatThrownBy(() -> get(reads, "a")).isInstanceOf(IllegalArgumentException.class).hasMessage("bad key a");
    }

    @Test
    void theStandbysAnswerWinsWhenThePrimaryFailsAfterTheCutoffAndTheStandbyWasStillBusy() throws Exception {
        SpeculativeReads<Node> reads = pooled(settings(0, 5));
        Gate p = new Gate(null); // fails when released
        Gate s = new Gate("standby");
        primary.behaviour = p;
        standby.behaviour = s;
        CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> get(reads, "k"), callers);
        p.entered.await();
        time.awaitScheduled(2);
        time.advance(200 * MS);
        s.entered.await();
        p.released.countDown();
        quiesce(primaryPool);
        assertThat(answer).isNotDone(); // the primary failed, the standby is still working: wait for it
        s.released.countDown();
        assertThat(answer.get()).isEqualTo("standby:k");
        assertThat(hedges("timeout")).isEqualTo(1);
        assertThat(hedges("error")).isZero(); // one hedge per read
    }

    @Test
    void aReadNeitherClusterAnswersFailsAtTheDeadline() throws Exception {
        SpeculativeReads<Node> reads = pooled(settings(0, 5));
        Gate p = new Gate("primary");
        Gate s = new Gate("standby");
        primary.behaviour = p;
        standby.behaviour = s;
        CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> get(reads, "k"), callers);
        p.entered.await();
        time.awaitScheduled(2);
        time.advance(200 * MS);
        s.entered.await();
        time.advance(1_799 * MS);
        assertThat(answer).isNotDone();
        time.advance(1 * MS);
        assertThatThrownBy(answer::join).hasCauseInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("hbase-primary,hbase-standby").hasMessageContaining("2000 ms");
        p.released.countDown();
        s.released.countDown();
    }

    @Test
    void theCutoffIsTheCeilingUntilEnoughLatenciesAreKnownThenFollowsTheirQuantile() {
        SpeculativeReads<Node> reads = direct(settings(0, 5));
        var gauge = registry.find("feed_store_speculative_cutoff_seconds").gauge();
        assertThat(reads.cutoffNanos()).isEqualTo(200 * MS);
        for (int i = 1; i <= 9; i++) {
            primary.behaviour = takes(i * 10L);
            get(reads, "k");
        }
        assertThat(reads.cutoffNanos()).as("9 samples: still warming up").isEqualTo(200 * MS);
        for (int i = 1; i <= 100; i++) {
            primary.behaviour = takes(i);
            get(reads, "k");
        }
        assertThat(reads.cutoffNanos()).as("p90 of 1..100 ms").isEqualTo(90 * MS);
        assertThat(gauge.value()).isEqualTo(0.09);
        primary.behaviour = takes(1);
        for (int i = 0; i < 100; i++) get(reads, "k");
        assertThat(reads.cutoffNanos()).as("1 ms everywhere: the floor").isEqualTo(5 * MS);
        primary.behaviour = takes(1_000);
        for (int i = 0; i < 100; i++) get(reads, "k");
        assertThat(reads.cutoffNanos()).as("1 s everywhere: the ceiling").isEqualTo(200 * MS);
    }

    @Test
    void theMarginLiftsTheCutoffAboveTheQuantile() {
        SpeculativeSettings s = settings(0, 5);
        SpeculativeReads<Node> reads = direct(new SpeculativeSettings(s.floor(), s.ceiling(), s.quantile(), 1.5, s.window(),
                s.warmupSamples(), 0, 5, s.probeInterval(), s.deadline()));
        primary.behaviour = takes(40);
        for (int i = 0; i < 20; i++) get(reads, "k");
        assertThat(reads.cutoffNanos()).isEqualTo(60 * MS);
    }

    @Test
    void aShareOfReadsAlsoGoesToTheStandbyAndItsAnswerIsDropped() {
        Deque<Double> draws = new ArrayDeque<>(List.of(0.005, 0.5, 0.0099, 0.01));
        random = draws::pop;
        SpeculativeReads<Node> reads = direct(settings(1.0, 5)); // 1 %: draws below 0.01
        for (int i = 0; i < 4; i++) assertThat(get(reads, "k")).isEqualTo("primary:k");
        assertThat(standby.calls).hasValue(2);
        assertThat(registry.find("feed_store_warmups_total").counter().count()).isEqualTo(2);
        assertThat(reads("standby", "discarded")).isEqualTo(2);
        assertThat(reads("primary", "served")).isEqualTo(4);
        assertThat(hedges("timeout") + hedges("error")).isZero();
    }

    @Test
    void aWarmUpReadInFlightServesWhenThePrimaryFailsWithoutASecondStandbyCall() {
        random = () -> 0.0;
        SpeculativeReads<Node> reads = direct(settings(1.0, 5));
        primary.behaviour = k -> {
            throw new StoreUnavailableException("hbase-primary", "down");
        };
        assertThat(get(reads, "k")).isEqualTo("standby:k");
        assertThat(standby.calls).hasValue(1);
        assertThat(reads("standby", "served")).isEqualTo(1);
        assertThat(reads("standby", "discarded")).isZero();
    }

    @Test
    void aPrimaryThatKeepsFailingIsSkippedButProbedOncePerIntervalUntilItAnswers() {
        SpeculativeReads<Node> reads = direct(settings(0, 3));
        primary.behaviour = k -> {
            throw new StoreUnavailableException("hbase-primary", "down");
        };
        for (int i = 0; i < 3; i++) assertThat(get(reads, "k")).isEqualTo("standby:k");
        assertThat(reads.primaryDown()).isTrue();
        assertThat(primary.calls).hasValue(3);

        assertThat(get(reads, "k")).isEqualTo("standby:k"); // the first probe
        assertThat(primary.calls).hasValue(4);
        for (int i = 0; i < 10; i++) assertThat(get(reads, "k")).isEqualTo("standby:k");
        assertThat(primary.calls).as("no probe within the interval").hasValue(4);
        assertThat(hedges("primary-down")).isEqualTo(11);

        primary.behaviour = k -> "primary:" + k; // recovers
        time.advance(999 * MS);
        get(reads, "k");
        assertThat(primary.calls).hasValue(4);
        time.advance(1 * MS);
        get(reads, "k"); // the probe answers: the primary is up again
        assertThat(primary.calls).hasValue(5);
        assertThat(reads.primaryDown()).isFalse();
        assertThat(get(reads, "k")).isEqualTo("primary:k");
        assertThat(primary.calls).hasValue(6);
    }

    @Test
    void whenThePrimaryIsDownAndTheStandbyFailsTheErrorNamesBoth() {
        SpeculativeReads<Node> reads = direct(settings(0, 1));
        primary.behaviour = k -> {
            throw new StoreUnavailableException("hbase-primary", "down");
        };
        get(reads, "k");
        get(reads, "k"); // the probe
        standby.behaviour = k -> {
            throw new StoreUnavailableException("hbase-standby", "down too");
        };
        assertThatThrownBy(() -> get(reads, "k")).isInstanceOfSatisfying(StoreUnavailableException.class,
                e -> assertThat(e.store()).isEqualTo("hbase-primary,hbase-standby"));
    }

    @Test
    void primaryCallsThatMissTheCutoffAlsoCountItDown() throws Exception {
        SpeculativeReads<Node> reads = pooled(settings(0, 2));
        for (int i = 0; i < 2; i++) {
            Gate hung = new Gate("primary");
            primary.behaviour = hung;
            CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> get(reads, "k"), callers);
            hung.entered.await();
            time.awaitScheduled(2); // earlier reads' timers went with their answers
            time.advance(200 * MS);
            assertThat(answer.get()).isEqualTo("standby:k");
        }
        assertThat(reads.primaryDown()).isTrue();
        assertThat(hedges("timeout")).isEqualTo(2);
    }

    @Test
    void aPrimaryCountedDownIsStillAskedWhenTheStandbyFailsToo() {
        SpeculativeReads<Node> reads = direct(settings(0, 2));
        primary.behaviour = k -> {
            throw new StoreUnavailableException("hbase-primary", "overloaded");
        };
        for (int i = 0; i < 2; i++) assertThat(get(reads, "k")).isEqualTo("standby:k");
        get(reads, "k"); // the probe, failing: the primary stays down until the next interval
        assertThat(reads.primaryDown()).isTrue();
        int asked = primary.calls.get();

        primary.behaviour = k -> "primary:" + k; // it keeps up again, but counts as down until its next probe
        standby.behaviour = k -> {
            throw new StoreUnavailableException("hbase-standby", "no free caller thread");
        };
        assertThat(get(reads, "k")).as("served by the primary, not a 503").isEqualTo("primary:k");
        assertThat(primary.calls).as("asked once, as a last resort").hasValue(asked + 1);
        assertThat(reads.primaryDown()).as("its answer clears the strikes").isFalse();
    }

    /** A cluster just killed can hang a call for the client's timeouts: the primary, though counted down, answers instead. */
    @Test
    void aPrimaryCountedDownIsAskedAfterAllWhenTheStandbyHasNotAnsweredWithinTheCutoff() throws Exception {
        SpeculativeReads<Node> reads = pooled(settings(0, 2));
        AtomicInteger failing = new AtomicInteger(3); // its first 3 calls fail, whenever they run: down after 2, then the probe
        primary.behaviour = k -> {
            if (failing.getAndDecrement() > 0) throw new StoreUnavailableException("hbase-primary", "overloaded");
            return "primary:" + k;
        };
        for (int i = 0; i < 3; i++) assertThat(get(reads, "k")).isEqualTo("standby:k");
        long patience = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (primary.calls.get() < 3 && System.nanoTime() < patience) Thread.sleep(1); // the probe may run after its read was answered
        assertThat(primary.calls).hasValue(3);
        assertThat(reads.primaryDown()).isTrue();
        int asked = primary.calls.get();

        Gate hung = new Gate("standby");
        standby.behaviour = hung;
        CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> get(reads, "k"), callers);
        hung.entered.await();
        time.awaitScheduled(2); // the deadline and the cutoff
        time.advance(199 * MS);
        assertThat(answer).isNotDone();
        assertThat(primary.calls).as("not asked before the cutoff").hasValue(asked);
        time.advance(1 * MS);
        assertThat(answer.get(10, TimeUnit.SECONDS)).as("served by the primary, not held until the deadline").isEqualTo("primary:k");
        assertThat(primary.calls).hasValue(asked + 1);
        assertThat(reads.primaryDown()).as("its answer clears the strikes").isFalse();
        hung.released.countDown();
    }
}
