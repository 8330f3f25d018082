package dev.pinfeed.feedstore.redis;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.CelebrityPins.RecentPin;
import dev.pinfeed.feedstore.InterestPins;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@link InterestPins} on the follower graph's Redis instances (keys per {@link InterestPinKeys}, placed by the graph's
 * live shard map), as {@link RedisCelebrityPins} keeps authors' pins: a record is one script on the interest's instance
 * and one SADD to the popular set, whatever the interest's follower count; a read one ZREVRANGEBYSCORE per interest.
 */
public final class RedisInterestPins implements InterestPins {

    private final RecentPinSets sets;
    private final InterestPinKeys keys;

    private RedisInterestPins(RecentPinSets sets, InterestPinKeys keys) {
        this.sets = sets;
        this.keys = keys;
    }

    /** Connects to every instance's current master, following failovers; keeps {@code maxPerInterest} pins per interest. */
    public static RedisInterestPins connect(RedisMasterConfig masters, Supplier<RedisShardMap> shards, String keyPrefix, int maxPerInterest) {
        return new RedisInterestPins(RecentPinSets.connect(masters, shards, "pinfeed-interest-pins", maxPerInterest, "feed.interest.recent-pins"),
                new InterestPinKeys(keyPrefix));
    }

    /** On the graph's sharded instances under {@code keyPrefix} (the graph's), {@code feed.interest.recent-pins} (200) per interest. */
    public static RedisInterestPins open(PinfeedConfig config, RedisShards redis, String keyPrefix) {
        return connect(redis.masters(), redis.shards(), keyPrefix, maxPerInterest(config));
    }

    /** {@code feed.interest.recent-pins}: a reader pulls at most this many pins of one popular interest (200). */
    public static int maxPerInterest(PinfeedConfig config) {
        return config.getInt("feed.interest.recent-pins", 200);
    }

    public InterestPinKeys keys() {
        return keys;
    }

    @Override
    public void record(long interestId, RecentPin pin) {
        sets.record(interestId, keys.pins(interestId), pin.createdAtMillis(), InterestPinKeys.member(pin.pinId(), pin.boardId(), pin.authorId()),
                InterestPinKeys.SET_SHARD, keys.popular());
    }

    @Override
    public void remove(long interestId, long pinId) {
        sets.remove(interestId, keys.pins(interestId), InterestPinKeys.memberPrefix(pinId));
    }

    @Override
    public Set<Long> popular() {
        return sets.owners(InterestPinKeys.SET_SHARD, keys.popular());
    }

    @Override
    public Map<Long, List<RecentPin>> recent(Collection<Long> interestIds, long sinceMillis, int maxEach) {
        return sets.recent(interestIds, keys::pins, sinceMillis, maxEach, (interest, member, created) ->
                new RecentPin(InterestPinKeys.pinOf(member), InterestPinKeys.authorOf(member), InterestPinKeys.boardOf(member), created));
    }

    @Override
    public void close() {
        sets.close();
    }
}
