package dev.pinfeed.followergraph.sharded;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The port under the graph: what it needs from a key-value store shaped like Redis, three atomic
 * writes (Lua scripts on Redis) and pipelined reads on one instance. The rules and query algorithms
 * live above it in {@link ShardedGraphStore}, shared by every backend; a backend only stores.
 * An audit ({@link GraphKeyspace}) also walks the keys of each instance, reads whole keys, and
 * repairs with two more atomic writes.
 */
public interface GraphBackend extends AutoCloseable {

    /** Which instance serves a virtual shard (reads of shards on one instance share a pipeline). */
    String instanceOf(int shard);

    /** A pipeline of reads on one instance; results are available after {@link Reads#execute()}. */
    Reads reads(String instance);

    /**
     * Atomically: store {@code value} in {@code registerKey}/{@code field} if its version prefix (the
     * first {@link Register#VERSION_KEY_LENGTH} characters, compared as strings) is newer than the stored one (and then increment the pair sequence {@code seqKey}/{@code seqField});
     * return the pair's user register, all its board registers and its sequence. A pair without board registers (an
     * interest edge) names its user-register hash as its board-register hash: then none are returned.
     *
     * <p>With {@code request.followerSide()} set, a pair that has no board registers after the compare-and-set also gets its
     * follower side handled in the same atomic step ({@link PairRead#followerSideWritten}): unless the applied sequence
     * {@code seqKey}/{@code appliedField} is already the pair's sequence (a replay: {@link #apply}'s guard would skip it
     * too), that sequence is recorded there, and {@code member} put in the sorted set {@code key} at the user register's
     * time if it is a follow, removed from it if not. That is the state {@code PairRules} derives from a user register
     * alone, and no older writer of the side can land after it (its sequence is not above).
     */
    PairRead casRegister(int shard, CasRequest request);

    /**
     * Atomically: if {@code guard} is null, or its stored sequence is below {@code guard.seq()},
     * record the sequence and apply every mutation. Returns whether it applied.
     */
    boolean apply(int shard, Guard guard, List<Mutation> mutations);

    /** Atomically: the board's owner, claiming {@code owner} if none is recorded. */
    long claimOwner(int shard, String ownersKey, long board, long owner);

    /**
     * {@link #claimOwner} for each claim, in order, pipelined on {@code instance} (every claim's shard is
     * on it): the recorded owner per claim. An instance that does not answer fails the whole call
     * ({@link dev.pinfeed.config.StoreUnavailableException} naming it; any of the claims may have run).
     * This default claims one at a time.
     */
    default List<Long> claimOwners(String instance, List<OwnerClaim> claims) {
        List<Long> out = new java.util.ArrayList<>(claims.size());
        for (OwnerClaim c : claims) out.add(claimOwner(c.shard(), c.ownersKey(), c.board(), c.owner()));
        return out;
    }

    /**
     * {@link #casRegister} for each request, in order, pipelined on {@code instance}: each reply is the
     * pair as of just after its own compare-and-set (two requests of one pair: the later one sees both).
     * Fails as a whole as {@link #claimOwners} does. This default runs one at a time.
     */
    default List<PairRead> casRegisters(String instance, List<ShardCas> requests) {
        List<PairRead> out = new java.util.ArrayList<>(requests.size());
        for (ShardCas r : requests) out.add(casRegister(r.shard(), r.request()));
        return out;
    }

    /**
     * {@link #apply} for each write, in order, pipelined on {@code instance}: whether each applied. Fails
     * as a whole as {@link #claimOwners} does. This default runs one at a time.
     */
    default List<Boolean> applyAll(String instance, List<Write> writes) {
        List<Boolean> out = new java.util.ArrayList<>(writes.size());
        for (Write w : writes) out.add(apply(w.shard(), w.guard(), w.mutations()));
        return out;
    }

    /** Every instance this backend reaches, by name (an audit scans each, whatever the shard map says). */
    List<String> instances();

    /** How many keys {@code instance} holds, all schemes together (a scan's progress total). */
    long keyCount(String instance);

    /** One SCAN step over {@code instance}'s keys matching {@code pattern}; cursor "0" starts, a returned "0" ends. */
    ScanStep scan(String instance, String cursor, String pattern, int count);

    /** Whole keys of {@code instance}, pipelined: each key's type and entries ({@link Stored#ABSENT} when it does not exist). */
    Map<String, Stored> read(String instance, List<KeyRead> keys);

