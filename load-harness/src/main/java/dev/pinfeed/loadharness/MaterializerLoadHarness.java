package dev.pinfeed.loadharness;

import dev.pinfeed.canonicalstore.CanonicalChange;
import dev.pinfeed.canonicalstore.CanonicalIds;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.CanonicalRef;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalWriter;
import dev.pinfeed.canonicalstore.redis.RedisCacheInvalidator;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.materializer.EventPlanner;
import dev.pinfeed.materializer.MaterializerHandler;
import dev.pinfeed.materializer.MaterializerTopics;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.processorruntime.InputRecord;
import dev.pinfeed.processorruntime.Outcomes;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The materializer benchmark (a tool, not a test), in one run on one box: events/s applied by the
 * materializer's batch handler (planner, reference lookup, one transaction per host per batch, cache
 * invalidation in Redis) over batches as the consumer gives them, next to the same rows written as raw
 * batched JDBC INSERTs (per batch one transaction per host, hosts in parallel, one PreparedStatement
 * batch per shard table — the least a writer of these rows must do; IGNORE only because a random
 * workload likes one pin twice). Rounds alternate handler and raw
 * on two id sets with the same shard placement (a pin on its board's shard, a board on its owner's).
 *
 * <pre>
 * java -cp load-harness/target/classes:$(cat load-harness/target/classpath.txt) \
 *   dev.pinfeed.loadharness.MaterializerLoadHarness [--events 20000] [--batch 500] [--rounds 2]
 * </pre>
 */
public final class MaterializerLoadHarness {

    private MaterializerLoadHarness() {}

