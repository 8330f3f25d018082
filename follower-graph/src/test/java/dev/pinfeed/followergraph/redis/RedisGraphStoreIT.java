package dev.pinfeed.followergraph.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.followergraph.GraphAssertions;
import dev.pinfeed.followergraph.GraphCommand.FollowUser;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphModel;
import dev.pinfeed.followergraph.GraphScenarios;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.GraphStoreContract;
import dev.pinfeed.followergraph.UserRelation;
import dev.pinfeed.followergraph.sharded.ForwardingBackend;
import dev.pinfeed.followergraph.sharded.GraphBackend;
import dev.pinfeed.followergraph.sharded.GraphKeys;
import dev.pinfeed.followergraph.sharded.ShardedGraphStore;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.redismasters.RedisClientSettings;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShardConfig;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import dev.pinfeed.redisshards.VirtualShards;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;

@ExtendWith(StackExtension.class)
class RedisGraphStoreIT extends GraphStoreContract {

    private final TestStack stack;
    private final RedisShardMap shards;

    RedisGraphStoreIT(TestStack stack) {
        this.stack = stack;
        this.shards = RedisShards.defaultShardMap(stack.config());
    }

    @Override
    protected GraphStore newStore() {
        return RedisGraphStore.connect(stack.config(), () -> shards, stack.keyPrefix("graph"));
    }

    @Override
    protected long freshId() {
        return stack.freshId();
    }

    /** A fresh id whose virtual shard the map puts on {@code instance}. */
    private long idOn(String instance) {
        long id;
        do {
            id = stack.freshId();
        } while (!shards.instanceOf(VirtualShards.of(id)).equals(instance));
        return id;
    }

