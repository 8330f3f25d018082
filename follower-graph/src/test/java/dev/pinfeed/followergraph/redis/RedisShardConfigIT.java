package dev.pinfeed.followergraph.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphScenarios;
import dev.pinfeed.followergraph.UserRelation;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(StackExtension.class)
class RedisShardConfigIT {

    private static Set<String> instances(TestStack stack) {
        return stack.config().redisInstances().stream().map(PinfeedConfig.ReplicatedHost::name).collect(Collectors.toSet());
    }

    private static CuratorFramework zk(TestStack stack) {
        return TestZookeeper.connect(stack.config());
    }

    @Test
    void seedsAnAbsentZnodeAndKeepsAnExistingOne(TestStack stack) throws Exception {
        String path = "/it/" + stack.uniqueName("redis_shards");
        RedisShardMap first = RedisShardMap.parse("0-8191:redis001");
        try (CuratorFramework zk = zk(stack);
             RedisShardConfig seeded = RedisShardConfig.watch(zk, path, first, instances(stack));
             RedisShardConfig again = RedisShardConfig.watch(zk, path, RedisShardMap.parse("0-8191:redis002"), instances(stack))) {
            assertThat(new String(zk.getData().forPath(path), StandardCharsets.UTF_8)).isEqualTo("0-8191:redis001");
            assertThat(seeded.get()).isEqualTo(first);
            assertThat(again.get()).as("an existing map wins over the seed").isEqualTo(first);
        }
    }

    @Test
    void theStoreFollowsAnEditOfTheZnodeWithoutARestart(TestStack stack) throws Exception {
        String path = "/it/" + stack.uniqueName("redis_shards");
        RedisShardMap onFirst = RedisShardMap.parse("0-8191:redis001");
        RedisShardMap onSecond = RedisShardMap.parse("0-4095:redis002,4096-8191:redis001");
        long a = stack.freshId(), b = stack.freshId();
        try (CuratorFramework zk = zk(stack);
             RedisShardConfig shards = RedisShardConfig.watch(zk, path, onFirst, instances(stack));
             RedisGraphStore graph = RedisGraphStore.connect(stack.config().redisInstances(), shards, stack.keyPrefix("graph-zk"))) {
            CopyOnWriteArrayList<RedisShardMap> seen = new CopyOnWriteArrayList<>();
            shards.onChange(seen::add);
            graph.apply(new GraphCommand.FollowUser(1, GraphScenarios.T0, a, b));
            assertThat(graph.relation(a, b)).isEqualTo(UserRelation.EXPLICIT);

            zk.setData().forPath(path, "0-8191:redis002".getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(shards.get().instanceOf(0)).isEqualTo("redis002"));
            assertThat(graph.relation(a, b)).as("reads go to the (empty) new instance").isEqualTo(UserRelation.NONE);

            zk.setData().forPath(path, "0-8191:redis999".getBytes(StandardCharsets.UTF_8)); // refused: unknown instance
            zk.setData().forPath(path, "not a map".getBytes(StandardCharsets.UTF_8));        // refused: does not parse
            zk.setData().forPath(path, onSecond.format().getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(shards.get()).isEqualTo(onSecond));
            assertThat(seen).containsExactly(RedisShardMap.parse("0-8191:redis002"), onSecond);
        }
    }

    @Test
    void aStoredMapNamingAnUnknownInstanceStopsStartUp(TestStack stack) throws Exception {
        String path = "/it/" + stack.uniqueName("redis_shards");
        try (CuratorFramework zk = zk(stack)) {
            zk.create().creatingParentsIfNeeded().forPath(path, "0-8191:nowhere".getBytes(StandardCharsets.UTF_8));
            assertThatThrownBy(() -> RedisShardConfig.watch(zk, path, RedisShardMap.parse("0-8191:redis001"), instances(stack)))
                    .hasMessageContaining("nowhere");
        }
    }

    @Test
    void aServiceSeedsTheApplicationZnodeFromTheConfiguredInstances(TestStack stack) throws Exception {
        try (CuratorFramework zk = zk(stack);
             GraphConnections connections = GraphConnections.open(stack.config(), zk, stack.keyPrefix("graph-svc"))) {
            String stored = new String(zk.getData().forPath(RedisShardConfig.ZNODE), StandardCharsets.UTF_8);
            assertThat(RedisShardMap.parse(stored)).isEqualTo(connections.shards().get());
            assertThat(connections.shards().get().instances()).isSubsetOf(instances(stack));
            long a = stack.freshId(), b = stack.freshId();
            connections.store().apply(new GraphCommand.FollowUser(1, GraphScenarios.T0, a, b));
            assertThat(connections.store().relation(a, b)).isEqualTo(UserRelation.EXPLICIT);
            assertThat(connections.store().isEmpty()).isFalse();
        }
    }
}