    /**
     * Atomically, for a repair of one pair: apply each register fix whose field still holds what the
     * repair observed; then set the pair's register sequence to one above the largest of its register
     * sequence, its follower-side applied sequence and {@code floor} (a malformed stored sequence
     * counts as absent); return the pair's registers and that sequence, as {@link #casRegister} does.
     */
    PairReset resetPair(int shard, PairResetRequest request);

    /**
     * Atomically on one key of {@code instance}: if {@code deleteIfType} is set, delete the key if it
     * has that type (else change nothing and return -1); then set each member that still holds what
     * the repair observed to its fixed value. Returns how many members it set.
     */
    int fixKey(String instance, KeyFix fix);

    @Override
    void close();

    record CasRequest(String registerKey, String field, String value, String userRegisterKey, String userField,
                      String boardRegisterKey, String seqKey, String seqField, FollowerSide followerSide) {

        /** Without the follower side: the compare-and-set alone. */
        public CasRequest(String registerKey, String field, String value, String userRegisterKey, String userField,
                          String boardRegisterKey, String seqKey, String seqField) {
            this(registerKey, field, value, userRegisterKey, userField, boardRegisterKey, seqKey, seqField, null);
        }
    }

    /**
     * The follower side of a pair without board registers, written with its compare-and-set ({@link #casRegister}): the
     * sorted set {@code key} that holds {@code member} while the user register says follow, and the applied-sequence field
     * in the request's {@code seqKey}. Keys of the follower's shard, like the request's.
     */
    record FollowerSide(String key, String member, String appliedField) {}

    /** One {@link #claimOwner} of a batch. */
    record OwnerClaim(int shard, String ownersKey, long board, long owner) {}

    /** One {@link #casRegister} of a batch. */
    record ShardCas(int shard, CasRequest request) {}

    /** One {@link #apply} of a batch. */
    record Write(int shard, Guard guard, List<Mutation> mutations) {}

    /** {@code followerSideWritten}: the compare-and-set also wrote the request's {@link FollowerSide}. */
    record PairRead(String userRegister, Map<String, String> boardRegisters, long seq, boolean followerSideWritten) {

        public PairRead(String userRegister, Map<String, String> boardRegisters, long seq) {
            this(userRegister, boardRegisters, seq, false);
        }
    }

    record Guard(String key, String field, long seq) {}

    enum Op { ZADD, ZADD_LT, ZREM, SADD, SREM, HSET, HDEL }

    record Mutation(Op op, String key, String member, String value) {}

    record Scored(String member, long score) {}

    record ScanBatch(String cursor, List<String> fields) {}

    record ScanStep(String cursor, List<String> keys) {}

    /** A key to read, with the Redis type it should have. */
    record KeyRead(String key, String type) {}

    /**
     * A key's content: Redis's type name ({@code none} when absent, else zset, set, hash or another
     * type) and its entries — a sorted set's members with their scores in decimal, a set's members
     * (value ""), a hash's fields and values. Entries are empty unless the key has the type it was
     * read as.
     */
    record Stored(String type, SortedMap<String, String> entries) {
        public static final Stored ABSENT = new Stored("none", Collections.emptySortedMap());

        public Stored {
            entries = Collections.unmodifiableSortedMap(new TreeMap<>(entries));
        }

        public static Stored of(String type, Map<String, String> entries) {
            return new Stored(type, new TreeMap<>(entries));
        }

        public boolean exists() {
            return !type.equals("none");
        }
    }

    /** One hash field of a register as a repair found it and wants it; null = absent. */
    record RegisterFix(String key, String field, String observed, String fixed) {}

    /**
     * A pair's register reset: KEYS as {@link CasRequest} (user-register hash, pair board-register hash,
     * pair-sequence hash), the fields of the pair in them, the fixes (keys among the first two), and the floor
     * the new sequence must exceed (the followee side's applied sequence, read on another shard).
     */
    record PairResetRequest(String userRegisterKey, String userField, String boardRegisterKey, String seqKey, String seqField,
                            String appliedField, long floor, List<RegisterFix> fixes) {}

    /** The pair after a reset, and how many fixes found the field changed since the repair read it (not applied). */
    record PairReset(PairRead read, int skipped) {}

    /** One member (zset member, set member, hash field) as a repair found it and wants it; null = absent, "" = a set's member present. */
    record MemberFix(String member, String observed, String fixed) {}

    /** Fixes of one key of type {@code type}; {@code deleteIfType} (or null) first removes a key of that wrong type. */
    record KeyFix(String key, String type, String deleteIfType, List<MemberFix> members) {}

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
