package dev.pinfeed.fanoutstreams;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.eventsschema.DecodeLimits;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.followergraph.GraphStore;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The fan-out's knobs, all from {@link PinfeedConfig} ({@code fanout.*}; docs/operations.md lists them).
 *
 * @param chunkSize      receivers per FanoutChunk at most ({@code fanout.chunk-size})
 * @param activeDays     receivers who have not read their feed for this many days get no ADD; 0 = everyone ({@code fanout.active-days})
 * @param stepsPerTurn   chunk steps one punctuation may take per task, over all its jobs ({@code fanout.steps-per-turn})
 * @param turnMaxMillis  a punctuation starts no new step after this long ({@code fanout.turn-max-ms})
 * @param interval       wall-clock time between punctuations ({@code fanout.punctuate-ms})
 * @param readsPerStep   pages one step may absorb when inactive receivers thin them out ({@code fanout.reads-per-step})
 * @param bugAttempts    steps of one job failing with an unexpected error before it is dead-lettered
 * @param threads        Kafka Streams threads ({@code fanout.threads})
 * @param fetchThreads   threads reading graph pages and last reads ahead of the turns ({@code fanout.fetch-threads})
 * @param readAheadPages pages one job may have read or in flight ahead of its turns ({@code fanout.read-ahead-pages}), so
 *                       one turn can send several of a big fan-out's chunks; 4 by default: a 100 k pin's chunks were out in
 *                       ~1 s against ~3 s at 1, its next pins were in their pools in 2.1-2.2 s against 2.5 s (medians of 9),
 *                       and small pins during it fared no worse (docs/benchmarks.md, "Design choices, measured"). 1 holds a fan-out to
 *                       one chunk per turn: the choice when the worker cannot keep up with its chunks.
 * @param decodeLimits   what one input event may make the decoder allocate ({@code events.decode.*}, as every processor)
 * @param celebrityFollowers an author with at least this many followers ({@code Counts.followers()}: explicit and through
 *                       boards) is a celebrity: his new pins are recorded for readers to pull, not fanned out
 *                       ({@code fanout.celebrity-followers}, 10 000; 0: nobody is)
 * @param popularInterestFollowers an interest with at least this many followers is popular: the pins carrying it are recorded
 *                       for its followers to pull, not fanned out to them ({@code fanout.popular-interest-followers}, 10 000; 0:
 *                       none is)
 */
