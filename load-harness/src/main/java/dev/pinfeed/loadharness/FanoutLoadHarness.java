package dev.pinfeed.loadharness;

import static dev.pinfeed.loadharness.Args.intArg;

import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.fanoutstreams.kafka.FanoutStreamsApp;
import dev.pinfeed.contentgenerator.CelebrityPull;
import dev.pinfeed.contentgenerator.ContentGenerator;
import dev.pinfeed.contentgenerator.GeneratorSettings;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.redis.RedisCelebrityPins;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.hbase.HBasePoolStore;
import dev.pinfeed.feedstore.hbase.HBaseStage;
import dev.pinfeed.feedstore.hbase.HBaseStages;
import dev.pinfeed.feedstore.redis.RedisLastReadStore;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.redis.RedisGraphStore;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.apache.avro.specific.SpecificRecord;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import redis.clients.jedis.RedisClient;

/**
 * The fan-out benchmark (a tool, not a test), pin to pool end to end in one JVM against the local
 * stack: PinCreated events on a fresh pins topic → {@link FanoutStreamsApp} (in-process, fresh
 * application id, topics and state dir; {@code fanout.*} settings from the config) → FanoutChunks on a
 * fresh topic → the feed worker ({@link InProcessWorker}, fresh group) → HBase pools. A pin is "in the
 * pools" when the worker's upsert holding the last of its receivers' entries returned
 * ({@link TimedPoolStore}); latency = that moment minus the publish (or, at half peak, minus the due time).
 * <ol>
 *   <li><b>small alone</b>: small authors ({@code --small-followers}, 3) publish a pin every
 *       {@code --small-interval-ms} (100) for {@code --baseline-s}: publish → in-pool latency with nothing else running;</li>
 *   <li><b>big</b>: one pin of an author with {@code --followers} (100 000) followers (graph written
 *       directly through the graph store under a fresh key prefix, one follow per {@code --follow-spacing-ms}): time to its last pool write and
 *       entries/s end to end; small pins keep coming every 100 ms meanwhile and their latency is reported;
 *       then the same author's next pin alone (the fan-out now knows which receivers are active);
 *       with {@code --next-pins} N &gt; 1, N - 1 more next pins, each followed by its own raw run, and the median
 *       of their ratios (each next pin over the raw run nearest it). Before those, untimed pairs run until this
 *       JVM's JIT compiles for at most 2 % of a pair ({@code --jit-warmup-pairs}, at most 8; the first pair then stays
 *       out of the median); with {@code --jit-warmup-pairs 0}, none, and the median takes all N pairs;
 *       with {@code --restart-before-last-pin 1},
 *       after every other phase, the fan-out app is closed and started again on its state dir, and one
 *       more pin of the big author is timed with the count of last reads the restarted app looked up;</li>
 *   <li><b>raw</b>: the same receivers' rows for one pin through a bare BufferedMutator ({@link RawPoolPuts}),
 *       the baseline of the end-to-end entries/s;</li>
 *   <li><b>peak</b>: {@code --burst} small pins published at once: pins/s until the last is in its pools;
 *       <b>half peak</b>: an open loop at half that rate for {@code --half-peak-s}, latency from each pin's due time.</li>
 * </ol>
 * Each big pin and each raw run starts once the stack has gone quiet ({@code --settle-cores-pct}): the standby
 * HBase replicating the previous phase's rows would otherwise take a share of the box from whichever came next.
 * Everything written is removed at the end (pool entries, graph and affinity keys, topics with the
 * streams app's internal ones, the state dir); the chunks' delivery marks stay.
 */
public final class FanoutLoadHarness {

    /** One published pin: its receivers, when it was sent (or due), when its last entry was stored. */
    private static final class Progress {
        final long pinId;
        final int expected;
        final long sentNanos;
        private int written;
        private long doneNanos;
        /** When the chunk topic observer first saw one of its chunks, and on which partition (-1: not seen). */
        volatile long chunkNanos;
        volatile int partition = -1;
        /** Each chunk's arrival on the topics, and each pool write as {nanos, entries}: the big pin's timeline. */
        final java.util.Queue<Long> chunkArrivals = new java.util.concurrent.ConcurrentLinkedQueue<>();
        final java.util.Queue<long[]> writes = new java.util.concurrent.ConcurrentLinkedQueue<>();

        Progress(long pinId, int expected, long sentNanos) {
            this.pinId = pinId;
            this.expected = expected;
            this.sentNanos = sentNanos;
        }

        /** When the observer saw the pin's last chunk (0: none yet). */
        long lastChunkNanos() {
            return chunkArrivals.stream().mapToLong(Long::longValue).max().orElse(0);
        }

        synchronized void add(int n, long at) {
            writes.add(new long[] {at, n});
            written += n;
            if (doneNanos == 0 && written >= expected) {
                doneNanos = at;
                notifyAll();
            }
        }

        synchronized long awaitDone(long deadlineNanos) throws InterruptedException {
            while (doneNanos == 0) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) return 0;
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return doneNanos;
        }

