package dev.pinfeed.feedstore.redis;

import dev.pinfeed.feedstore.InterestPins;
import dev.pinfeed.feedstore.InterestPinsContract;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** The interest-pins contract against the shared stack's Redis instances (a fresh key prefix per test). */
@ExtendWith(StackExtension.class)
class RedisInterestPinsIT extends InterestPinsContract {

    private TestStack stack;
    private RedisInterestPins store;

    @BeforeEach
    void connect(TestStack s) {
        stack = s;
        RedisShardMap shards = RedisShards.defaultShardMap(s.config());
        store = RedisInterestPins.connect(RedisMasterConfig.fixed(s.config()), () -> shards, s.keyPrefix("interest-pins"), MAX);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Override
    protected InterestPins store() {
        return store;
    }

    @Override
    protected long freshId() {
        return stack.freshId();
    }
}
