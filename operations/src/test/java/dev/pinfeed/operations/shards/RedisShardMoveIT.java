package dev.pinfeed.operations.shards;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.operations.CliRun;
import dev.pinfeed.redismasters.RedisClientSettings;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShardConfig;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.VirtualShards;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * {@code ./pinfeed redis-shards move|finalize|status} on the real Redis instances while the follower
 * graph is written and read through its Redis adapter on the live map, as the graph processor and
 * feed-service do. The test has its own map znode and key prefix: it moves only its own keys and only
 * its own processes follow the fence.
 */
@ExtendWith(StackExtension.class)
class RedisShardMoveIT {

    private static final int FIRST = 0;
    private static final int LAST = 1023;
    private static final String MOVING = FIRST + "-" + LAST;

    private static TestStack stack;
    private static PinfeedConfig config;
    private static String prefix;
    private static CuratorFramework zk;
    private static GraphConnections graph;

    @BeforeAll
    static void setUp(TestStack s) throws Exception {
        stack = s;
        String base = "/it/" + s.uniqueName("redis-shard-move");
        prefix = s.keyPrefix("redis-move");
        config = s.config().with("graph.redis.shards.znode", base + "/redis-shards").with("redis.shard-moves.znode", base + "/moves")
                .with("graph.redis.key-prefix", prefix);
        zk = CuratorClients.start(config);
        graph = GraphConnections.open(config, zk, prefix);
    }

    @AfterAll
    static void tearDown() {
        if (graph != null) graph.close();
        if (zk != null) zk.close();
    }

    @Test
    void movesARangeWhileTheGraphIsWrittenLosesNothingAndUndoBringsBackWhatWasWrittenSince() throws Exception {
        assertThat(live().instanceOf(FIRST)).isEqualTo("redis001");
        Map<String, byte[]> oldCopy;
        try (Writers writers = new Writers()) {
            writers.awaitAcknowledged(300);
            CliRun move = CliRun.of(config, null, "redis-shards", "move", "--shards", MOVING, "--to", "redis002");
            assertThat(move.code()).as(move.out() + move.err()).isZero();
            long moved = writers.acknowledged();
            writers.awaitAcknowledged(moved + 300);
            writers.stop();
            System.out.println(move.out().strip().lines().map(l -> "[redis-shard-move-it] " + l).collect(java.util.stream.Collectors.joining("\n"))
                    + "\n[redis-shard-move-it] writers: " + writers.report());

            assertThat(writers.failures()).as("writes that gave up, reads that failed").isEmpty();
            assertThat(live().instanceOf(FIRST)).isEqualTo("redis002");
            assertThat(live().instanceOf(LAST + 1)).isEqualTo("redis001");
            assertThat(live().fences()).isEmpty();
            writers.assertEveryAcknowledgedFollowReadable();
            assertThat(rangeKeys("redis002")).as("the range's keys on the new instance").isNotEmpty();
            // Every write after the cutover went to redis002: redis001's copy is as the cutover left it.
            oldCopy = dumps("redis001");
            assertThat(oldCopy).isNotEmpty();
            // The writers' pause: no write waited as long as the fence allows.
            assertThat(writers.maxLatencyMillis()).isLessThan(60_000);
        }
        try (Writers writers = new Writers()) {
            writers.awaitAcknowledged(300);
            writers.stop();
            assertThat(writers.failures()).isEmpty();
            assertThat(sameDumps(dumps("redis001"), oldCopy)).as("redis001's old copy untouched by writes after the cutover").isTrue();
        }
        CliRun status = CliRun.of(config, null, "redis-shards", "status");
        assertThat(status.out()).contains(MOVING + " from redis001 to redis002: moved").containsPattern("0-1023\\s+redis002");

        try (Writers writers = new Writers()) {
            writers.awaitAcknowledged(300);
            CliRun undo = CliRun.of(config, null, "redis-shards", "move", "--shards", MOVING, "--undo");
            assertThat(undo.code()).as(undo.out() + undo.err()).isZero();
            writers.awaitAcknowledged(writers.acknowledged() + 300);
            writers.stop();
            assertThat(writers.failures()).isEmpty();
            assertThat(live().instanceOf(FIRST)).isEqualTo("redis001");
            // Follows written while the range lived on redis002 came back with it.
            writers.assertEveryAcknowledgedFollowReadable();
            assertThat(rangeKeys("redis002")).as("the abandoned copy is deleted").isEmpty();
            assertThat(CliRun.of(config, null, "redis-shards", "status").out()).contains("no moves under way");
        }

        CliRun again = CliRun.of(config, null, "redis-shards", "move", "--shards", MOVING, "--to", "redis002");
        assertThat(again.code()).as(again.out() + again.err()).isZero();
        CliRun fin = CliRun.of(config, null, "redis-shards", "finalize", "--shards", MOVING);
        assertThat(fin.code()).as(fin.out() + fin.err()).isZero();
        assertThat(rangeKeys("redis001")).as("the old copy is deleted").isEmpty();
        assertThat(rangeKeys("redis002")).isNotEmpty();
        assertThat(CliRun.of(config, null, "redis-shards", "move", "--shards", MOVING, "--undo").err()).contains("no move of virtual shards 0-1023");
    }