    public static void main(String[] args) throws Exception {
        int events = 20_000;
        int batch = 500;
        int rounds = 2;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--events" -> events = Integer.parseInt(args[++i]);
                case "--batch" -> batch = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: MaterializerLoadHarness [--events N] [--batch N] [--rounds N]");
                    System.exit(2);
                }
            }
        }
        PinfeedConfig config = StackConfig.load();
        MaterializerTopics topics = MaterializerTopics.defaults();
        RedisShardMap shards = RedisShards.defaultShardMap(config); // once: the invalidator asks for it per key
        try (ShardDataSources sources = ShardDataSources.from(config, "canonical-bench", 4);
             ShardedDb db = new ShardedDb(sources);
             MysqlCanonicalWriter writer = new MysqlCanonicalWriter(db);
             RedisCacheInvalidator cache = RedisCacheInvalidator.connect(config, () -> shards)) {
            MaterializerHandler handler = new MaterializerHandler(new EventPlanner(), writer, cache, topics, new SimpleMeterRegistry());
            int shardCount = db.shardCount();
            long runBase = (Instant.now().getEpochSecond() & 0x7FFF) << 20; // 36-bit local ids: run (15 bits) | index (20 bits)
            System.out.printf(Locale.ROOT, "canonical benchmark: %d events per round, batches of %d, %d shards on %s%n", events, batch,
                    shardCount, sources.shardMap().hosts());
            // Warm-up: pools, JIT, statement caches.
            run(handler, sources, workload(runBase, 0, 2_000, shardCount, topics), batch, true);
            run(handler, sources, workload(runBase, 1, 2_000, shardCount, topics), batch, false);
            for (int r = 0; r < rounds; r++) {
                List<InputRecord> a = workload(runBase, 2 + 2 * r, events, shardCount, topics);
                List<InputRecord> b = workload(runBase, 3 + 2 * r, events, shardCount, topics);
                double handled = run(handler, sources, a, batch, true);
                double raw = run(handler, sources, b, batch, false);
                System.out.printf(Locale.ROOT, "round %d: materializer handler %,.0f events/s, raw JDBC inserts %,.0f events/s: %.0f %%%n",
                        r + 1, handled, raw, 100 * handled / raw);
                check(writer, a);
            }
        }
    }

    /** Applies the records batch by batch through the handler or as raw inserts; returns events/s. */
    private static double run(MaterializerHandler handler, ShardDataSources sources, List<InputRecord> records, int batch, boolean viaHandler)
            throws Exception {
        EventPlanner planner = new EventPlanner();
        ExecutorService hosts = Executors.newFixedThreadPool(4);
        long t0 = System.nanoTime();
        try {
            for (int from = 0; from < records.size(); from += batch) {
                List<InputRecord> part = records.subList(from, Math.min(records.size(), from + batch));
                if (viaHandler) {
                    handler.apply(part, new Outcomes());
                } else {
                    raw(sources, hosts, part.stream().flatMap(r -> planner.plan(r.event()).changes().stream()).toList());
                }
            }
        } finally {
            hosts.shutdown();
        }
        return records.size() / ((System.nanoTime() - t0) / 1e9);
    }

    /** The rows of {@code changes} as plain INSERTs: per host one transaction, per shard table one batch. */
    private static void raw(ShardDataSources sources, ExecutorService pool, List<CanonicalChange> changes) throws Exception {
        Map<String, Map<String, List<Object[]>>> byHost = new LinkedHashMap<>(); // host → "db.table(cols)" → rows
        for (CanonicalChange c : changes) {
            if (c instanceof CanonicalChange.PutObject o) {
                add(byHost, sources, CanonicalIds.shardOf(o.id()), o.table() + " (local_id, data)", CanonicalIds.localOf(o.id()), o.json());
            } else if (c instanceof CanonicalChange.PutMapping m) {
                String cols = m.mapping().hasActive() ? " (%s, %s, sequence, active)" : " (%s, %s, sequence)";
                Object[] row = m.mapping().hasActive() ? new Object[] {m.from(), m.to(), m.sequence(), 1} : new Object[] {m.from(), m.to(), m.sequence()};
                add(byHost, sources, CanonicalIds.shardOf(m.from()), m.mapping().table() + String.format(cols, m.mapping().from(), m.mapping().to()), row);
            } else if (c instanceof CanonicalChange.PutLike l) {
                add(byHost, sources, CanonicalIds.shardOf(l.userId()), "user_likes_pins (user_id, pin_id, sequence, liked, version)",
                        l.userId(), l.pinId(), l.occurredAtMillis(), l.liked() ? 1 : 0, l.version());
                add(byHost, sources, CanonicalIds.shardOf(l.pinId()), "pin_liked_by_users (pin_id, user_id, sequence, liked, version)",
                        l.pinId(), l.userId(), l.occurredAtMillis(), l.liked() ? 1 : 0, l.version());
            }
        }
        List<Future<?>> running = new ArrayList<>();
        byHost.forEach((host, statements) -> running.add(pool.submit(() -> {
            try (Connection c = sources.connection(host)) {
                c.setAutoCommit(false);
                for (Map.Entry<String, List<Object[]>> s : statements.entrySet()) {
                    int n = s.getValue().get(0).length;
                    try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO " + s.getKey() + " VALUES (" + "?, ".repeat(n - 1) + "?)")) {
                        for (Object[] row : s.getValue()) {
                            for (int i = 0; i < n; i++) ps.setObject(i + 1, row[i]);
                            ps.addBatch();
                        }
                        ps.executeBatch();
                    }
                }
                c.commit();
                c.setAutoCommit(true);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return null;
        })));
        for (Future<?> f : running) f.get();
    }

    private static void add(Map<String, Map<String, List<Object[]>>> byHost, ShardDataSources sources, int shard, String tableAndColumns, Object... row) {
        byHost.computeIfAbsent(sources.hostOf(shard), h -> new LinkedHashMap<>())
                .computeIfAbsent(MysqlShardMap.databaseName(shard) + "." + tableAndColumns, k -> new ArrayList<>()).add(row);
    }

    /**
     * {@code n} events of set {@code set}: 4 % users, 6 % boards (on the owner's shard), 45 % pins (on
     * the board's shard), 45 % likes and unlikes of earlier pins, in creation order (what a topic
     * delivers once producers have published it).
     */
    private static List<InputRecord> workload(long runBase, int set, int n, int shardCount, MaterializerTopics topics) {
        SplittableRandom random = new SplittableRandom(set);
        long base = runBase + ((long) set << 17) + 1;
        long[] local = {base};
        List<Long> users = new ArrayList<>();
        List<Long> boards = new ArrayList<>();
        List<Long> pins = new ArrayList<>();
        List<SpecificRecord> events = new ArrayList<>();
        long at = 1_790_000_000_000L;
        long eventId = base << 8;
        for (int i = 0; i < n; i++) {
            int roll = random.nextInt(100);
            at++;
            eventId++;
            if (users.isEmpty() || roll < 4) {
                long u = ShardedId.compose(random.nextInt(shardCount), ObjectType.USER, local[0]++);
                users.add(u);
                events.add(new UserCreated(eventId, Instant.ofEpochMilli(at), u, u, "bench" + u, null));
            } else if (boards.isEmpty() || roll < 10) {
                long owner = users.get(random.nextInt(users.size()));
                long b = ShardedId.compose(ShardedId.decode(owner).shard(), ObjectType.BOARD, local[0]++);
                boards.add(b);
                events.add(new BoardCreated(eventId, Instant.ofEpochMilli(at), owner, b, owner, "board", null));
            } else if (pins.isEmpty() || roll < 55) {
                long b = boards.get(random.nextInt(boards.size()));
                long p = ShardedId.compose(ShardedId.decode(b).shard(), ObjectType.PIN, local[0]++);
                long author = users.get(random.nextInt(users.size()));
                pins.add(p);
                events.add(new PinCreated(eventId, Instant.ofEpochMilli(at), author, p, b, author, "pin text of a typical length, a few words",
                        "https://example.com/" + p, null, null, java.util.List.of()));
            } else {
                long u = users.get(random.nextInt(users.size()));
                long p = pins.get(random.nextInt(pins.size()));
                events.add(roll < 95 ? new PinLiked(eventId, Instant.ofEpochMilli(at), u, u, p) : new PinUnliked(eventId, Instant.ofEpochMilli(at), u, u, p));
            }
        }
        List<InputRecord> records = new ArrayList<>(events.size());
        long offset = 0;
        for (SpecificRecord e : events) {
            String topic = e instanceof UserCreated ? topics.users() : e instanceof BoardCreated ? topics.boards()
                    : e instanceof PinCreated ? topics.pins() : topics.likes();
            records.add(new InputRecord(new ConsumerRecord<>(topic, 0, offset++, new byte[0], new byte[0]), e));
        }
        return records;
    }

    /** The handler's run left every pin of the set (a sample) in the store. */
    private static void check(MysqlCanonicalWriter writer, List<InputRecord> records) {
        List<CanonicalRef> pins = records.stream().filter(r -> r.event() instanceof PinCreated).limit(200)
                .map(r -> CanonicalRef.object(CanonicalLayout.PINS, ((PinCreated) r.event()).getPinId())).toList();
        int found = writer.existing(pins).found().size();
        if (found != pins.size()) throw new IllegalStateException("only " + found + " of " + pins.size() + " sampled pins were written");
    }
}
