package dev.pinfeed.feedstore.redis;

import dev.pinfeed.feedstore.CelebrityPins;
import dev.pinfeed.feedstore.CelebrityPinsContract;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** The celebrity-pins contract against the shared stack's Redis instances (a fresh key prefix per test). */
@ExtendWith(StackExtension.class)
class RedisCelebrityPinsIT extends CelebrityPinsContract {

    private TestStack stack;
    private RedisCelebrityPins store;

    @BeforeEach
    void connect(TestStack s) {
        stack = s;
        RedisShardMap shards = RedisShards.defaultShardMap(s.config());
        store = RedisCelebrityPins.connect(RedisMasterConfig.fixed(s.config()), () -> shards, s.keyPrefix("celebrity-pins"), MAX);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Override
    protected CelebrityPins store() {
        return store;
    }

    @Override
    protected long freshId() {
        return stack.freshId();
    }
}