    @Test
    void undoRollsBackAMoveWhoseMoverDiedInTheCutover() throws Exception {
        int first = 2000;
        int last = 2001;
        // What a mover killed -9 mid-cutover leaves: the record, the fence, a partial copy.
        String partial = leftBehind(first, last, ShardMoves.Phase.CUTOVER);
        String mapPath = config.get("graph.redis.shards.znode", RedisShardConfig.ZNODE);
        dev.pinfeed.config.zookeeper.WatchedZnode.update(zk, mapPath, t -> RedisShardMap.parse(t).fencing(first, last).format());
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> live().isFenced(first));

        CliRun undo = CliRun.of(config, null, "redis-shards", "move", "--shards", first + "-" + last, "--undo");

        assertThat(undo.code()).as(undo.out() + undo.err()).isZero();
        assertThat(undo.out()).contains("rolled back the unfinished move of virtual shards 2000-2001");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> live().fences().isEmpty());
        assertThat(live().instanceOf(first)).isEqualTo("redis001");
        try (Jedis target = jedis("redis002")) {
            assertThat(target.exists(partial)).isFalse();
        }
        // A write of the range goes through again.
        long user = userOnShard(first);
        graph.store().apply(new GraphCommand.FollowUser(stack.freshId(), 1, user, stack.freshId()));
    }

    /** A record of a move redis001 → redis002 in {@code phase}, and a key of the range on redis002 (a copy); returns the key. */
    private static String leftBehind(int first, int last, ShardMoves.Phase phase) throws Exception {
        ShardMoves.redis(zk, config).begin(new ShardMoves.Move(first, last, "redis001", "redis002", phase, null));
        String key = prefix + "left-behind:" + VirtualShards.tagOfShard(first);
        try (Jedis target = jedis("redis002")) {
            target.set(key, "x");
        }
        return key;
    }

    @Test
    void anUndoWhoseMoverStoppedAfterItsFlipIsFinishedByUndoAgain() throws Exception {
        int first = 2200;
        int last = 2201;
        // What an undo killed after its flip leaves: the record (undoing), the range back on redis001, the abandoned copy on redis002.
        String abandoned = leftBehind(first, last, ShardMoves.Phase.UNDOING);

        CliRun undo = CliRun.of(config, null, "redis-shards", "move", "--shards", first + "-" + last, "--undo");

        assertThat(undo.code()).as(undo.out() + undo.err()).isZero();
        assertThat(undo.out()).contains("finished the interrupted undo");
        assertThat(live().instanceOf(first)).isEqualTo("redis001");
        try (Jedis target = jedis("redis002")) {
            assertThat(target.exists(abandoned)).isFalse();
        }
        assertThat(ShardMoves.redis(zk, config).find(first, last)).isEmpty();
    }

    @Test
    void aMoveStoppedByCtrlCBeforeItsCutoverLeavesTheRangeWhereItWasAndNoCopy() throws Exception {
        int first = 2100;
        int last = 2163;
        long user = userOnShard(first);
        graph.store().apply(new GraphCommand.FollowUser(stack.freshId(), 1, user, stack.freshId()));
        RedisShardMap before = live();
        java.util.concurrent.atomic.AtomicInteger checks = new java.util.concurrent.atomic.AtomicInteger();
        RedisShardMover mover = new RedisShardMover(config, zk, line -> {}, line -> {}, () -> checks.incrementAndGet() > 1,
                java.time.Clock.systemUTC());

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> mover.move(first, last, "redis002")).hasMessageContaining("interrupted");

        assertThat(live()).isEqualTo(before);
        assertThat(ShardMoves.redis(zk, config).all()).isEmpty();
        try (Jedis target = jedis("redis002")) {
            assertThat(target.keys(prefix + "*" + VirtualShards.tagOfShard(first) + "*")).as("the partial copy is deleted").isEmpty();
        }
        assertThat(graph.store().relation(user, 0).following()).isFalse(); // still readable where it was
    }

    @Test
    void refusesARangeOnTwoInstancesAndAnUnknownInstanceWithOneLineAndChangesNothing() {
        RedisShardMap before = live();
        CliRun twoInstances = CliRun.of(config, null, "redis-shards", "move", "--shards", "4000-4200", "--to", "redis002");
        assertThat(twoInstances.code()).isNotZero();
        assertThat(twoInstances.err().strip()).contains("on more than one instance").doesNotContain("\n");
        CliRun unknown = CliRun.of(config, null, "redis-shards", "move", "--shards", "3000-3001", "--to", "redis009");
        assertThat(unknown.code()).isNotZero();
        assertThat(unknown.err()).contains("redis instance 'redis009' is not configured");
        CliRun usage = CliRun.of(config, null, "redis-shards", "move", "--shards", "x-y", "--to", "redis002");
        assertThat(usage.code()).isEqualTo(2);
        assertThat(live()).isEqualTo(before);
    }

    // ---- writers and readers of the graph on the live map

    private static RedisShardMap live() {
        return graph.shards().get();
    }

    private static long userOnShard(int shard) {
        while (true) {
            long id = stack.freshId();
            if (VirtualShards.of(id) == shard) return id;
        }
    }

    /** Follows between fresh users (a quarter of them on the moving range), read back while written, until stopped. */
    private static final class Writers extends MoveTraffic<Long> {
        private final GraphStore store = graph.store();

        Writers() {
            start("redis-shard-move-it");
        }

        @Override
        void writeOne() {
            long follower = stack.freshId();
            long followee = stack.freshId();
            // As the graph processor does: the record is retried (every graph write is idempotent).
            acknowledgeAfter(follower, followee, () -> store.apply(new GraphCommand.FollowUser(stack.freshId(), System.currentTimeMillis(),
                    follower, followee)), e -> e instanceof StoreUnavailableException);
        }

        @Override
        void readOne(Map.Entry<Long, Long> pair) {
            try {
                if (!store.relation(pair.getKey(), pair.getValue()).following()) fail("read of acknowledged follow " + pair + " found nothing");
            } catch (RuntimeException e) {
                fail("read " + pair + ": " + e);
            }
        }

        void assertEveryAcknowledgedFollowReadable() {
            List<String> missing = new ArrayList<>();
            acknowledged.forEach((follower, followee) -> {
                if (!store.relation(follower, followee).following()) missing.add(follower + " -> " + followee);
                if (store.counts(followee).followers() != 1) missing.add(followee + "'s follower count");
            });
            assertThat(missing).as("acknowledged follows missing").isEmpty();
        }
    }

    // ---- the instances, directly

    private static Jedis jedis(String instance) throws Exception {
        HostPort master = RedisMasterConfig.read(zk, RedisMasterConfig.znode(config), config.redisInstances()).masterOf(instance);
        return RedisClientSettings.from(config).plainConnection(master, Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    /** This test's keys of the moving range on {@code instance}. */
    private static Set<String> rangeKeys(String instance) throws Exception {
        return dumps(instance).keySet();
    }

    private static Map<String, byte[]> dumps(String instance) throws Exception {
        Map<String, byte[]> out = new HashMap<>();
        try (Jedis jedis = jedis(instance)) {
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> step = jedis.scan(cursor, new ScanParams().match(prefix + "*").count(1000));
                for (String key : step.getResult()) {
                    int shard = VirtualShards.shardOfKey(key);
                    if (shard >= FIRST && shard <= LAST) out.put(key, jedis.dump(key));
                }
                cursor = step.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
        return out;
    }

    private static boolean sameDumps(Map<String, byte[]> a, Map<String, byte[]> b) {
        if (!a.keySet().equals(b.keySet())) return false;
        for (Map.Entry<String, byte[]> e : a.entrySet()) if (!Arrays.equals(e.getValue(), b.get(e.getKey()))) return false;
        return true;
    }
}
