package dev.pinfeed.canonicalstore.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.canonicalstore.CanonicalChange;
import dev.pinfeed.canonicalstore.CanonicalChange.DeletePin;
import dev.pinfeed.canonicalstore.CanonicalChange.PutMapping;
import dev.pinfeed.canonicalstore.CanonicalChange.PutObject;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.CanonicalLayout.Json;
import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.canonicalstore.reads.CachedCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalPin;
import dev.pinfeed.canonicalstore.redis.RedisCacheInvalidator;
import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * A pin's {@code repins} count on the real shard hosts, written as the materializer writes a repin (its pin row
 * naming the parent, a pin_has_repins row on the parent's shard) and read straight from MySQL and through the
 * Redis caches: each repin counts once however often its changes are applied (a replay), and a cached count is
 * invalidated by the repin's write.
 */
@ExtendWith(StackExtension.class)
class RepinCountIT {

    private static TestStack stack;
    private static ShardDataSources sources;
    private static ShardedDb db;
    private static MysqlCanonicalWriter writer;
    private static Map<String, RedisClient> redis;
    private static RedisShardMap shards;
    private static RedisCacheInvalidator invalidator;

    @BeforeAll
    static void connect(TestStack s) {
        stack = s;
        sources = ShardDataSources.from(s.config(), "repin-count-it", 8);
        db = new ShardedDb(sources);
        writer = new MysqlCanonicalWriter(db);
        redis = RedisCanonicalCache.clients(s.config(), Duration.ofSeconds(2), 8);
        shards = RedisShards.defaultShardMap(s.config());
        invalidator = RedisCacheInvalidator.connect(s.config(), () -> shards);
    }

    @AfterAll
    static void close() {
        invalidator.close();
        writer.close();
        db.close();
        sources.close();
        redis.values().forEach(RedisClient::close);
    }

    private static long fresh(ObjectType type, int shard) {
        return ShardedId.compose(shard, type, (1L << 35) | (stack.freshId() & ((1L << 35) - 1)));
    }

    /** The changes of a PinCreated (EventPlanner's, without the board's mapping rows): its row and, for a repin, the parent's count row. */
    private static List<CanonicalChange> created(long pin, long board, long author, Long parent, long at) {
        List<CanonicalChange> changes = new ArrayList<>();
        changes.add(new PutObject(CanonicalLayout.PINS, pin, Json.pin(pin, at, board, author, "details", null, null, parent), at));
        if (parent != null) changes.add(new PutMapping(Mapping.PIN_HAS_REPINS, parent, pin, at));
        return changes;
    }

    /** Applies the changes and, once committed, invalidates their cache keys, as the materializer does. */
    private static void apply(List<CanonicalChange> changes) {
        assertThat(writer.apply(changes).failedHosts()).isEmpty();
        assertThat(invalidator.invalidate(changes.stream().flatMap(c -> c.invalidations().stream()).toList())).isEmpty();
    }

    @Test
    void eachRepinCountsOnceOnItsParentUnderReplayAndTheRepinNamesItsParent() {
        long author = fresh(ObjectType.USER, 5);
        long board = fresh(ObjectType.BOARD, 5);
        long parent = fresh(ObjectType.PIN, 5);
        long first = fresh(ObjectType.PIN, 2100); // repins live on their own boards' shards, elsewhere than the parent
        long second = fresh(ObjectType.PIN, 7);
        MysqlCanonicalReads mysql = new MysqlCanonicalReads(db);
        CachedCanonicalReads cached = new CachedCanonicalReads(mysql, new RedisCanonicalCache(redis, () -> shards, Duration.ofMinutes(10)),
                CacheListener.NONE, 20);

        apply(created(parent, board, author, null, 1_000));
        assertThat(cached.pin(parent).orElseThrow().repins()).as("cached with no repins").isZero();

        List<CanonicalChange> firstRepin = created(first, board, author, parent, 2_000);
        apply(firstRepin);
        apply(firstRepin); // a replay
        apply(created(second, board, author, parent, 3_000));
        apply(created(second, board, author, parent, 3_000));

        assertThat(mysql.pin(parent).orElseThrow().repins()).isEqualTo(2);
        assertThat(cached.pin(parent).orElseThrow().repins()).as("the repins' writes invalidated the cached count").isEqualTo(2);
        CanonicalPin repin = cached.pin(first).orElseThrow();
        assertThat(repin.parentPinId()).isEqualTo(parent);
        assertThat(repin.repins()).isZero();
        assertThat(mysql.pin(parent).orElseThrow().parentPinId()).as("an original pin has no parent").isNull();
        assertThat(cached.livePins(List.of(parent, first, second))).hasSize(3);

        // The parent's deletion leaves its row inactive: it is no longer read, its repins stay.
        apply(List.of(new DeletePin(parent, board, author, 4_000)));
        assertThat(cached.pin(parent)).isEmpty();
        assertThat(cached.pin(second).orElseThrow().parentPinId()).isEqualTo(parent);
    }
}
