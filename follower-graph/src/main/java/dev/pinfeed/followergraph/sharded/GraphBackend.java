package dev.pinfeed.followergraph.sharded;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The port under the graph: what it needs from a key-value store shaped like Redis, three atomic
 * writes (Lua scripts on Redis) and pipelined reads on one instance. The rules and query algorithms
 * live above it in {@link ShardedGraphStore}, shared by every backend; a backend only stores.
 */
public interface GraphBackend extends AutoCloseable {

    /** Which instance serves a virtual shard (reads of shards on one instance share a pipeline). */
    String instanceOf(int shard);

    /** A pipeline of reads on one instance; results are available after {@link Reads#execute()}. */
    Reads reads(String instance);

    /**
     * Atomically: store {@code value} in {@code registerKey}/{@code field} if its version prefix (the
     * first {@link Register#VERSION_KEY_LENGTH} characters, compared as strings) is newer than the stored one (and then increment the pair sequence {@code seqKey}/{@code seqField});
     * return the pair's user register, all its board registers and its sequence.
     */
    PairRead casRegister(int shard, CasRequest request);

    /**
     * Atomically: if {@code guard} is null, or its stored sequence is below {@code guard.seq()},
     * record the sequence and apply every mutation. Returns whether it applied.
     */
    boolean apply(int shard, Guard guard, List<Mutation> mutations);

    /** Atomically: the board's owner, claiming {@code owner} if none is recorded. */
    long claimOwner(int shard, String ownersKey, long board, long owner);

    @Override
    void close();

    record CasRequest(String registerKey, String field, String value, String userRegisterKey, String userField,
                      String boardRegisterKey, String seqKey, String seqField) {}

    record PairRead(String userRegister, Map<String, String> boardRegisters, long seq) {}

    record Guard(String key, String field, long seq) {}

    enum Op { ZADD, ZADD_LT, ZREM, SADD, SREM, HSET, HDEL }

    record Mutation(Op op, String key, String member, String value) {}

    record Scored(String member, long score) {}

    record ScanBatch(String cursor, List<String> fields) {}

    /** Queued reads on one instance. */
    interface Reads {
        Supplier<Long> zscore(String key, String member);

        Supplier<List<Long>> zmscore(String key, List<String> members);

        Supplier<Long> zcard(String key);

        Supplier<List<Boolean>> smismember(String key, List<String> members);

        Supplier<List<String>> hmget(String key, List<String> fields);

        Supplier<Long> scard(String key);

        /** Up to {@code limit} members with score below {@code max} (at most, unless exclusive; null = no bound), highest first, Redis order. */
        Supplier<List<Scored>> zrevrangeByScore(String key, Long max, boolean exclusive, int limit);

        /** Every member with exactly this score. */
        Supplier<List<Scored>> zrangeByScoreEq(String key, long score);

        /** One HSCAN step over the fields of a hash; cursor "0" starts, a returned "0" ends. */
        Supplier<ScanBatch> hscan(String key, String cursor, int count);

        void execute();
    }
}
