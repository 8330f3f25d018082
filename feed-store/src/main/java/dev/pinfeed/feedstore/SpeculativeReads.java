package dev.pinfeed.feedstore;

import dev.pinfeed.config.StoreUnavailableException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Seed 002's speculative execution over a primary and a hot standby holding a replica of the same
 * data: a read goes to the primary; if it fails, or has not answered within the cutoff, it also goes
 * to the standby; the first successful answer wins, the other is dropped. Only when both fail does
 * the read fail, with a {@link StoreUnavailableException} naming both clusters.
 *
 * <p>The cutoff is learned, not configured: the primary's {@link SpeculativeSettings#quantile}
 * latency (p99.9) over its last {@link SpeculativeSettings#window} answers, times a margin, within a
 * floor and a ceiling (the ceiling until enough answers are known). So about one read in a thousand
 * is answered by the standby while the primary is healthy, and a read never waits much longer than
 * the primary's slowest normal answer. A share of reads ({@link SpeculativeSettings#warmPercent}) also
 * go to the standby and their answers are dropped: a standby read only on failure would find cold
 * caches and connections just when it is needed.
 *
 * <p>After {@link SpeculativeSettings#downAfter} primary calls in a row failed or missed the cutoff,
 * the primary counts as down: reads go to the standby at once, without waiting the cutoff, and one
 * read per {@link SpeculativeSettings#probeInterval} also goes to the primary (its answer may still
 * win); its first success counts it up again. A read the standby has not answered within the cutoff, or
 * that it failed, asks the primary after all: the roles swapped, not one cluster left alone.
 *
 * <p>Reads only: the standby is a replica, written by replication alone. Calls run on the injected
 * executors (one per cluster, so a hung primary that fills its pool cannot delay standby calls: a
 * rejected call counts as a failure); time and chance come from the injected clock, scheduler and
 * random source.
 *
 * @param <S> what a read runs against (a store of each cluster)
 */
public final class SpeculativeReads<S> {

    /** Runs a task after a delay; returns what cancels it. */
    @FunctionalInterface
    public interface Scheduler {
        Runnable schedule(Runnable task, long delayNanos);

        static Scheduler of(ScheduledExecutorService executor) {
            return (task, delayNanos) -> {
                var f = executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
                return () -> f.cancel(false);
            };
        }
    }

    /** One cluster: its configured name (as {@link StoreUnavailableException} names it), its store, the executor its calls run on. */
    public record Target<S>(String name, S store, Executor calls) {}

    /** Time and chance: a monotonic nanosecond clock, a scheduler on the same clock, uniform doubles in [0, 1). */
    public record Environment(LongSupplier nanoTime, Scheduler scheduler, DoubleSupplier random) {}

    /** Why a read went to the standby. */
    enum Reason {
        TIMEOUT("timeout"), ERROR("error"), PRIMARY_DOWN("primary-down");

        final String tag;

        Reason(String tag) {
            this.tag = tag;
        }
    }

    private final Target<S> primary;
    private final Target<S> standby;
    private final SpeculativeSettings settings;
    private final Environment env;
    private final ReplicaLag lag;
    private final LatencyWindow latencies;
    private final int recomputeEvery;
    private volatile long cutoffNanos;
    private final AtomicInteger strikes = new AtomicInteger();
    private final AtomicLong nextProbeNanos;

    private final Meter.MeterProvider<Counter> reads;
    private final Meter.MeterProvider<Counter> hedges;
    private final Counter warmups;
    private final DistributionSummary staleness;

    /**
     * @param store the tag {@code store} of this instance's meters (e.g. {@code materialized_feed}, {@code pools}): one instance per
     *              kind of store, as their latencies differ
     */
    public SpeculativeReads(String store, Target<S> primary, Target<S> standby, SpeculativeSettings settings, Environment env,
                            ReplicaLag lag, MeterRegistry registry) {
        this.primary = primary;
        this.standby = standby;
        this.settings = settings;
        this.env = env;
        this.lag = lag;
        this.latencies = new LatencyWindow(settings.window());
        this.recomputeEvery = Math.max(1, Math.min(128, settings.window() / 64));
        this.cutoffNanos = settings.ceiling().toNanos();
        this.nextProbeNanos = new AtomicLong(env.nanoTime().getAsLong());
        this.reads = Counter.builder("feed_store_reads_total")
                .description("HBase reads by cluster and outcome: served (its answer was returned), discarded (answered, but the other "
                        + "cluster's answer was used, or a warm-up read), error")
                .tag("store", store).withRegistry(registry);
        this.hedges = Counter.builder("feed_store_hedges_total")
                .description("Reads sent to the standby, by reason: timeout (no primary answer within the cutoff), error (the primary "
                        + "failed), primary-down (the primary counts as down: straight to the standby)")
                .tag("store", store).withRegistry(registry);
        this.warmups = Counter.builder("feed_store_warmups_total").description("Reads also sent to the standby to keep it warm, answer dropped")
                .tag("store", store).register(registry);
        Gauge.builder("feed_store_speculative_cutoff_seconds", this, r -> r.cutoffNanos / 1e9)
                .description("How long a read waits for the primary before it also asks the standby").tag("store", store).register(registry);
        this.staleness = DistributionSummary.builder("feed_store_standby_staleness_seconds")
                .description("How far the standby was behind the primary (last replication lag measured) when it served a read")
                .baseUnit("seconds").tag("store", store).register(registry);
    }

    /** Runs {@code read} speculatively: the primary's answer, or the standby's when the primary fails or is late. */
    public <T> T read(Function<? super S, ? extends T> read) {
        Call<T> call = new Call<>(read);
        call.start();
        try {
            Answer<T> answer = call.result.get();
            // Counted here, before returning, so a caller that looks at the meters after a read sees it.
            reads.withTags("cluster", answer.fromStandby() ? "standby" : "primary", "outcome", "served").increment();
            if (answer.fromStandby()) {
                OptionalLong behind = lag.millis();
                if (behind.isPresent()) staleness.record(behind.getAsLong() / 1000.0);
            }
            return answer.value();
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException(bothNames(), "interrupted while waiting for a read", e);
        }
    }

    /** The primary's store: where writes go (the standby is a replica, written by replication only). */
    public S primary() {
        return primary.store();
    }

    /**
     * Runs a write on the primary, or fails at once with {@link StoreUnavailableException} naming it while it
     * counts as down ({@link #primaryDown()}): a write to a dead primary otherwise waits out the client's
     * operation timeout (10 s), and the home feed journals on the request thread (measured: reads timing out
     * during a primary outage, fault-tests' FeedReadsDuringHBaseOutageIT). Callers already retry or fall back.
     */
    public <T> T write(Function<? super S, ? extends T> write) {
        if (primaryDown()) {
            throw new StoreUnavailableException(primary.name(), "counted as down by the speculative reads: write not attempted", null);
        }
        return write.apply(primary.store());
    }

    /** The current cutoff, in nanoseconds. */
    public long cutoffNanos() {
        return cutoffNanos;
    }

    /** Whether the primary counts as down (its last {@link SpeculativeSettings#downAfter} calls failed or missed the cutoff). */
    public boolean primaryDown() {
        return strikes.get() >= settings.downAfter();
    }

    private String bothNames() {
        return primary.name() + "," + standby.name();
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof CompletionException && t.getCause() != null) t = t.getCause();
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }

    private void recordLatency(long nanos) {
        latencies.record(nanos);
        long n = latencies.count();
        if (n >= settings.warmupSamples() && (n % recomputeEvery == 0 || n == settings.warmupSamples())) {
            long q = latencies.quantile(settings.quantile());
            long c = (long) Math.min(Long.MAX_VALUE, q * settings.margin());
            cutoffNanos = Math.max(settings.floor().toNanos(), Math.min(settings.ceiling().toNanos(), c));
        }
    }

    /** Whether this call should probe a primary that counts as down: one call per probe interval. */
    private boolean probeDue() {
        long now = env.nanoTime().getAsLong();
        long due = nextProbeNanos.get();
        return now - due >= 0 && nextProbeNanos.compareAndSet(due, now + settings.probeInterval().toNanos());
    }

    private record Answer<T>(T value, boolean fromStandby) {}

    /** One read: its primary and standby calls, and the answer they race to give. */
    private final class Call<T> {
        final Function<? super S, ? extends T> read;
        final CompletableFuture<Answer<T>> result = new CompletableFuture<>();
        final AtomicBoolean hedged = new AtomicBoolean();
        final AtomicBoolean standbyStarted = new AtomicBoolean();
        final AtomicBoolean standbySettled = new AtomicBoolean();
        final AtomicBoolean struck = new AtomicBoolean();
        /** Whether the primary was called in this read (not when it counts as down, between probes). */
        final AtomicBoolean primaryAsked = new AtomicBoolean();
        volatile Throwable primaryError;
        volatile boolean standbyDone;
        volatile T standbyValue;
        volatile Throwable standbyError;

        Call(Function<? super S, ? extends T> read) {
            this.read = read;
        }

        void start() {
            Runnable deadline = env.scheduler().schedule(() -> result.completeExceptionally(new StoreUnavailableException(bothNames(),
                    "no answer from either cluster within " + settings.deadline().toMillis() + " ms")), settings.deadline().toNanos());
            result.whenComplete((v, e) -> deadline.run());
            if (primaryDown()) {
                boolean probe = probeDue();
                if (!probe) primaryError = new StoreUnavailableException(primary.name(), "counted as down: its last "
                        + settings.downAfter() + " calls failed or missed the cutoff; not asked");
                hedge(Reason.PRIMARY_DOWN);
                if (probe) {
                    startPrimary();
                } else if (!result.isDone()) {
                    // The standby first, and the primary after all when the standby has not answered within the cutoff: a
                    // primary counted down only for being slow may be the one that answers, and a standby that hangs (a
                    // cluster just killed) would otherwise hold the read until the deadline, as measured in
                    // FeedReadsDuringHBaseOutageIT (one next page in 3 430 answered 503 after the other cluster's kill).
                    Runnable timer = env.scheduler().schedule(this::askPrimaryAfterAll, cutoffNanos);
                    result.whenComplete((v, e) -> timer.run());
                }
                return;
            }
            if (settings.warmPercent() > 0 && env.random().getAsDouble() * 100 < settings.warmPercent()) {
                warmups.increment();
                startStandby();
            }
            long cutoff = cutoffNanos;
            startPrimary();
            if (!result.isDone()) {
                Runnable timer = env.scheduler().schedule(() -> {
                    if (result.isDone()) return;
                    strike();
                    hedge(Reason.TIMEOUT);
                }, cutoff);
                result.whenComplete((v, e) -> timer.run());
            }
        }

        /** Asks a primary that counts as down and was not asked in this read, unless the read is answered or it was asked meanwhile. */
        void askPrimaryAfterAll() {
            synchronized (this) { // with failIfBothFailed: the "not asked" error goes exactly when the primary is asked
                if (result.isDone() || primaryAsked.get()) return;
                primaryError = null;
                primaryAsked.set(true);
            }
            startPrimary();
        }

        void startPrimary() {
            primaryAsked.set(true);
            long started = env.nanoTime().getAsLong();
            try {
                primary.calls().execute(() -> {
                    T value;
                    try {
                        value = read.apply(primary.store());
                    } catch (Throwable t) {
                        onPrimaryFailed(t);
                        return;
                    }
                    onPrimaryAnswered(value, env.nanoTime().getAsLong() - started);
                });
            } catch (RuntimeException rejected) { // a full pool: the primary is not keeping up
                onPrimaryFailed(new StoreUnavailableException(primary.name(), "no free caller thread: " + rejected, rejected));
            }
        }

        void onPrimaryAnswered(T value, long nanos) {
            recordLatency(nanos);
            strikes.set(0);
            if (!result.complete(new Answer<>(value, false))) reads.withTags("cluster", "primary", "outcome", "discarded").increment();
            if (standbyDone) settleStandby();
        }

        void onPrimaryFailed(Throwable t) {
            primaryError = t;
            reads.withTags("cluster", "primary", "outcome", "error").increment();
            strike();
            hedge(Reason.ERROR);
            failIfBothFailed();
        }

        void strike() {
            if (struck.compareAndSet(false, true)) strikes.incrementAndGet();
        }

        void hedge(Reason reason) {
            if (result.isDone() || !hedged.compareAndSet(false, true)) return;
            hedges.withTags("reason", reason.tag).increment();
            startStandby();
            if (standbyDone) settleStandby();
        }

        void startStandby() {
            if (!standbyStarted.compareAndSet(false, true)) return;
            try {
                standby.calls().execute(() -> {
                    try {
                        standbyValue = read.apply(standby.store());
                    } catch (Throwable t) {
                        standbyError = t;
                    }
                    standbyDone = true;
                    if (hedged.get() || result.isDone()) settleStandby();
                });
            } catch (RuntimeException rejected) {
                standbyError = new StoreUnavailableException(standby.name(), "no free caller thread: " + rejected, rejected);
                standbyDone = true;
                if (hedged.get()) settleStandby();
            }
        }

        /** Once the standby answered and its answer is wanted (hedged) or moot (answered already): serve or count it. */
        void settleStandby() {
            if (!standbySettled.compareAndSet(false, true)) return;
            if (standbyError != null) {
                reads.withTags("cluster", "standby", "outcome", "error").increment();
                failIfBothFailed();
                return;
            }
            boolean served = hedged.get() && result.complete(new Answer<>(standbyValue, true));
            if (!served) reads.withTags("cluster", "standby", "outcome", "discarded").increment();
        }

        synchronized void failIfBothFailed() {
            Throwable p = primaryError;
            Throwable s = standbyError;
            if (p == null || s == null || !standbySettled.get() || result.isDone()) return;
            if (!primaryAsked.get()) {
                // The primary only counts as down (slow or failing lately) and was not asked; the standby failed
                // too (measured: its caller pool full under overload, 27 of ~3 000 reads answered 503). Ask the
                // primary after all, as a last resort, before answering that both clusters failed.
                askPrimaryAfterAll();
                return;
            }
            RuntimeException failure;
            if (p instanceof StoreUnavailableException || p instanceof CompletionException) {
                failure = new StoreUnavailableException(bothNames(), "both clusters failed: " + p.getMessage() + "; " + s.getMessage(), p);
            } else if (p instanceof RuntimeException bug) { // not an outage: a bug or bad input, the same on both clusters
                failure = bug;
            } else {
                failure = new IllegalStateException(p);
            }
            if (failure != s) failure.addSuppressed(s);
            result.completeExceptionally(failure);
        }
    }
}
