package dev.pinfeed.feedstore.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedstore.ReadPressure;
import dev.pinfeed.feedstore.ReadPressureContract;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.redismasters.RedisClientSettings;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;

/** The read-pressure contract against the shared stack's Redis (a fresh key prefix per store), and where the key lives. */
@ExtendWith(StackExtension.class)
class RedisReadPressureIT extends ReadPressureContract {

    private TestStack stack;
    private RedisShardMap shards;
    private final List<RedisReadPressure> opened = new ArrayList<>();

    @BeforeEach
    void connect(TestStack s) {
        stack = s;
        shards = RedisShards.defaultShardMap(s.config());
    }

    @AfterEach
    void close() {
        opened.forEach(RedisReadPressure::close);
    }

    @Override
    protected ReadPressure store() {
        RedisReadPressure p = RedisReadPressure.connect(RedisMasterConfig.fixed(stack.config()), () -> shards, stack.keyPrefix("read-pressure"));
        opened.add(p);
        return p;
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

    /** One key on virtual shard 0's instance, with the hold as its TTL; another prefix (another deployment) does not see it. */
    @Test
    void aRaiseIsOneKeyOnShardZerosInstanceWithTheHoldAsItsTtl() {
        RedisReadPressure p = (RedisReadPressure) store();
        RedisReadPressure other = (RedisReadPressure) store();
        p.raise(Duration.ofMinutes(5));
        assertThat(other.raised()).isFalse();
        var host = stack.config().redisInstances().stream().filter(h -> h.name().equals(shards.instanceOf(0))).findFirst().orElseThrow();
        try (Jedis master = RedisClientSettings.from(stack.config()).plainConnection(host.master(), Duration.ofSeconds(5), Duration.ofSeconds(5))) {
            assertThat(master.get(p.keys().readPressure())).isEqualTo("1");
            assertThat(master.pttl(p.keys().readPressure())).isBetween(1L, Duration.ofMinutes(5).toMillis());
        }
    }
}
