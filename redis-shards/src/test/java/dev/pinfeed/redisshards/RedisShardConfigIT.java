package dev.pinfeed.redisshards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.config.zookeeper.WatchedZnode;
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
        return CuratorClients.start(stack.config());
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
    void anEditOfTheZnodeIsFollowedWithoutARestartAndABadOneRefused(TestStack stack) throws Exception {
        String path = "/it/" + stack.uniqueName("redis_shards");
        RedisShardMap onFirst = RedisShardMap.parse("0-8191:redis001");
        RedisShardMap onSecond = RedisShardMap.parse("0-4095:redis002,4096-8191:redis001");
        try (CuratorFramework zk = zk(stack);
             RedisShardConfig shards = RedisShardConfig.watch(zk, path, onFirst, instances(stack))) {
            CopyOnWriteArrayList<RedisShardMap> seen = new CopyOnWriteArrayList<>();
            shards.onChange(seen::add);

            zk.setData().forPath(path, "0-8191:redis002".getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(shards.get().instanceOf(0)).isEqualTo("redis002"));

            zk.setData().forPath(path, "0-8191:redis999".getBytes(StandardCharsets.UTF_8)); // refused: unknown instance
            zk.setData().forPath(path, "not a map".getBytes(StandardCharsets.UTF_8));        // refused: does not parse
            zk.setData().forPath(path, onSecond.format().getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(shards.get()).isEqualTo(onSecond));
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
    void aProcessSeedsTheApplicationZnodeFromTheConfiguredInstances(TestStack stack) throws Exception {
        try (CuratorFramework zk = zk(stack);
             RedisShards redis = RedisShards.open(stack.config(), zk)) {
            String stored = new String(zk.getData().forPath(RedisShardConfig.ZNODE), StandardCharsets.UTF_8);
            assertThat(RedisShardMap.parse(stored)).isEqualTo(redis.shards().get());
            assertThat(redis.shards().get().instances()).isSubsetOf(instances(stack));
            assertThat(redis.masters().get().instances()).containsAll(redis.shards().get().instances());
        }
    }

    @Test
    void aFenceIsAcknowledgedOnlyOnceWritesInFlightAreDoneAndWritesOfTheRangeWaitForTheFlip(TestStack stack) throws Exception {
        String path = "/it/" + stack.uniqueName("redis_shards");
        RedisShardMap.Span fence = new RedisShardMap.Span(0, 15);
        try (CuratorFramework zk = zk(stack);
             RedisShardConfig shards = RedisShardConfig.watch(zk, path, RedisShardMap.parse("0-8191:redis001"), instances(stack))) {
            java.util.concurrent.CountDownLatch writing = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CompletableFuture<String> inFlight = java.util.concurrent.CompletableFuture.supplyAsync(() -> shards.write(7, instance -> {
                writing.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return instance;
            }));
            writing.await();

            WatchedZnode.update(zk, path, t -> RedisShardMap.parse(t).fencing(0, 15).format());
            await().atMost(Duration.ofSeconds(30)).until(() -> shards.get().isFenced(7));
            Thread.sleep(300);
            assertThat(ShardFenceFollowers.notFencing(zk, path, fence)).as("the write in flight holds the acknowledgement back").hasSize(1);
            java.util.concurrent.CompletableFuture<String> waiting = java.util.concurrent.CompletableFuture.supplyAsync(() -> shards.write(8, i -> i));
            String outside = shards.write(100, i -> i);
            assertThat(outside).as("a shard outside the fence is not held").isEqualTo("redis001");

            release.countDown();
            assertThat(inFlight.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("redis001");
            await().atMost(Duration.ofSeconds(30)).until(() -> ShardFenceFollowers.notFencing(zk, path, fence).isEmpty());
            Thread.sleep(300);
            assertThat(waiting).as("a write of a fenced shard waits").isNotDone();

            WatchedZnode.update(zk, path, t -> RedisShardMap.parse(t).assigning(0, 15, "redis002").unfencing(0, 15).format());
            assertThat(waiting.get(30, java.util.concurrent.TimeUnit.SECONDS)).as("after the flip it goes to the new instance").isEqualTo("redis002");
            // A write the caller grouped by the old map is told to retry with the new one.
            assertThatThrownBy(() -> shards.write("redis001", new int[] {3, 200}, () -> "written"))
                    .isInstanceOf(dev.pinfeed.config.StoreUnavailableException.class).hasMessageContaining("moved to redis002");
            String grouped = shards.write("redis002", new int[] {3}, () -> "written");
            assertThat(grouped).isEqualTo("written");
            // A mover asks first whether every follower can reach the instance it moves shards to.
            assertThat(ShardFenceFollowers.notReaching(zk, path, "redis002")).isEmpty();
            assertThat(ShardFenceFollowers.notReaching(zk, path, "redis009")).hasSize(1);
        }
    }
}
