package dev.pinfeed.operations.shards;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.WatchedZnode;
import dev.pinfeed.operations.shards.ShardMoves.Move;
import dev.pinfeed.operations.shards.ShardMoves.Phase;
import dev.pinfeed.redismasters.RedisClientSettings;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShardConfig;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import dev.pinfeed.redisshards.ShardFenceFollowers;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.params.RestoreParams;
import org.apache.curator.framework.CuratorFramework;

/**
 * Moves a range of Redis virtual shards to another instance online (seed 004 splits an instance by
 * moving virtual shards to a new master; seed 003's copy, catch-up, short pause, switch and undo):
 * <ol>
 *   <li>subscribes to the giving instance's keyspace notifications ({@link KeyspaceWatch}), then copies
 *       every key of the range (SCAN, DUMP, RESTORE … REPLACE with its TTL) to the taking instance;</li>
 *   <li>copies again each key changed since, until few remain;</li>
 *   <li>fences the range in the live map and waits until every follower of the map
 *       ({@link ShardFenceFollowers}) has acknowledged it: from then on no write of the range reaches the
 *       giver; its writers wait ({@link RedisShardConfig#write});</li>
 *   <li>copies the keys changed up to that moment, then points the range at the taker and lifts the fence
 *       in one compare-and-set of the map.</li>
 * </ol>
 * The giver keeps its copy, unused, until {@code finalize} deletes it. An undo is a move back: a fresh
 * copy from the taker, so it loses nothing written meanwhile.
 */
final class RedisShardMover {

    record Report(Duration took, Duration writePause, long keysCopied, long keysCopiedAgain) {}

    static final Duration FENCE_TIMEOUT = Duration.ofSeconds(30);
    private static final int BATCH = 500;
    /** Catch-up rounds before the cutover, and the changed keys left at which it cuts over. */
    private static final int CATCH_UP_ROUNDS = 20;
    private static final int CUT_OVER_AT = 200;

    private final PinfeedConfig config;
    private final RedisClientSettings clientSettings;
    private final CuratorFramework zk;
    private final ShardMoves moves;
    private final String mapPath;
    private final String prefix;
    private final Consumer<String> step;
    private final Consumer<String> waiting;
    private final Clock clock;
    private final BooleanSupplier stop;

    /** {@code stop}: Ctrl-C was pressed; a move or undo stops at its next check before the cutover and rolls back. */
    RedisShardMover(PinfeedConfig config, CuratorFramework zk, Consumer<String> step, Consumer<String> waiting, BooleanSupplier stop, Clock clock) {
        this.config = config;
        this.clientSettings = RedisClientSettings.from(config);
        this.stop = stop;
        this.zk = zk;
        this.moves = ShardMoves.redis(zk, config);
        this.mapPath = config.get("graph.redis.shards.znode", RedisShardConfig.ZNODE);
        this.prefix = RedisShards.keyPrefix(config);
        this.step = step;
        this.waiting = waiting;
        this.clock = clock;
    }

    /** The map in force (seeded from the configuration if ZooKeeper has none yet). */
    RedisShardMap map() throws Exception {
        return RedisShardMap.parse(WatchedZnode.read(zk, mapPath, RedisShards.defaultShardMap(config).format()));
    }

    List<Move> moves() throws Exception {
        return moves.all();
    }

    private RedisShardMap updateMap(UnaryOperator<RedisShardMap> edit) throws Exception {
        return RedisShardMap.parse(WatchedZnode.update(zk, mapPath, text -> edit.apply(RedisShardMap.parse(text)).format()));
    }

    /** The current master of {@code instance}; {@link IllegalArgumentException} for an instance the configuration lacks. */
    HostPort master(String instance) throws Exception {
        if (config.redisInstances().stream().noneMatch(i -> i.name().equals(instance))) {
            throw new IllegalArgumentException("redis instance '" + instance + "' is not configured (redis.instances: "
                    + String.join(",", config.redisInstances().stream().map(PinfeedConfig.ReplicatedHost::name).toList()) + ")");
        }
        return RedisMasterConfig.read(zk, RedisMasterConfig.znode(config), config.redisInstances()).masterOf(instance);
    }

    Report move(int first, int last, String to) throws Exception {
        long started = clock.millis();
        String from = map().instanceOfRange(first, last);
        if (from.equals(to)) throw new IllegalArgumentException("virtual shards " + first + "-" + last + " already live on " + to);
        master(to);
        List<String> unaware = ShardFenceFollowers.notReaching(zk, mapPath, to);
        if (!unaware.isEmpty()) {
            throw new IllegalStateException(unaware.size() + " processes following the map cannot reach " + to + " (" + String.join("; ", unaware)
                    + "): give them " + to + " in their configuration (redis.instances) and restart them first; nothing moved");
        }
        Move move = new Move(first, last, from, to, Phase.COPYING, null);
        moves.begin(move);
        step.accept(String.format(Locale.ROOT, "moving virtual shards %d-%d from %s to %s", first, last, from, to));
        Report report;
        try {
            report = transfer(first, last, from, to, () -> moves.save(move.in(Phase.CUTOVER)), started);
        } catch (Exception | Error e) {
            deleteRange(to, first, last, "the partial copy");
            moves.end(move);
            throw e;
        }
        moves.save(move.in(Phase.MOVED));
        step.accept(String.format(Locale.ROOT, "virtual shards %d-%d now live on %s (writers paused %d ms); %s keeps its old copy until finalize",
                first, last, to, report.writePause().toMillis(), from));
        return report;
    }

