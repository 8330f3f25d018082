package dev.pinfeed.loadharness;

import static dev.pinfeed.loadharness.Args.intArg;

import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CachedCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.feedworker.canonical.CanonicalReadsPins;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.mysqlshards.ShardDataSources;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The follow backfill reads benchmark (a tool, not a test): what feed-worker reads for a poll's user follows, the newest
 * {@code --pins-each} pins of each followee, one thread as the worker's loop reads them. Seeds {@code --users} users (one
 * poll's worth by default: 500) with {@code --pins} pins each under fresh ids (deleted at the end with their cache keys),
 * fills the pin cache once, then {@code --rounds} rounds of three phases, each for {@code --duration-s}:
 * <ol>
 *   <li>raw: per user, the list statement alone over plain JDBC (one connection per host): {@code SELECT pin_id, sequence
 *       FROM dbNNNNN.user_has_pins WHERE user_id = ? AND active = 1 ORDER BY sequence DESC, pin_id DESC LIMIT ?};</li>
 *   <li>one by one: {@code CanonicalReads.userPins} per user through the cache layer (feed-worker's read per follow before
 *       it read a poll's together: the list, then its pins with their counts);</li>
 *   <li>together: feed-worker's {@code CanonicalReadsPins.newestOfUsers} of all the users in one call (its read per poll:
 *       the lists in one statement per host, then the pins' JSON in one batch).</li>
 * </ol>
 * Figures are followees read per second; each phase's ratio is against raw in the same round.
 */
public final class BackfillReadsLoadHarness {

    private static final long T0 = 1_767_225_600_000L;

    private BackfillReadsLoadHarness() {}

    public static void main(String[] args) throws Exception {
        int users = intArg(args, "--users", 500);
        int pinsPerUser = intArg(args, "--pins", 60);
        int pinsEach = intArg(args, "--pins-each", 50);
        int seconds = intArg(args, "--duration-s", 5);
        int rounds = intArg(args, "--rounds", 3);
        PinfeedConfig config = StackConfig.load();
        String loadBefore = CpuMeter.loadAverage();
        long base = BenchSeed.freshLocalBase();
        List<String> table = new ArrayList<>();
        try (SeededCanonicalStores stores = SeededCanonicalStores.open(config, 4, 4)) {
            long t0 = System.nanoTime();
            long[] followees = new long[users];
            long next = base;
            for (int u = 0; u < users; u++) {
                followees[u] = ShardedId.compose((int) (next % 4096), ObjectType.USER, next++);
                stores.seed.user(followees[u], T0);
                long board = ShardedId.compose(ShardedId.decode(followees[u]).shard(), ObjectType.BOARD, next++);
                stores.seed.board(board, followees[u], T0);
                stores.cacheIds.add(followees[u]);
                stores.cacheIds.add(board);
                for (int p = 0; p < pinsPerUser; p++) {
                    long pin = ShardedId.compose(ShardedId.decode(board).shard(), ObjectType.PIN, next++);
                    stores.seed.pin(pin, board, followees[u], T0 + p);
                    stores.cacheIds.add(pin);
                }
                if (u % 100 == 99) stores.seed.flush();
            }
            stores.seed.flush();
            System.err.printf(Locale.ROOT, "seeded %d users with %d pins each in %.1f s%n", users, pinsPerUser, (System.nanoTime() - t0) / 1e9);

            CachedCanonicalReads reads = new CachedCanonicalReads(new MysqlCanonicalReads(stores.db), new RedisCanonicalCache(stores.redis, () -> stores.shards,
                    Duration.ofMinutes(10)), CacheListener.NONE, CachedCanonicalReads.DEFAULT_LIST_SIZE);
            List<Long> all = java.util.Arrays.stream(followees).boxed().toList();
            CanonicalReadsPins worker = new CanonicalReadsPins(reads);
            for (long u : followees) reads.userPins(u, null, pinsEach); // fills the pin cache
            Map<Long, List<PinFacts>> expected = worker.newestOfUsers(all, pinsEach);
            for (long u : followees) {
                if (expected.get(u).size() != Math.min(pinsEach, pinsPerUser)) throw new IllegalStateException("user " + u + ": " + expected.get(u).size() + " pins");
            }
            Map<String, Connection> jdbc = new HashMap<>();
            for (int round = 1; round <= rounds; round++) {
                double raw = perSecond(seconds, users, () -> {
                    long rows = 0;
                    for (long u : followees) rows += rawList(config, stores.sources, jdbc, u, pinsEach);
                    return rows;
                }, (long) users * Math.min(pinsEach, pinsPerUser));
                double oneByOne = perSecond(seconds, users, () -> {
                    long n = 0;
                    for (long u : followees) n += reads.userPins(u, null, pinsEach).items().size();
                    return n;
                }, (long) users * Math.min(pinsEach, pinsPerUser));
                double together = perSecond(seconds, users, () -> worker.newestOfUsers(all, pinsEach).values().stream().mapToLong(List::size).sum(),
                        (long) users * Math.min(pinsEach, pinsPerUser));
                table.add(String.format(Locale.ROOT, "| %d | %,.0f | %,.0f (%.2f) | %,.0f (%.2f) | %.1f |", round, raw, oneByOne, oneByOne / raw,
                        together, together / raw, together / oneByOne));
            }
            for (Connection c : jdbc.values()) c.close();
            System.out.printf(Locale.ROOT, "%d followees of %d pins, the newest %d of each, one thread, %d s per phase; %d cores; load average before %s, after %s%n%n",
                    users, pinsPerUser, pinsEach, seconds, Runtime.getRuntime().availableProcessors(), loadBefore, CpuMeter.loadAverage());
            Report.printTable("| round | raw list statements, followees/s | userPins one by one, followees/s (of raw) | newestOfUsers per poll, followees/s (of raw) | together / one by one |", table);
        }
    }

    /** A poll's followees read over and over for {@code seconds}: followees per second; every pass must read {@code expectedPins}. */
    private static double perSecond(int seconds, int users, PassReads pass, long expectedPins) throws SQLException {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long start = System.nanoTime();
        long passes = 0;
        do {
            long got = pass.run();
            if (got != expectedPins) throw new IllegalStateException("a pass read " + got + " pins, not " + expectedPins);
            passes++;
        } while (System.nanoTime() < end);
        return Report.perSecond(passes * users, System.nanoTime() - start);
    }

    @FunctionalInterface
    private interface PassReads {
        long run() throws SQLException;
    }

    private static long rawList(PinfeedConfig config, ShardDataSources sources, Map<String, Connection> jdbc, long user, int limit) throws SQLException {
        ShardedId id = ShardedId.decode(user);
        Connection c = jdbc.computeIfAbsent(sources.hostOf(id.shard()), h -> BenchSeed.rawConnection(config, sources, h));
        Mapping m = Mapping.USER_HAS_PINS;
        try (PreparedStatement ps = c.prepareStatement("SELECT " + m.to() + ", " + CanonicalLayout.SEQUENCE + " FROM "
                + MysqlShardMap.databaseName(id.shard()) + "." + m.table() + " WHERE " + m.from() + " = ? AND " + CanonicalLayout.ACTIVE
                + " = 1 ORDER BY " + CanonicalLayout.SEQUENCE + " DESC, " + m.to() + " DESC LIMIT ?")) {
            ps.setLong(1, user);
            ps.setInt(2, limit);
            long rows = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) rows++;
            }
            return rows;
        }
    }

}