public record FanoutSettings(String applicationId, String inputTopic, String outputTopic, String deadLetterTopic,
                             int chunkSize, int activeDays, int stepsPerTurn, long turnMaxMillis, Duration interval,
                             int readsPerStep, int bugAttempts, int threads, int fetchThreads, int readAheadPages, Path stateDir,
                             DecodeLimits decodeLimits, long celebrityFollowers, long popularInterestFollowers) {

    public static final String APPLICATION_ID = "pinfeed-fanout";

    public FanoutSettings {
        if (chunkSize < 1 || chunkSize > GraphStore.MAX_PAGE) {
            throw new IllegalArgumentException("fanout.chunk-size must be 1.." + GraphStore.MAX_PAGE + " (a graph page): " + chunkSize);
        }
        if (activeDays < 0) throw new IllegalArgumentException("fanout.active-days must be 0 (everyone) or more: " + activeDays);
        if (stepsPerTurn < 1) throw new IllegalArgumentException("fanout.steps-per-turn must be at least 1: " + stepsPerTurn);
        // It is also the stream thread's poll time (FanoutTopology): 0 would make an idle thread spin.
        if (interval.toMillis() < 1) throw new IllegalArgumentException("fanout.punctuate-ms must be at least 1: " + interval.toMillis());
        if (readsPerStep < 1) throw new IllegalArgumentException("fanout.reads-per-step must be at least 1: " + readsPerStep);
        if (fetchThreads < 1) throw new IllegalArgumentException("fanout.fetch-threads must be at least 1: " + fetchThreads);
        if (readAheadPages < 1) throw new IllegalArgumentException("fanout.read-ahead-pages must be at least 1: " + readAheadPages);
        if (celebrityFollowers < 0) throw new IllegalArgumentException("fanout.celebrity-followers must be 0 (off) or more: " + celebrityFollowers);
        if (popularInterestFollowers < 0) {
            throw new IllegalArgumentException("fanout.popular-interest-followers must be 0 (off) or more: " + popularInterestFollowers);
        }
    }

    /** True when an interest with {@code followers} followers is popular (pulled at read time, not fanned out). */
    public boolean popularInterest(long followers) {
        return popularInterestFollowers > 0 && followers >= popularInterestFollowers;
    }

    /** True when an author with {@code followers} followers is a celebrity (pulled at read time, not fanned out). */
    public boolean celebrity(long followers) {
        return celebrityFollowers > 0 && followers >= celebrityFollowers;
    }

    /** {@code activeDays} in milliseconds: how long after his last read a receiver still gets ADDs (0: the policy is off). */
    public long activityWindowMillis() {
        return activeDays * 86_400_000L;
    }

    /** Where this application keeps its {@link KnownActiveUsers} between runs, beside its Kafka Streams state. */
    public Path knownActiveFile() {
        return stateDir.resolve(applicationId + ".known-active");
    }

    /**
     * The production defaults: 1000 receivers a chunk, 30 active days, 20 steps or 200 ms a turn every
     * 20 ms. A turn holds the stream thread (no input is read meanwhile), so its time bound is what a
     * small pin waits behind a big fan-out; a step costs ~30-200 ms here (a graph page, a multi-Get).
     * The interval paces a big fan-out (at most one chunk per page read ahead per turn) and a small
     * pin's wait for its turn: at 100 ms a 100 k fan-out took 11-16 s to send its chunks, at 20 ms
     * 9 s, for ~3 % of a core more while idle (docs/benchmarks.md).
     */
    public static FanoutSettings defaults() {
        return new FanoutSettings(APPLICATION_ID, EventTopics.PINS, EventTopics.FANOUT, DeadLetters.TOPIC, 1000, 30, 20, 200,
                Duration.ofMillis(20), 4, 3, 1, 4, 4, Path.of(System.getProperty("java.io.tmpdir"), "pinfeed-fanout-streams"),
                DecodeLimits.DEFAULTS, 10_000, 10_000);
    }

    public static FanoutSettings from(PinfeedConfig config) {
        FanoutSettings d = defaults();
        return new FanoutSettings(
                config.get("fanout.application-id", d.applicationId()),
                config.get("fanout.input-topic", d.inputTopic()),
                config.get("fanout.output-topic", d.outputTopic()),
                config.get("fanout.dead-letter-topic", DeadLetters.topic(config)),
                config.getInt("fanout.chunk-size", d.chunkSize()),
                config.getInt("fanout.active-days", d.activeDays()),
                config.getInt("fanout.steps-per-turn", d.stepsPerTurn()),
                config.getInt("fanout.turn-max-ms", (int) d.turnMaxMillis()),
                Duration.ofMillis(config.getInt("fanout.punctuate-ms", (int) d.interval().toMillis())),
                config.getInt("fanout.reads-per-step", d.readsPerStep()),
                d.bugAttempts(),
                config.getInt("fanout.threads", d.threads()),
                config.getInt("fanout.fetch-threads", d.fetchThreads()),
                config.getInt("fanout.read-ahead-pages", d.readAheadPages()),
                Path.of(config.get("fanout.state-dir", d.stateDir().toString())),
                DecodeLimits.from(config),
                config.getInt("fanout.celebrity-followers", (int) d.celebrityFollowers()),
                config.getInt("fanout.popular-interest-followers", (int) d.popularInterestFollowers()));
    }

    public FanoutSettings withChunkSize(int size) {
        return new FanoutSettings(applicationId, inputTopic, outputTopic, deadLetterTopic, size, activeDays, stepsPerTurn,
                turnMaxMillis, interval, readsPerStep, bugAttempts, threads, fetchThreads, readAheadPages, stateDir, decodeLimits, celebrityFollowers, popularInterestFollowers);
    }

    public FanoutSettings withActiveDays(int days) {
        return new FanoutSettings(applicationId, inputTopic, outputTopic, deadLetterTopic, chunkSize, days, stepsPerTurn,
                turnMaxMillis, interval, readsPerStep, bugAttempts, threads, fetchThreads, readAheadPages, stateDir, decodeLimits, celebrityFollowers, popularInterestFollowers);
    }

    public FanoutSettings withStepsPerTurn(int steps) {
        return new FanoutSettings(applicationId, inputTopic, outputTopic, deadLetterTopic, chunkSize, activeDays, steps,
                turnMaxMillis, interval, readsPerStep, bugAttempts, threads, fetchThreads, readAheadPages, stateDir, decodeLimits, celebrityFollowers, popularInterestFollowers);
    }

    public FanoutSettings withReadAheadPages(int pages) {
        return new FanoutSettings(applicationId, inputTopic, outputTopic, deadLetterTopic, chunkSize, activeDays, stepsPerTurn,
                turnMaxMillis, interval, readsPerStep, bugAttempts, threads, fetchThreads, pages, stateDir, decodeLimits, celebrityFollowers, popularInterestFollowers);
    }

    public FanoutSettings withTopics(String applicationId, String input, String output, String deadLetters) {
        return new FanoutSettings(applicationId, input, output, deadLetters, chunkSize, activeDays, stepsPerTurn,
                turnMaxMillis, interval, readsPerStep, bugAttempts, threads, fetchThreads, readAheadPages, stateDir, decodeLimits, celebrityFollowers, popularInterestFollowers);
    }

    public FanoutSettings withCelebrityFollowers(long followers) {
        return new FanoutSettings(applicationId, inputTopic, outputTopic, deadLetterTopic, chunkSize, activeDays, stepsPerTurn,
                turnMaxMillis, interval, readsPerStep, bugAttempts, threads, fetchThreads, readAheadPages, stateDir, decodeLimits, followers, popularInterestFollowers);
    }

    public FanoutSettings withPopularInterestFollowers(long followers) {
        return new FanoutSettings(applicationId, inputTopic, outputTopic, deadLetterTopic, chunkSize, activeDays, stepsPerTurn,
                turnMaxMillis, interval, readsPerStep, bugAttempts, threads, fetchThreads, readAheadPages, stateDir, decodeLimits, celebrityFollowers,
                followers);
    }

    public FanoutSettings withStateDir(Path dir) {
        return new FanoutSettings(applicationId, inputTopic, outputTopic, deadLetterTopic, chunkSize, activeDays, stepsPerTurn,
                turnMaxMillis, interval, readsPerStep, bugAttempts, threads, fetchThreads, readAheadPages, dir, decodeLimits, celebrityFollowers, popularInterestFollowers);
    }
}