    /** Moves a moved range back to its old instance (a fresh copy), or rolls back a move whose mover stopped midway. */
    Report undo(int first, int last) throws Exception {
        long started = clock.millis();
        Move move = moves.find(first, last).orElseThrow(() -> new IllegalStateException("no move of virtual shards " + first + "-" + last
                + " is under way (./pinfeed redis-shards status lists them)"));
        if (move.phase() == Phase.COPYING || move.phase() == Phase.CUTOVER) return rollBack(move, started);
        RedisShardMap map = map();
        if (move.phase() == Phase.UNDOING && map.instanceOfRange(first, last).equals(move.from())) {
            // An undo whose mover stopped after its flip: only the abandoned copy is left to delete.
            updateMap(m -> m.unfencing(first, last));
            deleteRange(move.to(), first, last, "the abandoned copy");
            moves.end(move);
            step.accept(String.format(Locale.ROOT, "finished the interrupted undo: virtual shards %d-%d live on %s", first, last, move.from()));
            return new Report(Duration.ofMillis(clock.millis() - started), Duration.ZERO, 0, 0);
        }
        moves.save(move.in(Phase.UNDOING));
        step.accept(String.format(Locale.ROOT, "moving virtual shards %d-%d back from %s to %s", first, last, move.to(), move.from()));
        // A fresh copy replaces the old one: nothing written to the taker since the move is lost.
        Report report = transfer(first, last, move.to(), move.from(), () -> { }, started);
        deleteRange(move.to(), first, last, "the abandoned copy");
        moves.end(move);
        step.accept(String.format(Locale.ROOT, "virtual shards %d-%d back on %s (writers paused %d ms)", first, last, move.from(),
                report.writePause().toMillis()));
        return report;
    }

    private Report rollBack(Move move, long started) throws Exception {
        RedisShardMap map = updateMap(m -> m.unfencing(move.first(), move.last()));
        if (map.instanceOfRange(move.first(), move.last()).equals(move.to())) {
            moves.save(move.in(Phase.MOVED));
            throw new IllegalStateException("virtual shards " + move.range() + " already live on " + move.to() + ": the move finished before its"
                    + " mover stopped; finalize it, or undo it again to move the range back");
        }
        deleteRange(move.to(), move.first(), move.last(), "the partial copy");
        moves.end(move);
        step.accept("rolled back the unfinished move of virtual shards " + move.range() + ": they live on " + move.from() + " as before");
        return new Report(Duration.ofMillis(clock.millis() - started), Duration.ZERO, 0, 0);
    }

    /** Ends a finished move: the old instance's copy of the range is deleted; no undo after this. */
    Move finalizeMove(int first, int last) throws Exception {
        Move move = moves.find(first, last).filter(m -> m.phase() == Phase.MOVED).orElseThrow(() -> new IllegalStateException(
                "no finished move of virtual shards " + first + "-" + last + " to finalize (./pinfeed redis-shards status lists them)"));
        deleteRange(move.from(), first, last, "the old copy");
        moves.end(move);
        return move;
    }

    @FunctionalInterface
    private interface Action {
        void run() throws Exception;
    }

    /**
     * Copy, catch up, fence, last copy, flip: shards {@code first..last} go from {@code giver} to {@code taker}.
     * On a failure before the flip the fence is lifted and the range stays on the giver.
     */
    private Report transfer(int first, int last, String giver, String taker, Action beforeCutOver, long started) throws Exception {
        HostPort giverMaster = master(giver);
        try (Jedis source = connect(giverMaster); Jedis target = connect(master(taker))) {
            String flags = configGet(source, KeyspaceWatch.NOTIFY);
            source.configSet(KeyspaceWatch.NOTIFY, KeyspaceWatch.withNeededFlags(flags));
            RangeKeys keys = new RangeKeys(prefix, first, last);
            try (KeyspaceWatch watch = KeyspaceWatch.start(clientSettings, giverMaster, keys)) {
                long cleared = deleteKeys(target, keys);
                if (cleared > 0) step.accept("deleted " + cleared + " stale keys of the range on " + taker);
                long copied = copyAll(source, target, keys);
                step.accept(String.format(Locale.ROOT, "copied %d keys of virtual shards %d-%d to %s; copying what changed since", copied, first,
                        last, taker));
                long again = 0;
                for (int round = 0; round < CATCH_UP_ROUNDS; round++) {
                    List<String> changed = watch.drain();
                    again += copyKeys(source, target, changed);
                    waiting.accept("catching up: " + changed.size() + " keys changed in the last round");
                    checkStop();
                    if (changed.size() < CUT_OVER_AT) break;
                }
                checkStop();
                beforeCutOver.run();
                long fenced = clock.millis();
                updateMap(m -> {
                    if (!m.instanceOfRange(first, last).equals(giver)) {
                        throw new IllegalStateException("virtual shards " + first + "-" + last + " no longer live on " + giver + ": the map changed");
                    }
                    return m.fencing(first, last);
                });
                try {
                    awaitFollowers(first, last);
                    if (!master(giver).equals(giverMaster)) throw new IllegalStateException(giver + " failed over during the move");
                    watch.sync();
                    again += copyKeys(source, target, watch.drain());
                } catch (Exception | Error e) {
                    updateMap(m -> m.unfencing(first, last));
                    throw e;
                }
                updateMap(m -> m.assigning(first, last, taker).unfencing(first, last));
                Duration pause = Duration.ofMillis(clock.millis() - fenced);
                return new Report(Duration.ofMillis(clock.millis() - started), pause, copied, again);
            } finally {
                restoreNotifications(source, giver, flags);
            }
        }
    }

