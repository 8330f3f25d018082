package dev.pinfeed.feedservice;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.ReadPressure;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Watches how long home-feed pages take and raises the {@link ReadPressure} (the feed worker then paces its pool
 * writes) for {@link Settings#hold} after each second in which at least {@link Settings#slowShare} of the pages took
 * longer than {@link Settings#slowMillis}. Seconds with fewer than {@link Settings#minPages} pages say nothing. At most
 * one raise a second, made by the page that ends the second; a raise that fails is counted and the page is served
 * all the same. Meters: {@code feed_read_pressure_raises_total{outcome="raised"|"failed"}}. Thread-safe.
 */
final class SlowPages {

    /**
     * @param slowMillis a page slower than this is slow ({@code feed.read-pressure.slow-page-ms}, 50); 0 turns the watch off
     * @param slowShare  the share of a second's pages that raises ({@code feed.read-pressure.slow-percent}, 2 %)
     * @param minPages   fewer pages in a second say nothing ({@code feed.read-pressure.min-pages}, 20)
     * @param hold       how long a raise lasts ({@code feed.read-pressure.hold-ms}, 3 000)
     */
    record Settings(long slowMillis, double slowShare, int minPages, Duration hold) {

        Settings {
            if (slowMillis < 0) throw new IllegalArgumentException("feed.read-pressure.slow-page-ms must be 0 (off) or more: " + slowMillis);
            if (!(slowShare > 0 && slowShare <= 1)) {
                throw new IllegalArgumentException("feed.read-pressure.slow-percent must be above 0 and at most 100: " + slowShare * 100);
            }
        }

        static Settings from(PinfeedConfig config) {
            return new Settings(config.getInt("feed.read-pressure.slow-page-ms", 50),
                    Double.parseDouble(config.get("feed.read-pressure.slow-percent", "2")) / 100, config.getInt("feed.read-pressure.min-pages", 20),
                    Duration.ofMillis(config.getInt("feed.read-pressure.hold-ms", 3_000)));
        }

        boolean off() {
            return slowMillis == 0;
        }
    }

    private static final long SECOND = 1_000_000_000L;

    private final ReadPressure pressure;
    private final Settings settings;
    private final LongSupplier nanos;
    private final long slowNanos;
    private final AtomicLong secondStart;
    private final LongAdder pages = new LongAdder();
    private final LongAdder slow = new LongAdder();
    private final Counter raised;
    private final Counter failed;

    SlowPages(ReadPressure pressure, Settings settings, LongSupplier nanos, MeterRegistry meters) {
        this.pressure = pressure;
        this.settings = settings;
        this.nanos = nanos;
        this.slowNanos = settings.slowMillis() * 1_000_000;
        this.secondStart = new AtomicLong(nanos.getAsLong());
        this.raised = raises(meters, "raised");
        this.failed = raises(meters, "failed");
    }

    /** The watch {@code config} sets, raising {@code pressure}, on the system's nanosecond clock. */
    static SlowPages from(PinfeedConfig config, ReadPressure pressure, MeterRegistry meters) {
        return new SlowPages(pressure, Settings.from(config), System::nanoTime, meters);
    }

    private static Counter raises(MeterRegistry meters, String outcome) {
        return Counter.builder("feed.read.pressure.raises").description("Seconds of slow home-feed pages that raised the read pressure.")
                .tag("outcome", outcome).register(meters);
    }

    /** Now, on this watch's clock: what a page's {@link #served} is given. */
    long start() {
        return nanos.getAsLong();
    }

    /** A page that started at {@code startNanos} ({@link #start}) is done. */
    void served(long startNanos) {
        if (settings.off()) return;
        long now = nanos.getAsLong();
        pages.increment();
        if (now - startNanos > slowNanos) slow.increment();
        long began = secondStart.get();
        if (now - began < SECOND || !secondStart.compareAndSet(began, now)) return;
        // This page ends the second: the one thread that won the swap judges it (pages counted meanwhile go to the next).
        long n = pages.sumThenReset();
        long s = slow.sumThenReset();
        if (n < settings.minPages() || s < settings.slowShare() * n) return;
        try {
            pressure.raise(settings.hold());
            raised.increment();
        } catch (RuntimeException e) {
            failed.increment(); // readers are served all the same; the worker keeps its pace
        }
    }
}
