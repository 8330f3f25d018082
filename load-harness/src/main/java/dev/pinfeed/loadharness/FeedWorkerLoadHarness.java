package dev.pinfeed.loadharness;

import static dev.pinfeed.loadharness.Args.intArg;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.hbase.HBasePoolStore;
import dev.pinfeed.feedstore.hbase.HBaseStage;
import dev.pinfeed.feedstore.hbase.HBaseStages;
import dev.pinfeed.feedstore.hbase.PoolKeys;
import dev.pinfeed.feedworker.process.FeedWorkerHandler;
import dev.pinfeed.feedworker.process.FeedWorkerMain;
import dev.pinfeed.followergraph.redis.RedisGraphStore;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.processorruntime.KafkaClients;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import io.micrometer.core.instrument.Timer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The feed-worker benchmark (a tool, not a test), in one run on one box against the local stack:
 * <ol>
 *   <li><b>raw</b>: the rows the worker stores for the same number of (receiver, pin) entries — each
 *       entry's entry row and index row ({@link PoolKeys#puts}) — through one bare BufferedMutator with
 *       {@link HBasePoolStore}'s buffer, flushed once per batch as large as the worker's; entries/s;</li>
 *   <li><b>worker</b>: FanoutChunks published to a fresh fan-out topic beforehand (not timed), then the
 *       worker as {@link FeedWorkerMain} assembles it (runtime consumer loop, {@link FeedWorkerHandler},
 *       HBase pools, Redis affinities, canonical like counts through the Redis cache and MySQL) works
 *       them off into the pools: entries/s from joining its group to the last chunk applied;</li>
 *   <li><b>raw</b> again, on a third set of users: the baseline brackets the worker run, so noise shows.</li>
 * </ol>
 * The table gives each phase's ratio to the mean of the two raw runs (the goal: worker ≥ 60 % of raw).
 * The end-to-end figure through the fan-out as well (pin → Kafka Streams → chunks → worker → pools) is
 * {@link FanoutLoadHarness}'s big fan-out, against the same raw baseline.
 * Each phase writes to fresh users; every row written is removed at the end (the chunks' delivery marks stay).
 */
public final class FeedWorkerLoadHarness {

    private FeedWorkerLoadHarness() {}

    public static void main(String[] args) throws Exception {
        int pins = intArg(args, "--pins", 200);
        int receivers = intArg(args, "--receivers", 500);
        int users = intArg(args, "--users", 5_000);
        int partitions = intArg(args, "--partitions", 3);
        int maxPoll = intArg(args, "--max-poll", 500);
        PinfeedConfig config = StackConfig.load();
        String run = Long.toString(System.currentTimeMillis(), 36);
        long base = (System.currentTimeMillis() / 1000 % (1L << 22)) << 14; // fresh local ids per run
        long author = ShardedId.compose(7, ObjectType.USER, base);
        long board = ShardedId.compose(7, ObjectType.BOARD, base);
        long now = System.currentTimeMillis();
        List<long[]> sets = new ArrayList<>();
        for (int set = 0; set < 3; set++) {
            long[] ids = new long[users];
            for (int i = 0; i < users; i++) {
                long local = base + 1 + (long) set * users + i;
                ids[i] = ShardedId.compose((int) (local % 4096), ObjectType.USER, local);
            }
            sets.add(ids);
        }
        long[] pinIds = new long[pins];
        for (int p = 0; p < pins; p++) pinIds[p] = ShardedId.compose(7, ObjectType.PIN, base + 1 + p);
        long entries = (long) pins * receivers;
        log("run %s: %d chunks x %d receivers = %d entries over %d users per phase, %d partitions, max.poll.records %d", run, pins,
                receivers, entries, users, partitions, maxPoll);

        String topic = "bench-fanout-" + run;
        String group = "bench-feed-worker-" + run;
        String prefix = "bench:fw:" + run + ":";
        SchemaRegistryClient registry = new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(config));
        RedisShardMap shards = RedisShards.defaultShardMap(config);
        List<String> rows = new ArrayList<>();
        double[] rates = new double[3];
        try (Admin admin = Admin.create(KafkaClients.admin(config));
             // The pools on their cluster (HBaseLayout); the in-process worker's feed removals on the materialized feed's.
             HBaseStages stages = HBaseStages.connect(config);
             Connection hbase = stages.connection(HBaseStage.POOLS);
             HBasePoolStore pools = stages.pools();
             RedisGraphStore graph = RedisGraphStore.connect(config, () -> shards, prefix + "graph:")) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
            int perBatch = (int) Math.min(entries, (long) maxPoll * receivers / partitions);
            try {
                // Untimed, the same rows once: the first writes of a JVM look up regions and warm the client (JIT); the timed runs overwrite them.
                raw(hbase, sets.get(0), pinIds, receivers, author, board, now, perBatch, "warm-up", new ArrayList<>());
                rates[0] = raw(hbase, sets.get(0), pinIds, receivers, author, board, now, perBatch, "raw (before)", rows);

                publish(config, registry, topic, sets.get(1), pinIds, receivers, author, board, now);
                try (InProcessWorker worker = new InProcessWorker(config, stages.materializedFeed(), pools, graph, shards, prefix + "aff:")) {
                    rates[1] = worker(worker.start(registry, topic, group, maxPoll), pins, entries, rows);
                }

                rates[2] = raw(hbase, sets.get(2), pinIds, receivers, author, board, now, perBatch, "raw (after)", rows);
            } finally {
                log("removing the run's pool rows and topic");
                for (long[] set : sets) {
                    Map<Long, List<Long>> all = new HashMap<>();
                    for (long u : set) all.put(u, java.util.Arrays.stream(pinIds).boxed().toList());
                    pools.remove(all);
                }
                admin.deleteTopics(List.of(topic)).all().get();
            }
        }
        double raw = (rates[0] + rates[2]) / 2;
        System.out.println();
        System.out.println("| phase | entries | seconds | entries/s | HBase puts/s | ratio to raw (mean of both) | harness JVM cores | stack cores | other cores | note |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
        for (int i = 0; i < rows.size(); i++) System.out.println(rows.get(i).replace("| RATIO |", String.format(Locale.ROOT, "| %.2f |", rates[i] / raw)));
        System.out.printf(Locale.ROOT, "%nworker / raw = %.2f (goal >= 0.60); raw before %.0f, after %.0f entries/s (spread %.0f %%)%n", rates[1] / raw,
                rates[0], rates[2], 100 * Math.abs(rates[0] - rates[2]) / raw);
    }

    /** The receivers of chunk {@code p}: a slice of the users, so every user gets the same number of pins. */
    private static List<Long> receiversOf(long[] users, int p, int receivers) {
        List<Long> out = new ArrayList<>(receivers);
        for (int i = 0; i < receivers; i++) out.add(users[(int) (((long) p * receivers + i) % users.length)]);
        return out;
    }

    private static Source sourceOf(long user) {
        return user % 2 == 0 ? Source.FOLLOWED_USER : Source.FOLLOWED_BOARD;
    }

    /** The raw baseline on these users; adds its row, returns entries/s. */
    private static double raw(Connection hbase, long[] users, long[] pins, int receivers, long author, long board, long now, int perBatch,
                              String phase, List<String> rows) throws Exception {
        log("%s: %d entries, flushed every %d", phase, (long) pins.length * receivers, perBatch);
        Iterable<PoolEntry> lazily = () -> java.util.stream.IntStream.range(0, pins.length).boxed()
                .flatMap(p -> receiversOf(users, p, receivers).stream()
                        .map(u -> new PoolEntry(u, sourceOf(u), 1.0 / (1 + p), pins[p], author, board, now)))
                .iterator();
        RawPoolPuts.Outcome o = RawPoolPuts.write(hbase, lazily, perBatch);
        rows.add(row(phase, o.entries(), o.seconds(), o.cpu(), "BufferedMutator, 4 MiB buffer"));
        return o.entriesPerSecond();
    }

    private static void publish(PinfeedConfig config, SchemaRegistryClient registry, String topic, long[] users, long[] pins, int receivers,
                                long author, long board, long now) throws Exception {
        log("publishing %d chunks to %s", pins.length, topic);
        try (KafkaProducer<String, SpecificRecord> producer = new KafkaProducer<>(KafkaClients.producer(config, "bench-feed-worker"),
                new StringSerializer(), new AvroEventSerializer(registry))) {
            List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
            for (int p = 0; p < pins.length; p++) {
                List<FanoutReceiver> to = receiversOf(users, p, receivers).stream()
                        .map(u -> new FanoutReceiver(u, sourceOf(u) == Source.FOLLOWED_BOARD ? FanoutSource.FOLLOWED_BOARD : FanoutSource.FOLLOWED_USER))
                        .toList();
                FanoutChunk chunk = new FanoutChunk((long) p + 1, Instant.ofEpochMilli(now), FanoutAction.ADD, pins[p], board, author,
                        Instant.ofEpochMilli(now), 0, true, to, null);
                sent.add(producer.send(new ProducerRecord<>(topic, EventTopics.partitionKey(chunk), chunk)));
            }
            for (var f : sent) f.get();
        }
    }

    /** Waits until the worker applied every chunk; adds its row, returns entries/s from its group join to the last chunk applied. */
    private static double worker(InProcessWorker worker, int chunks, long entries, List<String> rows) throws Exception {
        CpuMeter.Snapshot from = CpuMeter.now();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
        while (worker.applied() < chunks) {
            if (System.nanoTime() > deadline) throw new IllegalStateException("the worker applied only " + worker.applied() + " of " + chunks);
            if (worker.parked() != null) log("worker: %s", worker.parked());
            TimeUnit.MILLISECONDS.sleep(5);
        }
        CpuMeter.Snapshot to = CpuMeter.now();
        Timer apply = worker.meters().get("pinfeed.batch.apply").timer();
        double seconds = (to.wallNanos() - from.wallNanos()) / 1e9;
        rows.add(row("worker", entries, seconds, CpuMeter.between(from, to), String.format(Locale.ROOT,
                "%d batches, mean apply %.0f ms (%.0f %% of the time)", apply.count(), apply.mean(TimeUnit.MILLISECONDS),
                100 * apply.totalTime(TimeUnit.SECONDS) / seconds)));
        return entries / seconds;
    }

    private static String row(String phase, long entries, double seconds, CpuMeter.Split cpu, String note) {
        // RATIO is filled in once both raw runs are known.
        String line = String.format(Locale.ROOT, "| %s | %d | %.2f | %.0f | %.0f | RATIO | %.2f | %.2f | %.2f | %s |", phase, entries, seconds,
                entries / seconds, 2 * entries / seconds, cpu.jvm(), cpu.stack(), cpu.other(), note);
        log("%s", line);
        return line;
    }

    private static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[feed-worker-bench] " + format + "%n", args);
    }
}