    private Jedis jedis(String instance) {
        HostPort hp = stack.config().redisInstances().stream().filter(h -> h.name().equals(instance)).findFirst().orElseThrow().master();
        return RedisClientSettings.from(stack.config()).plainConnection(hp, Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    @Test
    void eachSideOfAnEdgeLivesOnItsUsersInstanceUnderTheDocumentedKeys() {
        List<String> names = stack.config().redisInstances().stream().map(PinfeedConfig.ReplicatedHost::name).toList();
        String first = names.get(0);
        String last = names.get(names.size() - 1);
        long a = idOn(first), b = idOn(last), x = freshId(), y = freshId();
        GraphKeys k = ((RedisGraphStore) graph).keys();
        apply(followUser(a, b, 1), followBoard(a, x, b, 2), unfollowBoard(a, y, b, 3));

        try (Jedis follower = jedis(first); Jedis followee = jedis(last)) {
            assertThat(follower.zscore(k.followingExplicit(a), Long.toString(b))).isEqualTo(GraphScenarios.T0 + 1);
            assertThat(follower.zscore(k.boardsFollowed(a), Long.toString(x))).isEqualTo(GraphScenarios.T0 + 2);
            assertThat(follower.smembers(k.boardsUnfollowed(a))).containsExactly(Long.toString(y));
            assertThat(follower.hgetAll(k.userRegisters(a))).containsOnlyKeys(Long.toString(b));
            assertThat(follower.hgetAll(k.boardRegisters(a, b))).containsOnlyKeys(Long.toString(x), Long.toString(y));
            assertThat(follower.exists(k.followersExplicit(b))).as("followee keys are not on the follower's instance").isFalse();

            assertThat(followee.zscore(k.followersExplicit(b), Long.toString(a))).isEqualTo(GraphScenarios.T0 + 1);
            assertThat(followee.hgetAll(k.boardFollowers(b, x))).isEqualTo(Map.of(Long.toString(a), Long.toString(GraphScenarios.T0 + 2)));
            assertThat(followee.smembers(k.boardUnfollowers(b, y))).containsExactly(Long.toString(a));
            assertThat(followee.type(k.followersExplicit(b))).isEqualTo("zset");
            assertThat(followee.type(k.boardFollowers(b, x))).isEqualTo("hash");
            assertThat(followee.type(k.boardUnfollowers(b, y))).isEqualTo("set");
        }
    }

    @Test
    void aReplayCompletesAnEdgeHalfWrittenAcrossTwoInstances() {
        List<String> names = stack.config().redisInstances().stream().map(PinfeedConfig.ReplicatedHost::name).toList();
        long a = idOn(names.get(0)), b = idOn(names.get(names.size() - 1));
        String prefix = stack.keyPrefix("graph-crash");
        GraphBackend redis = new RedisBackend(RedisGraphStore.clients(RedisMasterConfig.fixed(stack.config())), () -> shards);
        // The followee's instance refuses its first guarded write: a writer that stopped between the two sides (they are
        // written in parallel, one pipeline per instance, so a crash is one instance's write missing).
        String followees = shards.instanceOf(VirtualShards.of(b));
        java.util.concurrent.atomic.AtomicBoolean crashed = new java.util.concurrent.atomic.AtomicBoolean();
        GraphBackend crashingOnce = new ForwardingBackend(redis) {
            @Override
            public boolean apply(int shard, Guard guard, List<Mutation> mutations) {
                if (guard != null && instanceOf(shard).equals(followees) && crashed.compareAndSet(false, true)) {
                    throw new IllegalStateException("crash before the followee's side");
                }
                return super.apply(shard, guard, mutations);
            }
        };
        try (ShardedGraphStore crashing = new ShardedGraphStore(crashingOnce, new GraphKeys(prefix)) {}) {
            FollowUser follow = new FollowUser(1, GraphScenarios.T0, a, b);
            assertThatThrownBy(() -> crashing.apply(follow)).hasMessageContaining("crash");
            assertThat(crashing.counts(b).explicitFollowers()).isZero();

            crashing.apply(follow);
            assertThat(crashing.counts(b).explicitFollowers()).isEqualTo(1);
            assertThat(crashing.relation(a, b)).isEqualTo(UserRelation.EXPLICIT);
        }
    }

    @Test
    void writesOfTheSamePairFromManyThreadsConvergeToTheNewestEvents() throws Exception {
        long a = freshId(), b = freshId(), x = freshId();
        List<GraphCommand> commands = new java.util.ArrayList<>();
        for (int i = 0; i < 60; i++) {
            commands.add(i % 2 == 0 ? followUser(a, b, i) : new GraphCommand.UnfollowUser(freshId(), GraphScenarios.T0 + i, a, b));
            commands.add(i % 3 == 0 ? followBoard(a, x, b, i) : unfollowBoard(a, x, b, i));
        }
        java.util.Collections.shuffle(commands, new java.util.Random(7));
        var pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            for (var f : pool.invokeAll(commands.stream().<java.util.concurrent.Callable<Void>>map(c -> () -> {
                graph.apply(c);
                return null;
            }).toList())) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        GraphModel model = new GraphModel();
        commands.forEach(model::apply);
        // Newest user event (t=59) is an unfollow; newest board event (t=59) an unfollow: nothing left.
        GraphAssertions.assertSameGraph(model, graph, List.of(a, b), List.of(x), 2);
        assertThat(graph.relation(a, b)).isEqualTo(UserRelation.NONE);
    }

    @Test
    void theStoreFollowsAnEditOfTheZnodeWithoutARestart(TestStack stack) throws Exception {
        String path = "/it/" + stack.uniqueName("redis_shards");
        RedisShardMap onFirst = RedisShardMap.parse("0-8191:redis001");
        long a = stack.freshId(), b = stack.freshId();
        try (CuratorFramework zk = TestZookeeper.connect(stack.config());
             RedisShardConfig shards = RedisShardConfig.watch(zk, path, onFirst, Set.of("redis001", "redis002"));
             RedisGraphStore graph = RedisGraphStore.connect(stack.config(), shards, stack.keyPrefix("graph-zk"))) {
            graph.apply(new GraphCommand.FollowUser(1, GraphScenarios.T0, a, b));
            assertThat(graph.relation(a, b)).isEqualTo(UserRelation.EXPLICIT);

            zk.setData().forPath(path, "0-8191:redis002".getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(shards.get().instanceOf(0)).isEqualTo("redis002"));
            assertThat(graph.relation(a, b)).as("reads go to the (empty) new instance").isEqualTo(UserRelation.NONE);

            zk.setData().forPath(path, onFirst.format().getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(graph.relation(a, b)).isEqualTo(UserRelation.EXPLICIT));
        }
    }
}
