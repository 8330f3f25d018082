package dev.pinfeed.feedstore.redis;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.CelebrityPins;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@link CelebrityPins} on the follower graph's Redis instances (keys per {@link CelebrityKeys}, placed by the
 * graph's live shard map). A record is two writes whatever the author's follower count: one script on the
 * author's instance (ZADD, then the author's set cut to the newest {@code maxPerAuthor}) and one SADD of the
 * author to the celebrity set; both are idempotent. A read is one ZREVRANGEBYSCORE per author ({@link RecentPinSets}).
 * An instance that does not answer makes the call throw {@link dev.pinfeed.config.StoreUnavailableException} naming it.
 */
public final class RedisCelebrityPins implements CelebrityPins {

    private final RecentPinSets sets;
    private final CelebrityKeys keys;

    private RedisCelebrityPins(RecentPinSets sets, CelebrityKeys keys) {
        this.sets = sets;
        this.keys = keys;
    }

    /** Connects to every instance's current master, following failovers; keeps {@code maxPerAuthor} pins per author. */
    public static RedisCelebrityPins connect(RedisMasterConfig masters, Supplier<RedisShardMap> shards, String keyPrefix, int maxPerAuthor) {
        return new RedisCelebrityPins(RecentPinSets.connect(masters, shards, "pinfeed-celebrity-pins", maxPerAuthor, "feed.celebrity.recent-pins"),
                new CelebrityKeys(keyPrefix));
    }

    /** On the graph's sharded instances under {@code keyPrefix} (the graph's), {@code feed.celebrity.recent-pins} (200) per author. */
    public static RedisCelebrityPins open(PinfeedConfig config, RedisShards redis, String keyPrefix) {
        return connect(redis.masters(), redis.shards(), keyPrefix, maxPerAuthor(config));
    }

    /** {@code feed.celebrity.recent-pins}: a reader pulls at most this many pins of one celebrity (200). */
    public static int maxPerAuthor(PinfeedConfig config) {
        return config.getInt("feed.celebrity.recent-pins", 200);
    }

    public CelebrityKeys keys() {
        return keys;
    }

    @Override
    public void record(RecentPin pin) {
        sets.record(pin.authorId(), keys.pins(pin.authorId()), pin.createdAtMillis(), CelebrityKeys.member(pin.pinId(), pin.boardId()),
                CelebrityKeys.SET_SHARD, keys.celebrities());
    }

    @Override
    public void remove(long authorId, long pinId) {
        sets.remove(authorId, keys.pins(authorId), CelebrityKeys.memberPrefix(pinId));
    }

    @Override
    public Set<Long> celebrities() {
        return sets.owners(CelebrityKeys.SET_SHARD, keys.celebrities());
    }

    @Override
    public Map<Long, List<RecentPin>> recent(Collection<Long> authorIds, long sinceMillis) {
        return sets.recent(authorIds, keys::pins, sinceMillis, Integer.MAX_VALUE,
                (author, member, created) -> new RecentPin(CelebrityKeys.pinOf(member), author, CelebrityKeys.boardOf(member), created));
    }

    @Override
    public void close() {
        sets.close();
    }
}