        synchronized long doneNanos() {
            return doneNanos;
        }

        synchronized long writtenSoFar() {
            return written;
        }
    }

    private record Author(long id, long board, List<Long> followers) {}

    private final Map<Long, Progress> progress = new ConcurrentHashMap<>();
    private final Map<Long, Long> pinsByAuthor = new ConcurrentHashMap<>();
    private final AtomicLong nextLocal;
    private final AtomicLong version = new AtomicLong(System.currentTimeMillis());
    private final AtomicReference<String> sendError = new AtomicReference<>();
    private final KafkaProducer<String, SpecificRecord> producer;
    private final String pinsTopic;
    /**
     * Milliseconds between two follows of one author ({@code --follow-spacing-ms}, 1): followers join over
     * time, as they do through the ingest API. 0 stamps each follow with the clock while the commands
     * are built, thousands per millisecond; the graph reads such an equal-timestamp group whole on every
     * page that touches it (NewestFirstLists), so 0 measures that worst case, not a realistic author.
     */
    private final int followSpacingMs;
    /**
     * Cores the stack may use before a timed pin or raw run starts ({@code --settle-cores-pct}, 20: 0.20 cores; 0 = start at once):
     * each of them then starts on a quiet stack rather than in the previous phase's tail ({@link CpuMeter#settle}).
     */
    private final double settleCores;

    private FanoutLoadHarness(KafkaProducer<String, SpecificRecord> producer, String pinsTopic, long firstLocal, int followSpacingMs,
                              double settleCores) {
        this.producer = producer;
        this.followSpacingMs = followSpacingMs;
        this.settleCores = settleCores;
        this.pinsTopic = pinsTopic;
        this.nextLocal = new AtomicLong(firstLocal);
    }

    public static void main(String[] args) throws Exception {
        int followers = intArg(args, "--followers", 100_000);
        int smallAuthors = intArg(args, "--small-authors", 20);
        int smallFollowers = intArg(args, "--small-followers", 3);
        int intervalMs = intArg(args, "--small-interval-ms", 100);
        int followSpacingMs = intArg(args, "--follow-spacing-ms", 1);
        if (followSpacingMs < 0) throw new IllegalArgumentException("--follow-spacing-ms must be at least 0: " + followSpacingMs);
        int baselineS = intArg(args, "--baseline-s", 10);
        int burst = intArg(args, "--burst", 1000);
        int halfPeakS = intArg(args, "--half-peak-s", 20);
        int partitions = intArg(args, "--partitions", 3);
        int rawBatch = intArg(args, "--raw-batch", 5000);
        int nextPins = intArg(args, "--next-pins", 1);
        int celebrityPins = intArg(args, "--celebrity-pins", 0);
        int celebrityReaders = intArg(args, "--celebrity-readers", 200);
        if (celebrityPins < 0 || celebrityReaders < 1) throw new IllegalArgumentException("--celebrity-pins must be >= 0, --celebrity-readers >= 1");
        boolean restart = intArg(args, "--restart-before-last-pin", 0) == 1;
        double settleCores = CpuMeter.settleCores(args);
        if (nextPins < 1) throw new IllegalArgumentException("--next-pins must be at least 1");
        // The fan-out and the worker run in this JVM: untimed pairs until its JIT goes quiet, before the timed ones (0: none).
        int jitWarmupPairs = intArg(args, "--jit-warmup-pairs", 8);
        if (jitWarmupPairs < 0) throw new IllegalArgumentException("--jit-warmup-pairs must be at least 0: " + jitWarmupPairs);
        long needed = followers + (long) smallAuthors * (smallFollowers + 2) + 10L * burst + 100_000L;
        if (needed > BenchSeed.FRESH_IDS) throw new IllegalArgumentException("--followers too large for one run's fresh ids: " + followers);

        PinfeedConfig config = StackConfig.load();
        String run = Long.toString(System.currentTimeMillis(), 36);
        String pins = "bench-fanout-pins-" + run;
        String chunks = "bench-fanout-chunks-" + run;
        String dlq = "bench-fanout-dlq-" + run;
        String applicationId = "bench-fanout-" + run;
        String prefix = "bench:fanout:" + run + ":";
        Path stateDir = Files.createTempDirectory("bench-fanout-state");
        log("run %s: %d followers, %d small authors x %d followers, pins every %d ms; topics %s -> %s (%d partitions)", run, followers,
                smallAuthors, smallFollowers, intervalMs, pins, chunks, partitions);

        SchemaRegistryClient registry = new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(config));
        RedisShardMap shards = RedisShards.defaultShardMap(config);
        Map<String, RedisClient> redis = RedisCanonicalCache.clients(config, Duration.ofSeconds(2), 2);
        List<String> rows = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        try (Admin admin = Admin.create(dev.pinfeed.processorruntime.KafkaClients.admin(config));
             // The pools on their cluster (HBaseLayout); the in-process worker's feed removals on the materialized feed's.
             HBaseStages stages = HBaseStages.connect(config);
             Connection hbase = stages.connection(HBaseStage.POOLS);
             HBasePoolStore pools = stages.pools();
             RedisGraphStore graph = RedisGraphStore.connect(config, () -> shards, prefix + "graph:");
             RedisLastReadStore lastReads = RedisLastReadStore.connect(RedisMasterConfig.fixed(config), () -> shards,
                     prefix + "graph:", Duration.ofMillis(500));
             KafkaProducer<String, SpecificRecord> producer = new KafkaProducer<>(
                     dev.pinfeed.processorruntime.KafkaClients.producer(config, "bench-fanout"), new StringSerializer(),
                     new AvroEventSerializer(registry))) {
            admin.createTopics(List.of(new NewTopic(pins, partitions, (short) 1), new NewTopic(chunks, partitions, (short) 1),
                    new NewTopic(EventTopics.bulkLaneOf(chunks), partitions, (short) 1), new NewTopic(dlq, 1, (short) 1))).all().get();
            FanoutLoadHarness h = new FanoutLoadHarness(producer, pins, BenchSeed.freshLocalBase(), followSpacingMs, settleCores);
            List<Author> small = new ArrayList<>();
            Author big = null;
            try {
                long t0 = System.nanoTime();
                big = h.author(graph, followers);
                for (int i = 0; i < smallAuthors; i++) small.add(h.author(graph, smallFollowers));
                log("graph written: %d follows in %.1f s", followers + smallAuthors * smallFollowers, (System.nanoTime() - t0) / 1e9);

                TimedPoolStore timed = new TimedPoolStore(pools, (pin, n, at) -> {
                    Progress p = h.progress.get(pin);
                    if (p != null) p.add(n, at);
                });
                // The push fan-out is what this measures: its big authors would otherwise be celebrities, pulled at read time.
                FanoutSettings settings = FanoutSettings.from(config.with("fanout.celebrity-followers", "0"))
                        .withTopics(applicationId, pins, chunks, dlq).withStateDir(stateDir);
                log("%s", settings);
                try (InProcessWorker worker = new InProcessWorker(config, stages.materializedFeed(), timed, graph, shards, prefix + "aff:")
                             .startWithBulkLane(registry, chunks, "bench-fanout-worker-" + run, 500);
                     FanoutStreamsApp app = FanoutStreamsApp.start(settings, config, "0", registry, graph,
                             lastReads, new SimpleMeterRegistry(), Clock.systemUTC())) {
                    awaitRunning(app);
                    t0 = System.nanoTime();
                    h.awaitAll(List.of(h.publish(small.get(0), System.nanoTime())), Duration.ofSeconds(120), "the warm-up pin");
                    log("warm-up pin in its pools after %.1f s (streams app and worker ready)", (System.nanoTime() - t0) / 1e9);

                    // 1. small pins alone
                    List<Progress> alone = h.smallEvery(small, intervalMs, () -> false, TimeUnit.SECONDS.toNanos(baselineS));
                    h.awaitAll(alone, Duration.ofSeconds(60), "small pins");
                    rows.add(latencyRow("small pins alone (" + smallFollowers + " followers, every " + intervalMs + " ms)", alone, baselineS));

                    // 2. the big pin, small pins meanwhile; an observer on the chunk topic splits their wait into the
                    // fan-out's part (publish → chunk on the topic) and the worker's (chunk → in its pools)
                    h.settle("the big pin");
                    Progress bigPin = h.publish(big, System.nanoTime());
                    List<Progress> meanwhile;
                    Progress nextPin;
                    try (ChunkObserver observer = h.observe(config, chunks)) {
                        meanwhile = h.smallEvery(small, intervalMs, () -> bigPin.doneNanos() != 0, TimeUnit.MINUTES.toNanos(15));
                        h.awaitAll(List.of(bigPin), Duration.ofSeconds(1), "the big pin");
                        h.awaitAll(meanwhile, Duration.ofSeconds(60), "small pins");
                        // 2b. the same author's next pin, alone: the fan-out now knows its receivers are active
                        h.settle("the big author's next pin");
                        nextPin = h.publish(big, System.nanoTime());
                        h.awaitAll(List.of(nextPin), Duration.ofMinutes(15), "the big author's next pin");
                    }
                    double bigSeconds = (bigPin.doneNanos() - bigPin.sentNanos) / 1e9;
                    double endToEnd = followers / bigSeconds;
                    rows.add(latencyRow("small pins during the big fan-out", meanwhile, bigSeconds));
                    rows.addAll(splitRows(meanwhile, bigPin.partition, bigSeconds));
                    log("big pin: %d entries in %.2f s; its last chunk was on the topics %.2f s after the publish (the fan-out's share)",
                            followers, bigSeconds, bigPin.chunkArrivals.isEmpty() ? Double.NaN : (bigPin.lastChunkNanos() - bigPin.sentNanos) / 1e9);

                    log("big pin's timeline (s after the publish: chunks on the topics / entries in the pools): %s", timeline(bigPin));
                    double nextSeconds = (nextPin.doneNanos() - nextPin.sentNanos) / 1e9;
                    log("big author's next pin: %d entries in %.2f s (%s)", followers, nextSeconds, timeline(nextPin));

                    // 3. raw puts of the same receivers' rows (another pin id, so they are fresh rows)
                    RawPoolPuts.Outcome raw = h.rawRun(hbase, big, rawBatch);
                    notes.add(String.format(Locale.ROOT, "| big fan-out, pin → pools end to end | %d | %.2f | %.0f | %.2f |", followers, bigSeconds,
                            endToEnd, endToEnd / raw.entriesPerSecond()));
                    notes.add(String.format(Locale.ROOT, "| the big author's next pin (receivers known active), end to end | %d | %.2f | %.0f | %.2f |",
                            followers, nextSeconds, followers / nextSeconds, followers / nextSeconds / raw.entriesPerSecond()));
                    notes.add(String.format(Locale.ROOT, "| raw BufferedMutator puts of the same receivers' rows (flush every %d) | %d | %.2f | %.0f | 1 |",
                            rawBatch, raw.entries(), raw.seconds(), raw.entriesPerSecond()));
                    if (nextPins > 1) {
                        // 3b. more next pins, each followed by its own raw run: the box drifts, so each pair is a ratio of
                        // neighbours, and their median is the figure (the single pair above swings with it).
                        List<Double> ratios = new ArrayList<>();
                        if (jitWarmupPairs > 0) {
                            // Still compiling for up to half a core during the third pin: the timed pairs come once the JIT has
                            // gone quiet, and the first pair above stays out of their median.
                            Author bigAuthor = big;
                            LoadLoops.JitWarmup w = LoadLoops.warmUntilJitQuiet(jitWarmupPairs, 0.02, () -> {
                                long pairStart = System.nanoTime();
                                h.pinAloneSeconds(bigAuthor, "a warm-up pin");
                                h.rawRun(hbase, bigAuthor, rawBatch);
                                return System.nanoTime() - pairStart;
                            });
                            String warmed = w.describe("pairs (next pin, raw run)");
                            log("before the timed pairs: %s", warmed);
                            notes.add("| JIT warm-up before the pairs below: " + warmed + " | | | | |");
                        } else {
                            ratios.add(followers / nextSeconds / raw.entriesPerSecond());
                        }
                        for (int i = 2; i <= nextPins; i++) {
                            double againSeconds = h.pinAloneSeconds(big, "the big author's next pin");
                            RawPoolPuts.Outcome pairRaw = h.rawRun(hbase, big, rawBatch);
                            double ratio = followers / againSeconds / pairRaw.entriesPerSecond();
                            ratios.add(ratio);
                            log("next pin %d: %.2f s end to end (%.0f entries/s), raw right after %.0f entries/s: %.2f", i, againSeconds,
                                    followers / againSeconds, pairRaw.entriesPerSecond(), ratio);
                            notes.add(String.format(Locale.ROOT, "| next pin %d, end to end / raw right after it | %d | %.2f | %.0f / %.0f | %.2f |", i,
                                    followers, againSeconds, followers / againSeconds, pairRaw.entriesPerSecond(), ratio));
                        }
                        List<Double> sorted = ratios.stream().sorted().toList();
                        notes.add(String.format(Locale.ROOT, "| the next pins' median ratio (%d pairs; min %.2f, max %.2f) | | | | **%.2f** |",
                                sorted.size(), sorted.get(0), sorted.get(sorted.size() - 1), sorted.get(sorted.size() / 2)));
                    }
                    // 4. peak of small pins, then half of it in an open loop
                    long burstStart = System.nanoTime();
                    List<Progress> burstPins = new ArrayList<>(burst);
                    for (int i = 0; i < burst; i++) burstPins.add(h.publish(small.get(i % small.size()), System.nanoTime()));
                    h.awaitAll(burstPins, Duration.ofMinutes(10), "the burst");
                    long burstEnd = burstPins.stream().mapToLong(Progress::doneNanos).max().orElseThrow();
                    double peak = burst / ((burstEnd - burstStart) / 1e9);
                    rows.add(latencyRow(String.format(Locale.ROOT, "peak: %d small pins at once (%.0f pins/s, %.0f entries/s)", burst, peak,
                            peak * smallFollowers), burstPins, (burstEnd - burstStart) / 1e9));
                    List<Progress> half = h.openLoop(small, peak / 2, TimeUnit.SECONDS.toNanos(halfPeakS));
                    h.awaitAll(half, Duration.ofMinutes(5), "half-peak pins");
                    rows.add(latencyRow(String.format(Locale.ROOT, "half peak: small pins at %.0f/s, latency from due time", peak / 2), half, halfPeakS));
                    if (celebrityPins > 0) {
                        h.settle("the celebrity pins");
                        h.celebrityPhase(config, admin, registry, graph, shards, prefix + "graph:", lastReads, pools, big, celebrityPins, celebrityReaders,
                                partitions, stateDir, chunks, dlq, applicationId, notes);
                    }
                    if (worker.parked() != null) log("worker: %s", worker.parked());
                    if (restart) {
                        // 5. last, so the phases above run on the first app: the fan-out stopped and started again (same state
                        // dir), one more pin of the big author, and how many last reads the restarted app had to look up for it.
                        app.close();
                        SimpleMeterRegistry meters = new SimpleMeterRegistry();
                        try (FanoutStreamsApp again = FanoutStreamsApp.start(settings, config, "0", registry, graph,
                                lastReads, meters, Clock.systemUTC())) {
                            awaitRunning(again);
                            double restartedSeconds = h.pinAloneSeconds(big, "the big author's pin after a restart");
                            double lookedUp = meters.get("fanout.last.reads.looked.up").counter().count();
                            RawPoolPuts.Outcome pairRaw = h.rawRun(hbase, big, rawBatch);
                            log("after a fan-out restart: %.2f s end to end, %.0f last reads looked up, raw right after %.0f entries/s", restartedSeconds,
                                    lookedUp, pairRaw.entriesPerSecond());
                            notes.add(String.format(Locale.ROOT, "| the big author's pin after a fan-out restart (%.0f last reads looked up), end to end "
                                    + "/ raw right after it | %d | %.2f | %.0f / %.0f | %.2f |", lookedUp, followers, restartedSeconds,
                                    followers / restartedSeconds, pairRaw.entriesPerSecond(), followers / restartedSeconds / pairRaw.entriesPerSecond()));
                        }
                    }
                }
            } finally {
                printTables(rows, notes); // what was measured survives a failure later in the run or in the cleanup
                log("removing the run's pool rows, graph keys and topics");
                Map<Long, List<Long>> entries = new HashMap<>();
                List<Author> all = new ArrayList<>(small);
                if (big != null) all.add(big);
                for (Author a : all) {
                    List<Long> its = h.pinsByAuthor.entrySet().stream().filter(e -> e.getValue() == a.id()).map(Map.Entry::getKey).toList();
                    for (long u : a.followers()) entries.put(u, its);
                }
                pools.remove(entries);
                long keys = 0;
                try {
                    for (RedisClient c : redis.values()) keys += GraphLoadHarness.deletePrefix(c, prefix);
                } catch (RuntimeException e) {
                    log("could not delete the run's Redis keys (prefix %s): %s", prefix, e);
                }
                List<String> topics = admin.listTopics().names().get().stream()
                        .filter(t -> t.equals(pins) || t.startsWith(chunks) || t.equals(dlq) || t.startsWith(applicationId + "-")).toList();
                admin.deleteTopics(topics).all().get();
                log("deleted %d Redis keys, topics %s", keys, topics);
                deleteTree(stateDir);
                redis.values().forEach(RedisClient::close);
            }
            if (h.sendError.get() != null) log("a send failed: %s", h.sendError.get());
        }

    }

    /** Reads the chunk topic and its bulk lane from now on, on its own thread, noting for each pin when its first and last chunks were there. */
    private final class ChunkObserver implements AutoCloseable {
        private final org.apache.kafka.clients.consumer.KafkaConsumer<String, byte[]> consumer;
        private final Thread thread;
        private volatile boolean running = true;

        ChunkObserver(PinfeedConfig config, String topic) {
            // read_committed (KafkaClients.reader), as the worker reads the exactly-once app's output
            consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<>(dev.pinfeed.processorruntime.KafkaClients.reader(config),
                    new org.apache.kafka.common.serialization.StringDeserializer(), new org.apache.kafka.common.serialization.ByteArrayDeserializer());
            List<org.apache.kafka.common.TopicPartition> parts = new ArrayList<>();
            for (String lane : List.of(topic, EventTopics.bulkLaneOf(topic))) {
                consumer.partitionsFor(lane).forEach(i -> parts.add(new org.apache.kafka.common.TopicPartition(lane, i.partition())));
            }
            consumer.assign(parts);
            consumer.seekToEnd(parts); // only what comes from now on
            parts.forEach(consumer::position);
            thread = new Thread(() -> {
                while (running) {
                    for (var r : consumer.poll(Duration.ofMillis(20))) {
                        long seen = System.nanoTime();
                        try {
                            Progress pr = progress.get(Long.parseLong(r.key()));
                            if (pr != null && pr.chunkNanos == 0 && r.topic().equals(topic)) {
                                pr.partition = r.partition(); // the fast lane's: where small pins queue
                                pr.chunkNanos = seen;
                            }
                            if (pr != null) pr.chunkArrivals.add(seen);
                        } catch (NumberFormatException notAPin) {
                            // not a chunk keyed by pin id
                        }
                    }
                }
                consumer.close();
            }, "bench-chunk-observer");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join(5_000);
        }
    }

    /** Every half second until the pin is done: chunks seen on the topics and entries written so far, "t: chunks/entries". */
    private static String timeline(Progress pin) {
        StringBuilder out = new StringBuilder();
        long step = TimeUnit.MILLISECONDS.toNanos(500);
        for (long t = pin.sentNanos + step; ; t += step) {
            long at = t;
            long chunks = pin.chunkArrivals.stream().filter(n -> n <= at).count();
            long entries = pin.writes.stream().filter(w -> w[0] <= at).mapToLong(w -> w[1]).sum();
            out.append(String.format(Locale.ROOT, "%.1f: %d/%d  ", (t - pin.sentNanos) / 1e9, chunks, entries));
            if (t >= pin.doneNanos()) return out.toString().trim();
        }
    }

    private ChunkObserver observe(PinfeedConfig config, String topic) {
        return new ChunkObserver(config, topic);
    }

    /** The small pins' wait split at the chunk topic, for all of them and by whether they shared the big pin's partition. */
    private static List<String> splitRows(List<Progress> pins, int bigPartition, double seconds) {
        List<String> out = new ArrayList<>();
        for (String part : List.of("all", "on the big pin's partition", "on other partitions")) {
            List<Progress> some = pins.stream().filter(p -> p.chunkNanos != 0).filter(p -> switch (part) {
                case "all" -> true;
                case "on the big pin's partition" -> p.partition == bigPartition;
                default -> p.partition != bigPartition;
            }).toList();
            if (some.isEmpty()) continue;
            Histogram fan = new Histogram(3);
            Histogram work = new Histogram(3);
            for (Progress p : some) {
                fan.recordValue(Math.max(1, (p.chunkNanos - p.sentNanos) / 1000));
                work.recordValue(Math.max(1, (p.doneNanos() - p.chunkNanos) / 1000));
            }
            out.add(String.format(Locale.ROOT, "| … %s: publish → chunk on the topic / chunk → in its pools | %d | %.1f | %s / %s | %s / %s | %s / %s |",
                    part, some.size(), seconds, Report.ms(fan.getValueAtPercentile(50) / 1000.0), Report.ms(work.getValueAtPercentile(50) / 1000.0),
                    Report.ms(fan.getValueAtPercentile(99) / 1000.0), Report.ms(work.getValueAtPercentile(99) / 1000.0),
                    Report.ms(fan.getMaxValue() / 1000.0), Report.ms(work.getMaxValue() / 1000.0)));
        }
        return out;
    }

    /** An author with a board and {@code n} fresh followers, written through the graph store on 4 threads. */
    private Author author(GraphStore graph, int n) throws Exception {
        long author = id(ObjectType.USER);
        long board = ShardedId.compose(ShardedId.decode(author).shard(), ObjectType.BOARD, nextLocal.getAndIncrement());
        graph.apply(new GraphCommand.CreateBoard(version.incrementAndGet(), System.currentTimeMillis(), board, author));
        List<Long> followers = new ArrayList<>(n);
        List<GraphCommand> follows = new ArrayList<>(n);
        long firstFollowAt = System.currentTimeMillis() - (long) n * followSpacingMs;
        for (int i = 0; i < n; i++) {
            long f = id(ObjectType.USER);
            followers.add(f);
            long at = followSpacingMs == 0 ? System.currentTimeMillis() : firstFollowAt + (long) i * followSpacingMs;
            follows.add(new GraphCommand.FollowUser(version.incrementAndGet(), at, f, author));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            int slice = Math.max(1, (follows.size() + 3) / 4);
            for (int from = 0; from < follows.size(); from += slice) {
                List<GraphCommand> part = follows.subList(from, Math.min(follows.size(), from + slice));
                done.add(pool.submit(() -> part.forEach(graph::apply)));
            }
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdown();
        }
        return new Author(author, board, followers);
    }

    private long id(ObjectType type) {
        long local = nextLocal.getAndIncrement();
        return ShardedId.compose((int) (local % 4096), type, local);
    }

    /** A fresh pin id on the author's shard. */
    private long pinId(Author a) {
        return ShardedId.compose(ShardedId.decode(a.id()).shard(), ObjectType.PIN, nextLocal.getAndIncrement());
    }

    /**
     * The same big author as a celebrity (the default {@code fanout.celebrity-followers}): a second fan-out app on a
     * pins topic of its own records his pins instead of fanning them out, into the chunks topic the worker reads.
     * Measured per pin: publish → recorded in the celebrity store, and the pool entries the worker wrote for it (none
     * expected); then, at read time, for {@code readers} of his followers, the pull and the chunk's generation that a
     * first page runs (each must hold the pins), with their latencies.
     */
    private void celebrityPhase(PinfeedConfig config, Admin admin, SchemaRegistryClient registry, GraphStore graph, RedisShardMap shards, String graphPrefix,
                                RedisLastReadStore lastReads, HBasePoolStore pools, Author big, int pins, int readers, int partitions,
                                Path stateDir, String chunks, String dlq, String applicationId, List<String> notes) throws Exception {
        String topic = pinsTopic + "-celebrity";
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        FanoutSettings settings = FanoutSettings.from(config).withTopics(applicationId + "-celebrity", topic, chunks, dlq)
                .withStateDir(stateDir.resolve("celebrity"));
        int threshold = config.getInt("fanout.celebrity-followers", 10_000);
        log("celebrity phase: %d pins of the %d-follower author, threshold %d", pins, big.followers().size(), threshold);
        Clock clock = Clock.systemUTC();
        try (RedisCelebrityPins store = RedisCelebrityPins.connect(RedisMasterConfig.fixed(config), () -> shards,
                     graphPrefix, RedisCelebrityPins.maxPerAuthor(config));
             FanoutStreamsApp app = FanoutStreamsApp.start(settings, config, "0", registry, graph, lastReads, store,
                     new SimpleMeterRegistry(), clock)) {
            awaitRunning(app);
            Histogram recorded = new Histogram(3);
            List<Long> published = new ArrayList<>();
            List<Progress> progresses = new ArrayList<>();
            for (int i = 0; i < pins; i++) {
                long sent = System.nanoTime();
                Progress p = publishTo(topic, big, sent);
                progresses.add(p);
                long pin = p.pinId;
                producer.flush();
                long deadline = sent + TimeUnit.SECONDS.toNanos(60);
                while (store.recent(List.of(big.id()), 0).getOrDefault(big.id(), List.of()).stream().noneMatch(r -> r.pinId() == pin)) {
                    if (System.nanoTime() > deadline) throw new IllegalStateException("celebrity pin " + pin + " not recorded after 60 s");
                    TimeUnit.MILLISECONDS.sleep(2);
                }
                recorded.recordValue(Math.max(1, (System.nanoTime() - sent) / 1000));
                published.add(pin);
                TimeUnit.MILLISECONDS.sleep(200);
            }
            TimeUnit.SECONDS.sleep(5); // anything the worker would still write for them
            long poolWrites = progresses.stream().mapToLong(Progress::writtenSoFar).sum();
            notes.add(String.format(Locale.ROOT, "| celebrity (%d followers, threshold %d): %d pins, publish → recorded p50 / max | %d | %.3f / %.3f | "
                    + "pool entries written by the fan-out: %d | |", big.followers().size(), threshold, pins, big.followers().size(),
                    recorded.getValueAtPercentile(50) / 1e6, recorded.getMaxValue() / 1e6, poolWrites));

            CelebrityPull pull = new CelebrityPull(graph, store, pools, new WeightedScorer(WeightedScorer.Settings.from(config), clock),
                    CelebrityPull.Settings.from(config), clock);
            ContentGenerator generator = new ContentGenerator(pools, GeneratorSettings.from(config));
            Histogram pullMicros = new Histogram(3);
            Histogram generateMicros = new Histogram(3);
            int missing = 0;
            for (int i = 0; i < Math.min(readers, big.followers().size()); i++) {
                long reader = big.followers().get(i * (big.followers().size() / Math.min(readers, big.followers().size())));
                long t0 = System.nanoTime();
                pull.pull(reader, 0);
                long t1 = System.nanoTime();
                List<Long> chunk = generator.generate(reader, 25).items().stream().map(dev.pinfeed.feedstore.FeedItem::pinId).toList();
                long t2 = System.nanoTime();
                pullMicros.recordValue(Math.max(1, (t1 - t0) / 1000));
                generateMicros.recordValue(Math.max(1, (t2 - t1) / 1000));
                if (!chunk.containsAll(published.subList(Math.max(0, published.size() - 25), published.size()))) missing++;
            }
            notes.add(String.format(Locale.ROOT, "| celebrity pins at read time: %d followers' first pages, pull p50 / p99 | | %.1f / %.1f ms | "
                    + "then the chunk's generation p50 / p99 %.1f / %.1f ms | readers missing a pin: %d |", pullMicros.getTotalCount(),
                    pullMicros.getValueAtPercentile(50) / 1e3, pullMicros.getValueAtPercentile(99) / 1e3,
                    generateMicros.getValueAtPercentile(50) / 1e3, generateMicros.getValueAtPercentile(99) / 1e3, missing));
            log("celebrity: recorded p50 %.1f ms (max %.1f), %d pool entries from the fan-out; pull p50 %.1f ms, generation p50 %.1f ms, %d readers missing a pin",
                    recorded.getValueAtPercentile(50) / 1e3, recorded.getMaxValue() / 1e3, poolWrites, pullMicros.getValueAtPercentile(50) / 1e3,
                    generateMicros.getValueAtPercentile(50) / 1e3, missing);
            for (long pin : published) store.remove(big.id(), pin);
        } finally {
            admin.deleteTopics(List.of(topic)).all().get();
        }
    }

    /** Publishes a new pin of {@code a} (as ingest-api does: keyed by its partition key); its latency counts from {@code sentNanos}. */
    private Progress publish(Author a, long sentNanos) {
        return publishTo(pinsTopic, a, sentNanos);
    }

    private Progress publishTo(String topic, Author a, long sentNanos) {
        long pin = pinId(a);
        Progress p = new Progress(pin, a.followers().size(), sentNanos);
        progress.put(pin, p);
        pinsByAuthor.put(pin, a.id());
        PinCreated event = new PinCreated(version.incrementAndGet(), Instant.now(), a.id(), pin, a.board(), a.id(), "bench pin " + pin, null, null, null, java.util.List.of());
        producer.send(new ProducerRecord<>(topic, EventTopics.partitionKey(event), event), (md, e) -> {
            if (e != null) sendError.compareAndSet(null, e.toString());
        });
        return p;
    }

    /** A small pin every {@code intervalMs}, round robin over the authors, until {@code stop} holds or {@code maxNanos} passed. */
    private List<Progress> smallEvery(List<Author> authors, int intervalMs, java.util.function.BooleanSupplier stop, long maxNanos) {
        List<Progress> out = new ArrayList<>();
        long start = System.nanoTime();
        for (long due = start; !stop.getAsBoolean() && due - start < maxNanos; due += intervalMs * 1_000_000L) {
            LoadLoops.sleepUntil(due);
            out.add(publish(authors.get(out.size() % authors.size()), System.nanoTime()));
        }
        producer.flush();
        return out;
    }

    /** Pins due at {@code perSecond} for {@code nanos}; each one's latency counts from its due time (no coordinated omission). */
    private List<Progress> openLoop(List<Author> authors, double perSecond, long nanos) {
        List<Progress> out = new ArrayList<>();
        long start = System.nanoTime() + 10_000_000L;
        double interval = 1e9 / perSecond;
        for (int i = 0; ; i++) {
            long due = start + (long) (i * interval);
            if (due - start >= nanos) break;
            LoadLoops.sleepUntil(due);
            out.add(publish(authors.get(i % authors.size()), due));
        }
        producer.flush();
        return out;
    }

    private void awaitAll(List<Progress> pins, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long missing = 0;
        for (Progress p : pins) if (p.awaitDone(deadline) == 0) missing++;
        if (missing > 0) {
            throw new IllegalStateException(missing + " of " + pins.size() + " " + what + " not in their pools after " + timeout.toSeconds()
                    + " s" + (sendError.get() == null ? "" : "; a send failed: " + sendError.get()));
        }
    }

    /** Waits (up to 120 s) until the streams app runs: it has its tasks and reads. */
    private static void awaitRunning(FanoutStreamsApp app) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (app.state() != KafkaStreams.State.RUNNING && System.nanoTime() < deadline) TimeUnit.MILLISECONDS.sleep(20);
    }

    /** One pin of {@code author}, published now with nothing else running: seconds until its last pool write. */
    private double pinAloneSeconds(Author author, String what) throws InterruptedException {
        settle(what);
        Progress pin = publish(author, System.nanoTime());
        awaitAll(List.of(pin), Duration.ofMinutes(15), what);
        return (pin.doneNanos() - pin.sentNanos) / 1e9;
    }

    /**
     * The raw baseline: the rows of {@code author}'s receivers for one more pin id (fresh rows) through a
     * bare BufferedMutator, flushed every {@code rawBatch}; the pin is recorded for the clean-up.
     */
    private RawPoolPuts.Outcome rawRun(Connection hbase, Author author, int rawBatch) throws Exception {
        settle("raw puts");
        long rawPin = pinId(author);
        RawPoolPuts.Outcome raw = RawPoolPuts.write(hbase, () -> author.followers().stream()
                .map(u -> new PoolEntry(u, Source.FOLLOWED_USER, 0.5, rawPin, author.id(), author.board(), System.currentTimeMillis()))
                .iterator(), rawBatch);
        pinsByAuthor.put(rawPin, author.id());
        return raw;
    }

    /** Waits for a quiet stack (at most a minute) before a timed phase, unless {@code --settle-cores-pct 0}, and says how long it took. */
    private void settle(String phase) throws InterruptedException {
        String how = CpuMeter.settle(settleCores);
        if (how != null) log("before %s: %s", phase, how);
    }

    private static void printTables(List<String> rows, List<String> notes) {
        System.out.println();
        System.out.println("| phase | pins | seconds | p50 ms | p99 ms | max ms |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        rows.forEach(System.out::println);
        System.out.println();
        System.out.println("| pool entries | entries | seconds | entries/s | ratio to raw |");
        System.out.println("|---|---:|---:|---:|---:|");
        notes.forEach(System.out::println);
    }

    private static String latencyRow(String name, List<Progress> pins, double seconds) {
        Histogram h = new Histogram(3);
        for (Progress p : pins) h.recordValue(Math.max(1, (p.doneNanos() - p.sentNanos) / 1000));
        return String.format(Locale.ROOT, "| %s | %d | %.1f | %s | %s | %s |", name, pins.size(), seconds,
                Report.ms(h.getValueAtPercentile(50) / 1000.0), Report.ms(h.getValueAtPercentile(99) / 1000.0), Report.ms(h.getMaxValue() / 1000.0));
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (java.io.IOException e) {
            log("could not delete %s: %s", dir, e.getMessage());
        }
    }

    private static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[fanout-bench] " + format + "%n", args);
    }
}
