package dev.pinfeed.feedstore.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedstore.QuietPools;
import dev.pinfeed.feedstore.QuietPoolsContract;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.redismasters.RedisClientSettings;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import dev.pinfeed.redisshards.VirtualShards;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;

/** The quiet-pools contract against the shared stack's Redis instances (a fresh key prefix per test), and what only Redis shows. */
@ExtendWith(StackExtension.class)
class RedisQuietPoolsIT extends QuietPoolsContract {

    private TestStack stack;
    private RedisShardMap shards;
    private final List<RedisQuietPools> opened = new ArrayList<>();
    private String prefix;

    @BeforeEach
    void connect(TestStack s) {
        stack = s;
        shards = RedisShards.defaultShardMap(s.config());
        prefix = s.keyPrefix("quiet-pools");
    }

    @AfterEach
    void close() {
        opened.forEach(RedisQuietPools::close);
    }

    @Override
    protected QuietPools store(Duration maxAge) {
        RedisQuietPools q = RedisQuietPools.connect(RedisMasterConfig.fixed(stack.config()), () -> shards, prefix, maxAge,
                () -> ThreadLocalRandom.current().nextLong());
        opened.add(q);
        return q;
    }

    @Override
    protected void pass(Duration d) {
        try {
            Thread.sleep(d.toMillis()); // Redis's own TTL: real time
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected long freshUser() {
        return stack.freshId();
    }

    /** One notice for users on every instance; each user's key sits on his graph instance, with the mark's TTL. */
    @Test
    void aNoticeOfUsersOnEveryInstanceEndsEachOnesQuietOnItsOwnInstance() {
        RedisQuietPools q = (RedisQuietPools) store(Duration.ofMinutes(5));
        List<Long> users = new ArrayList<>();
        Set<String> instances = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            long u = stack.freshId();
            users.add(u);
            instances.add(shards.instanceOf(VirtualShards.of(u)));
            assertThat(q.markQuiet(u, q.look(u))).isTrue();
        }
        assertThat(instances).hasSize(stack.config().redisInstances().size());
        RedisClientSettings credentials = RedisClientSettings.from(stack.config());
        long u0 = users.get(0);
        var host = stack.config().redisInstances().stream().filter(h -> h.name().equals(shards.instanceOf(VirtualShards.of(u0))))
                .findFirst().orElseThrow();
        try (Jedis master = credentials.plainConnection(host.master(), Duration.ofSeconds(5), Duration.ofSeconds(5))) {
            assertThat(master.get(q.keys().quietPools(u0))).isEqualTo("q");
            assertThat(master.pttl(q.keys().quietPools(u0))).isBetween(1L, Duration.ofMinutes(5).toMillis());
        }
        q.written(users);
        for (long u : users) assertThat(q.look(u).quiet()).as("user %d", u).isFalse();
    }
}
