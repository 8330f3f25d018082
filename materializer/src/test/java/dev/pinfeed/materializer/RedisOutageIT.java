package dev.pinfeed.materializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.canonicalstore.CacheInvalidation;
import dev.pinfeed.canonicalstore.CacheInvalidator;
import dev.pinfeed.canonicalstore.CanonicalCacheKeys;
import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.canonicalstore.redis.RedisCacheInvalidator;
import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.redismasters.RedisClientSettings;
import dev.pinfeed.redisshards.RedisShards;
import io.micrometer.core.instrument.Counter;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The cache client first points at a port nothing listens on, then at the real Redis: the MySQL
 * writes commit, the records are parked under the Redis instance's name (offsets not committed), and
 * once Redis answers the retry bumps the version and drops the stale keys. Nothing is lost.
 */
class RedisOutageIT extends FixtureIT {

    private RedisCacheInvalidator down;

    @BeforeEach
    void openInvalidatorToNowhere() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        HostPort nowhere = new HostPort("127.0.0.1", closed);
        List<PinfeedConfig.ReplicatedHost> fake = f.config.redisInstances().stream()
                .map(h -> new PinfeedConfig.ReplicatedHost(h.name(), nowhere, null)).toList();
        down = RedisCacheInvalidator.connect(dev.pinfeed.redismasters.RedisMasterConfig.fixed(fake, dev.pinfeed.redismasters.RedisClientSettings.none()), () -> RedisShards.defaultShardMap(f.config));
    }

    @AfterEach
    void closeInvalidator() {
        down.close();
    }

    @Test
    void anInvalidationThatMeetsARedisOutageIsRetriedUntilItHappens() throws Exception {
        long owner = f.freshId(ObjectType.USER);
        long board = f.freshId(ObjectType.BOARD);
        long pin = f.freshId(ObjectType.PIN);
        String instance = f.cache.instanceOf(pin);
        PinfeedConfig.ReplicatedHost host = f.config.redisInstances().stream().filter(h -> h.name().equals(instance)).findFirst().orElseThrow();
        try (Jedis redis = RedisClientSettings.from(f.config).plainConnection(host.master(), Duration.ofSeconds(5), Duration.ofSeconds(5))) {
            // What a reader cached before the like: the pin and a like count of 0.
            redis.set(CanonicalCacheKeys.pin(pin), "{\"cached\":true}");
            redis.set(CanonicalCacheKeys.pinLikes(pin), "0");
            long versionBefore = redis.incr(CanonicalCacheKeys.version(pin));

            AtomicReference<CacheInvalidator> current = new AtomicReference<>(down);
            CacheInvalidator swappable = new CacheInvalidator() {
                @Override
                public String instanceOf(long objectId) {
                    return current.get().instanceOf(objectId);
                }

                @Override
                public Map<String, StoreUnavailableException> invalidate(Collection<CacheInvalidation> invalidations) {
                    return current.get().invalidate(invalidations);
                }
            };
            long liker = f.freshId(ObjectType.USER);
            f.publish(Events.user(owner, 1), Events.board(board, owner, 2), Events.pin(pin, board, owner, 3), Events.liked(liker, pin, 4));
            ConsumerLoop loop = f.run(f.settings(f.stack.uniqueName("canonical_redis_down")), f.handler(swappable));

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(f.snapshot(List.of(liker), false).table("user_likes_pins")).containsKey(ComparableRows.mappingKey(liker, pin));
                Counter retries = f.meters.find("pinfeed.retries").tag("store", instance).counter();
                assertThat(retries).as("records parked under the Redis instance's name").isNotNull();
                assertThat(retries.count()).isPositive();
            });
            assertThat(loop.parkedForOutage()).isPositive();
            assertThat(redis.get(CanonicalCacheKeys.pinLikes(pin))).as("not invalidated while Redis is down").isEqualTo("0");
            assertThat(redis.get(CanonicalCacheKeys.version(pin))).isEqualTo(Long.toString(versionBefore));

            current.set(f.cache); // Redis is back
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(redis.exists(CanonicalCacheKeys.pinLikes(pin))).isFalse();
                assertThat(redis.exists(CanonicalCacheKeys.pin(pin))).isFalse();
                assertThat(Long.parseLong(redis.get(CanonicalCacheKeys.version(pin)))).isGreaterThan(versionBefore);
                assertThat(loop.parkedCount()).isZero();
            });
            redis.del(CanonicalCacheKeys.version(pin));
        }
    }
}