    private void checkStop() {
        if (stop.getAsBoolean()) throw new IllegalStateException("interrupted before the cutover: the range stays where it was");
    }

    /** Waits until every follower of the map has taken up the fence on {@code first..last} (its writes there are done). */
    private void awaitFollowers(int first, int last) throws Exception {
        RedisShardMap.Span fence = new RedisShardMap.Span(first, last);
        long deadline = clock.millis() + FENCE_TIMEOUT.toMillis();
        while (true) {
            List<String> behind = ShardFenceFollowers.notFencing(zk, mapPath, fence);
            if (behind.isEmpty()) return;
            if (clock.millis() > deadline) {
                throw new IllegalStateException(behind.size() + " processes did not take up the fence in " + FENCE_TIMEOUT.toSeconds() + " s ("
                        + String.join("; ", behind) + "); nothing moved");
            }
            Thread.sleep(5);
        }
    }

    /** Switches the giver's notifications back as they were, unless another move from it still needs them. */
    private void restoreNotifications(Jedis source, String giver, String flags) throws Exception {
        boolean another = moves.all().stream().filter(m -> m.phase() != Phase.MOVED)
                .filter(m -> (m.phase() == Phase.UNDOING ? m.to() : m.from()).equals(giver)).count() > 1;
        if (!another) source.configSet(KeyspaceWatch.NOTIFY, flags == null ? "" : flags);
    }

    private static String configGet(Jedis jedis, String name) {
        Map<String, String> values = jedis.configGet(name);
        return values.getOrDefault(name, "");
    }

    private long copyAll(Jedis source, Jedis target, RangeKeys keys) {
        long[] copied = {0};
        List<String> batch = new ArrayList<>();
        keys.scan(source, step -> {
            batch.addAll(step);
            if (batch.size() >= BATCH) {
                copied[0] += copyKeys(source, target, batch);
                batch.clear();
                waiting.accept("copied " + copied[0] + " keys");
                checkStop();
            }
        });
        return copied[0] + copyKeys(source, target, batch);
    }

    /** Copies {@code keys} as they are now (a key gone meanwhile is deleted on the target). */
    private static long copyKeys(Jedis source, Jedis target, Collection<String> keys) {
        List<String> all = new ArrayList<>(keys);
        for (int i = 0; i < all.size(); i += BATCH) {
            List<String> batch = all.subList(i, Math.min(all.size(), i + BATCH));
            List<Response<byte[]>> dumps = new ArrayList<>(batch.size());
            List<Response<Long>> ttls = new ArrayList<>(batch.size());
            try (Pipeline p = source.pipelined()) {
                for (String key : batch) {
                    dumps.add(p.dump(key));
                    ttls.add(p.pttl(key));
                }
                p.sync();
            }
            try (Pipeline p = target.pipelined()) {
                for (int k = 0; k < batch.size(); k++) {
                    byte[] dump = dumps.get(k).get();
                    long ttl = ttls.get(k).get();
                    if (dump == null || ttl == -2) {
                        p.del(batch.get(k));
                    } else {
                        p.restore(batch.get(k), Math.max(0, ttl), dump, RestoreParams.restoreParams().replace());
                    }
                }
                p.sync();
            }
        }
        return all.size();
    }

    private void deleteRange(String instance, int first, int last, String what) throws Exception {
        try (Jedis jedis = connect(master(instance))) {
            long deleted = deleteKeys(jedis, new RangeKeys(prefix, first, last));
            step.accept(String.format(Locale.ROOT, "deleted %s of virtual shards %d-%d on %s (%d keys)", what, first, last, instance, deleted));
        }
    }

    private static long deleteKeys(Jedis jedis, RangeKeys keys) {
        long[] deleted = {0};
        keys.scan(jedis, step -> deleted[0] += jedis.unlink(step.toArray(String[]::new)));
        return deleted[0];
    }

    private Jedis connect(HostPort master) {
        return clientSettings.plainConnection(master, Duration.ofSeconds(5), Duration.ofSeconds(30));
    }
}
