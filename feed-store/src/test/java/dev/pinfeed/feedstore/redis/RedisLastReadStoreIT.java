package dev.pinfeed.feedstore.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedstore.LastReadStore;
import dev.pinfeed.feedstore.LastReadStoreContract;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.redismasters.RedisClientSettings;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import dev.pinfeed.redisshards.VirtualShards;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;

/** The last-read contract against the shared stack's Redis instances (a fresh key prefix per test), and what only Redis shows. */
@ExtendWith(StackExtension.class)
class RedisLastReadStoreIT extends LastReadStoreContract {

    private TestStack stack;
    private RedisShardMap shards;
    private RedisLastReadStore store;

    @BeforeEach
    void connect(TestStack s) {
        stack = s;
        shards = RedisShards.defaultShardMap(s.config());
        store = RedisLastReadStore.connect(RedisMasterConfig.fixed(s.config()), () -> shards, s.keyPrefix("last-reads"),
                Duration.ofSeconds(5));
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Override
    protected LastReadStore store() {
        return store;
    }

    @Override
    protected long freshUser() {
        return stack.freshId();
    }

    /** A record the store calls replicated is on the replica of the user's instance, which is his graph's instance. */
    @Test
    void aReplicatedRecordIsOnTheReplicaOfTheInstanceOfTheUsersVirtualShard() {
        Set<String> instances = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            long u = stack.freshId();
            String instance = shards.instanceOf(VirtualShards.of(u));
            instances.add(instance);
            assertThat(store.recordRead(u, 1_767_225_600_000L + i)).as("a replica confirmed").isTrue();
            var host = stack.config().redisInstances().stream().filter(h -> h.name().equals(instance)).findFirst().orElseThrow();
            RedisClientSettings credentials = RedisClientSettings.from(stack.config());
            try (Jedis master = credentials.plainConnection(host.master(), Duration.ofSeconds(5), Duration.ofSeconds(5));
                 Jedis replica = credentials.plainConnection(host.replica(), Duration.ofSeconds(5), Duration.ofSeconds(5))) {
                assertThat(master.get(store.keys().lastRead(u))).isEqualTo(Long.toString(1_767_225_600_000L + i));
                assertThat(replica.get(store.keys().lastRead(u))).isEqualTo(Long.toString(1_767_225_600_000L + i));
            }
        }
        assertThat(instances).hasSize(stack.config().redisInstances().size());
        assertThat(store.lastReads(List.of())).isEqualTo(Map.of());
    }
}
