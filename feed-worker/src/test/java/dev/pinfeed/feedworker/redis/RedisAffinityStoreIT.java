package dev.pinfeed.feedworker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedworker.AffinityStore.LikeChange;
import dev.pinfeed.feedworker.AffinityStore;
import dev.pinfeed.feedworker.AffinityStoreContract;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.redismasters.RedisClientSettings;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import dev.pinfeed.redisshards.VirtualShards;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;

/** The affinity contract against the shared stack's Redis instances (a fresh key prefix per test), and what only Redis shows. */
@ExtendWith(StackExtension.class)
class RedisAffinityStoreIT extends AffinityStoreContract {

    private TestStack stack;
    private RedisShardMap shards;
    private RedisAffinityStore store;

    @BeforeEach
    void connect(TestStack s) {
        stack = s;
        shards = RedisShards.defaultShardMap(s.config());
        store = RedisAffinityStore.connect(s.config(), () -> shards, s.keyPrefix("affinity"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Override
    protected AffinityStore store() {
        return store;
    }

    @Override
    protected long freshUser() {
        return stack.freshId();
    }

    @Test
    void aUsersKeysLiveOnTheInstanceOfHisVirtualShardAndUsersSpanEveryInstance() {
        Set<String> instances = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            long u = stack.freshId();
            String instance = shards.instanceOf(VirtualShards.of(u));
            instances.add(instance);
            store.apply(List.of(new LikeChange(u, 1, 2, true)));
            var master = stack.config().redisInstances().stream().filter(h -> h.name().equals(instance)).findFirst().orElseThrow().master();
            try (Jedis c = RedisClientSettings.from(stack.config()).plainConnection(master, Duration.ofSeconds(5), Duration.ofSeconds(5))) {
                assertThat(c.sismember(store.keys().liked(u), "1")).isTrue();
                assertThat(c.hget(store.keys().affinity(u), "2")).isEqualTo("1");
            }
        }
        assertThat(instances).hasSize(stack.config().redisInstances().size());
    }

    /** What the worker runs before committing a batch: once it returns, the replica holds the batch's like changes. */
    @Test
    void theReplicationBarrierCoversTheInstancesThisThreadChangedAndOnlyThose() {
        assertThat(store.unreplicated(Duration.ofSeconds(5))).as("nothing changed on this thread").isEmpty();
        long u = stack.freshId();
        String instance = shards.instanceOf(VirtualShards.of(u));
        store.apply(List.of(new LikeChange(u, 7, 8, true)));
        assertThat(store.unreplicated(Duration.ofSeconds(5))).as("every changed instance's replica confirmed").isEmpty();
        var replica = stack.config().redisInstances().stream().filter(h -> h.name().equals(instance)).findFirst().orElseThrow().replica();
        try (Jedis c = RedisClientSettings.from(stack.config()).plainConnection(replica, Duration.ofSeconds(5), Duration.ofSeconds(5))) {
            assertThat(c.hget(store.keys().affinity(u), "8")).as("on the replica once the barrier returned").isEqualTo("1");
        }
    }
}
