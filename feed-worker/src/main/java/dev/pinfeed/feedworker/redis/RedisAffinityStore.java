package dev.pinfeed.feedworker.redis;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.feedworker.AffinityStore;
import dev.pinfeed.redismasters.RedisMasterClients;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisCalls;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.VirtualShards;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * {@link AffinityStore} on the follower graph's Redis instances (keys per {@link AffinityKeys}, placed by
 * the graph's live shard map): a user's likes go to the instance of his virtual shard. Reads and writes
 * are one pipeline per instance per call; a like or unlike is one script that changes the liked set
 * and, only if the set changed, the author's count — so replays change nothing. An instance that does
 * not answer, is busy or still loading makes the call throw {@link StoreUnavailableException} naming it.
 */
public final class RedisAffinityStore implements AffinityStore {

    /** KEYS: liked set, affinity hash; ARGV: pin, author, 1 (like) or -1 (unlike). Returns 1 when it changed something. */
    static final String CHANGE = """
            local changed
            if ARGV[3] == '1' then changed = redis.call('SADD', KEYS[1], ARGV[1]) else changed = redis.call('SREM', KEYS[1], ARGV[1]) end
            if changed == 1 then
              if redis.call('HINCRBY', KEYS[2], ARGV[2], tonumber(ARGV[3])) <= 0 then redis.call('HDEL', KEYS[2], ARGV[2]) end
            end
            return changed
            """;
    private static final String CHANGE_SHA = sha1(CHANGE);

    private final RedisMasterClients clients;
    private final Supplier<RedisShardMap> shards;
    private final AffinityKeys keys;
    /** Per consumer-loop thread: instances this thread changed since its last {@link #unreplicated} barrier. */
    private final ThreadLocal<Set<String>> changedSinceBarrier = ThreadLocal.withInitial(TreeSet::new);

    RedisAffinityStore(RedisMasterClients clients, Supplier<RedisShardMap> shards, AffinityKeys keys) {
        this.clients = clients; // live: a failover swaps an instance's client (RedisMasterClients)
        this.shards = shards;
        this.keys = keys;
    }

    /** Connects to the master of every configured instance; {@code shards} (the graph's live map) is asked on every call. */
    public static RedisAffinityStore connect(PinfeedConfig config, Supplier<RedisShardMap> shards, String keyPrefix) {
        return connect(RedisMasterConfig.fixed(config), shards, keyPrefix);
    }

    /** Connects to every instance's current master, following failovers; {@code shards} is asked on every call. */
    public static RedisAffinityStore connect(RedisMasterConfig masters, Supplier<RedisShardMap> shards, String keyPrefix) {
        return new RedisAffinityStore(RedisMasterClients.open(masters, new RedisMasterClients.Settings("pinfeed-feed-worker",
                Duration.ofSeconds(2), Duration.ofSeconds(5), 8)), shards, new AffinityKeys(keyPrefix));
    }

    /** The key prefix of the worker's Redis keys ({@code feed.worker.redis.key-prefix}, default empty). */
    public static String keyPrefix(PinfeedConfig config) {
        return config.get("feed.worker.redis.key-prefix", "");
    }

    public AffinityKeys keys() {
        return keys;
    }

    @Override
    public Map<Pair, Long> affinities(Collection<Pair> pairs) {
        Map<String, List<Pair>> byInstance = new LinkedHashMap<>();
        for (Pair p : pairs) byInstance.computeIfAbsent(instanceOf(p.receiverId()), i -> new ArrayList<>()).add(p);
        Map<Pair, Long> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<Pair>> e : byInstance.entrySet()) {
            List<Pair> list = e.getValue();
            List<Response<String>> replies = new ArrayList<>(list.size());
            pipelined(e.getKey(), p -> {
                replies.clear();
                for (Pair pair : list) replies.add(p.hget(keys.affinity(pair.receiverId()), AffinityKeys.id(pair.authorId())));
            });
            for (int i = 0; i < list.size(); i++) {
                String v = on(e.getKey(), replies.get(i)::get);
                out.put(list.get(i), v == null ? 0L : Long.parseLong(v));
            }
        }
        return out;
    }

    @Override
    public void apply(List<LikeChange> changes) {
        Map<String, List<LikeChange>> byInstance = new LinkedHashMap<>();
        for (LikeChange c : changes) byInstance.computeIfAbsent(instanceOf(c.userId()), i -> new ArrayList<>()).add(c);
        for (Map.Entry<String, List<LikeChange>> e : byInstance.entrySet()) {
            String instance = e.getKey();
            changedSinceBarrier.get().add(instance); // before the writes: a failed call may have changed something too
            int[] written = e.getValue().stream().mapToInt(c -> VirtualShards.of(c.userId())).distinct().toArray();
            RedisCalls.write(shards, instance, written, () -> {
                if (!changeAll(instance, e.getValue())) {
                    on(instance, () -> client(instance).scriptLoad(CHANGE)); // a restarted server forgot the script
                    if (!changeAll(instance, e.getValue())) throw new IllegalStateException(instance + " refuses the like script");
                }
                return null;
            });
        }
    }

    /**
     * A replication barrier for what this thread changed since its last one: the instances whose
     * replica did not confirm those writes within {@code timeout} (none when it changed nothing). The
     * worker runs it before committing a batch's offsets, so a Redis failover loses no like it
     * committed (a like's change is counted once per (user, pin): a replay changes nothing twice).
     */
    public Set<String> unreplicated(Duration timeout) {
        Set<String> changed = changedSinceBarrier.get();
        if (changed.isEmpty()) return Set.of();
        Set<String> behind = clients.unreplicated(List.copyOf(changed), timeout);
        changed.clear();
        return behind;
    }

    /** Runs the script for each change in one pipeline; false when the server did not have the script (nothing ran). */
    private boolean changeAll(String instance, List<LikeChange> changes) {
        List<Response<Object>> replies = new ArrayList<>(changes.size());
        pipelined(instance, p -> {
            replies.clear();
            for (LikeChange c : changes) {
                replies.add(p.evalsha(CHANGE_SHA, List.of(keys.liked(c.userId()), keys.affinity(c.userId())),
                        List.of(AffinityKeys.id(c.pinId()), AffinityKeys.id(c.authorId()), c.liked() ? "1" : "-1")));
            }
        });
        for (Response<Object> r : replies) {
            try {
                on(instance, r::get);
            } catch (JedisDataException e) {
                if (String.valueOf(e.getMessage()).startsWith("NOSCRIPT")) return false;
                throw e;
            }
        }
        return true;
    }

    private String instanceOf(long user) {
        return shards.get().instanceOf(VirtualShards.of(user));
    }

    private RedisClient client(String instance) {
        return RedisCalls.client(clients, instance);
    }

    private void pipelined(String instance, java.util.function.Consumer<Pipeline> commands) {
        on(instance, () -> {
            try (Pipeline p = client(instance).pipelined()) {
                commands.accept(p);
                p.sync();
            }
            return null;
        });
    }

    private static <T> T on(String instance, Supplier<T> call) {
        return RedisCalls.on(instance, call);
    }

    private static String sha1(String s) {
        try {
            return HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        RedisCalls.close(clients);
    }
}
