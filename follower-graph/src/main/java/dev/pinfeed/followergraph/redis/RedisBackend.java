package dev.pinfeed.followergraph.redis;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.followergraph.sharded.GraphBackend;
import dev.pinfeed.redismasters.RedisMasterClients;
import dev.pinfeed.redisshards.RedisCalls;
import dev.pinfeed.redisshards.RedisShardMap;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.Tuple;

/**
 * {@link GraphBackend} on Redis instances: the shard map (live from ZooKeeper) picks the instance per
 * virtual shard; writes are EVALSHA of {@link RedisScripts} (re-sent as EVAL after a restart emptied
 * the script cache), a batch's as one pipeline per instance (calls answered NOSCRIPT sent again after
 * SCRIPT LOAD); reads are pipelines. An instance that cannot be reached, times out, or is busy
 * or still loading its data makes the call throw {@link StoreUnavailableException} naming it (safe to
 * retry: every write is idempotent); other Redis errors are bugs and stay as they are.
 */
final class RedisBackend implements GraphBackend {

    private final RedisMasterClients clients;
    private final Supplier<RedisShardMap> shards;
    private final Script cas = new Script(RedisScripts.CAS_REGISTER);
    private final Script apply = new Script(RedisScripts.APPLY);
    private final Script claim = new Script(RedisScripts.CLAIM_OWNER);
    private final Script resetPair = new Script(RedisScripts.RESET_PAIR);
    private final Script fixKey = new Script(RedisScripts.FIX_KEY);

    RedisBackend(RedisMasterClients clients, Supplier<RedisShardMap> shards) {
        this.clients = clients; // live: a failover swaps an instance's client (RedisMasterClients)
        this.shards = shards;
    }

    @Override
    public String instanceOf(int shard) {
        return shards.get().instanceOf(shard);
    }

    private RedisClient client(String instance) {
        return RedisCalls.client(clients, instance);
    }

    private static <T> T on(String instance, Supplier<T> call) {
        return RedisCalls.on(instance, call);
    }

    /** A script sent by SHA1; the body goes over the wire only when the server does not have it. */
    private final class Script {
        final String body;
        final String sha;

        Script(String body) {
            this.body = body;
            this.sha = sha1(body);
        }

        /** A write of {@code shard}'s keys: it pauses while a move fences the shard (RedisCalls.write). */
        Object run(int shard, List<String> keys, List<String> args) {
            return RedisCalls.write(shards, shard, instance -> send(client(instance), keys, args));
        }

        Object runOn(String instance, List<String> keys, List<String> args) {
            RedisClient client = client(instance);
            return on(instance, () -> send(client, keys, args));
        }

        /**
         * A pipeline of calls on {@code instance}, writes of the virtual shards {@code written} (it pauses while a move
         * fences one of them): the replies in order. Calls the server answers NOSCRIPT (a restart emptied its script cache)
         * did not run: they go again, in order, after the script is loaded.
         */
        List<Object> pipelined(String instance, int[] written, List<Call> calls) {
            return RedisCalls.write(shards, instance, written, () -> {
                RedisClient client = client(instance);
                Object[] replies = new Object[calls.size()];
                List<Integer> pending = java.util.stream.IntStream.range(0, calls.size()).boxed().toList();
                for (boolean loaded = false; ; loaded = true) {
                    List<Response<Object>> responses = new ArrayList<>(pending.size());
                    try (Pipeline p = client.pipelined()) {
                        for (int i : pending) responses.add(p.evalsha(sha, calls.get(i).keys(), calls.get(i).args()));
                        p.sync();
                    }
                    List<Integer> noScript = new ArrayList<>();
                    for (int k = 0; k < pending.size(); k++) {
                        try {
                            replies[pending.get(k)] = responses.get(k).get();
                        } catch (JedisDataException e) {
                            if (!String.valueOf(e.getMessage()).startsWith("NOSCRIPT")) throw e;
                            noScript.add(pending.get(k));
                        }
                    }
                    if (noScript.isEmpty()) return java.util.Arrays.asList(replies);
                    if (loaded) throw new IllegalStateException(instance + " forgot a script it was just sent");
                    client.scriptLoad(body);
                    pending = noScript;
                }
            });
        }

        private Object send(RedisClient client, List<String> keys, List<String> args) {
            try {
                return client.evalsha(sha, keys, args);
            } catch (JedisNoScriptException e) {
                return client.eval(body, keys, args); // EVAL also caches it for the next EVALSHA
            }
        }
    }

    /** One script call of a pipeline. */
    private record Call(List<String> keys, List<String> args) {}

    @Override
    public PairRead casRegister(int shard, CasRequest q) {
        Call c = casCall(q);
        return casRead((List<?>) cas.run(shard, c.keys(), c.args()));
    }

    private static Call casCall(CasRequest q) {
        FollowerSide side = q.followerSide();
        if (side == null) {
            return new Call(List.of(q.registerKey(), q.userRegisterKey(), q.boardRegisterKey(), q.seqKey()),
                    List.of(q.field(), q.value(), q.userField(), q.seqField()));
        }
        return new Call(List.of(q.registerKey(), q.userRegisterKey(), q.boardRegisterKey(), q.seqKey(), side.key()),
                List.of(q.field(), q.value(), q.userField(), q.seqField(), side.member(), side.appliedField()));
    }

    @Override
    public List<PairRead> casRegisters(String instance, List<ShardCas> requests) {
        List<Object> replies = cas.pipelined(instance, requests.stream().mapToInt(ShardCas::shard).distinct().toArray(),
                requests.stream().map(r -> casCall(r.request())).toList());
        return replies.stream().map(r -> casRead((List<?>) r)).toList();
    }

    @Override
    public List<Boolean> applyAll(String instance, List<Write> writes) {
        List<Object> replies = apply.pipelined(instance, writes.stream().mapToInt(Write::shard).distinct().toArray(),
                writes.stream().map(w -> applyCall(w.guard(), w.mutations())).toList());
        return replies.stream().map(r -> r instanceof Long l && l == 1L).toList();
    }

    @Override
    public List<Long> claimOwners(String instance, List<OwnerClaim> claims) {
        List<Object> replies = claim.pipelined(instance, claims.stream().mapToInt(OwnerClaim::shard).distinct().toArray(),
                claims.stream().map(c -> claimCall(c.ownersKey(), c.board(), c.owner())).toList());
        return replies.stream().map(r -> Long.parseLong(text(r))).toList();
    }

    /** A script's {user register or '', {board field, value, ...}, sequence, ...} as a pair's registers. */
    private static PairRead pairRead(List<?> reply) {
        String user = text(reply.get(0));
        List<?> flat = (List<?>) reply.get(1);
        Map<String, String> boards = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) boards.put(text(flat.get(i)), text(flat.get(i + 1)));
        return new PairRead(user.isEmpty() ? null : user, boards, Long.parseLong(text(reply.get(2))));
    }

    /** {@link RedisScripts#CAS_REGISTER}'s reply: the pair's registers, and whether it wrote the follower side. */
    private static PairRead casRead(List<?> reply) {
        PairRead read = pairRead(reply);
        boolean sideWritten = reply.get(3) instanceof Long w && w == 1L;
        return new PairRead(read.userRegister(), read.boardRegisters(), read.seq(), sideWritten);
    }

    @Override
    public boolean apply(int shard, Guard guard, List<Mutation> mutations) {
        Call c = applyCall(guard, mutations);
        Object reply = apply.run(shard, c.keys(), c.args());
        return reply instanceof Long l && l == 1L;
    }

    private static Call applyCall(Guard guard, List<Mutation> mutations) {
        List<String> keys = new ArrayList<>();
        Map<String, Integer> index = new LinkedHashMap<>();
        keys.add(guard != null ? guard.key() : mutations.get(0).key());
        List<String> args = new ArrayList<>();
        args.add(guard != null ? guard.field() : "");
        args.add(guard != null ? Long.toString(guard.seq()) : "0");
        for (Mutation m : mutations) {
            Integer i = index.computeIfAbsent(m.key(), k -> {
                keys.add(k);
                return keys.size(); // Lua's KEYS is 1-based
            });
            args.add(m.op().name());
            args.add(Integer.toString(i));
            args.add(m.member());
            args.add(m.value() == null ? "" : m.value());
        }
        return new Call(keys, args);
    }

    @Override
    public long claimOwner(int shard, String ownersKey, long board, long owner) {
        Call c = claimCall(ownersKey, board, owner);
        return Long.parseLong(text(claim.run(shard, c.keys(), c.args())));
    }

    private static Call claimCall(String ownersKey, long board, long owner) {
        return new Call(List.of(ownersKey), List.of(Long.toString(board), Long.toString(owner)));
    }

    @Override
    public PairReset resetPair(int shard, PairResetRequest q) {
        List<String> keys = List.of(q.userRegisterKey(), q.boardRegisterKey(), q.seqKey());
        List<String> args = new ArrayList<>(List.of(q.userField(), q.seqField(), q.appliedField(), Long.toString(q.floor())));
        for (RegisterFix f : q.fixes()) {
            int index = f.key().equals(q.userRegisterKey()) ? 1 : f.key().equals(q.boardRegisterKey()) ? 2 : 0;
            if (index == 0) throw new IllegalArgumentException("register fix outside the pair: " + f.key());
            args.add(Integer.toString(index));
            args.add(f.field());
            presence(args, f.observed());
            presence(args, f.fixed());
        }
        List<?> reply = (List<?>) resetPair.run(shard, keys, args);
        return new PairReset(pairRead(reply), Integer.parseInt(text(reply.get(3))));
    }

    @Override
    public int fixKey(String instance, KeyFix fix) {
        List<String> args = new ArrayList<>(List.of(fix.type(), fix.deleteIfType() == null ? "" : fix.deleteIfType()));
        for (MemberFix m : fix.members()) {
            args.add(m.member());
            presence(args, m.observed());
            presence(args, m.fixed());
        }
        return Integer.parseInt(text(fixKey.runOn(instance, List.of(fix.key()), args)));
    }

    /** A nullable value as two script arguments: present (0/1) and the value. */
    private static void presence(List<String> args, String value) {
        args.add(value == null ? "0" : "1");
        args.add(value == null ? "" : value);
    }

    @Override
    public List<String> instances() {
        return List.copyOf(clients.keySet());
    }

    @Override
    public long keyCount(String instance) {
        return on(instance, () -> client(instance).dbSize());
    }

    @Override
    public ScanStep scan(String instance, String cursor, String pattern, int count) {
        ScanResult<String> step = on(instance, () -> client(instance).scan(cursor, new ScanParams().match(pattern).count(count)));
        return new ScanStep(step.getCursor(), step.getResult());
    }

    /** One pipeline: TYPE of each key and the read its expected type calls for (whose error reply is ignored when the type differs). */
    @Override
    public Map<String, Stored> read(String instance, List<KeyRead> reads) {
        return on(instance, () -> {
            Map<String, Stored> out = new LinkedHashMap<>();
            try (Pipeline p = client(instance).pipelined()) {
                List<Response<String>> types = new ArrayList<>();
                List<Supplier<Map<String, String>>> contents = new ArrayList<>();
                for (KeyRead r : reads) {
                    types.add(p.type(r.key()));
                    contents.add(switch (r.type()) {
                        case "zset" -> {
                            Response<List<Tuple>> z = p.zrangeWithScores(r.key(), 0, -1);
                            yield () -> {
                                Map<String, String> m = new LinkedHashMap<>();
                                z.get().forEach(t -> m.put(t.getElement(), score(t.getScore())));
                                return m;
                            };
                        }
                        case "set" -> {
                            Response<Set<String>> members = p.smembers(r.key());
                            yield () -> {
                                Map<String, String> m = new LinkedHashMap<>();
                                members.get().forEach(member -> m.put(member, ""));
                                return m;
                            };
                        }
                        case "hash" -> {
                            Response<Map<String, String>> h = p.hgetAll(r.key());
                            yield h::get;
                        }
                        default -> throw new IllegalArgumentException("no graph key has type " + r.type());
                    });
                }
                p.sync();
                for (int i = 0; i < reads.size(); i++) {
                    KeyRead r = reads.get(i);
                    String type = types.get(i).get();
                    if (type.equals("none")) out.put(r.key(), Stored.ABSENT);
                    else out.put(r.key(), Stored.of(type, type.equals(r.type()) ? contents.get(i).get() : Map.of()));
                }
            }
            return out;
        });
    }

    /** A score in decimal: whole numbers (every score the graph writes) without a fraction. */
    static String score(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    private static String text(Object o) {
        if (o instanceof byte[] b) return new String(b, StandardCharsets.UTF_8);
        return String.valueOf(o);
    }

    private static String sha1(String s) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The instances where no replica acknowledged, within {@code timeout}, every write the master took
     * before this call (an instance that does not answer counts as one).
     */
    Set<String> unreplicated(Duration timeout) {
        return clients.unreplicated(clients.keySet(), timeout);
    }

    /** PING on one instance; throws {@link StoreUnavailableException} naming it when it does not answer. */
    void ping(String instance) {
        on(instance, () -> client(instance).ping());
    }

    /** Whether any instance holds a key matching {@code pattern} (SCAN, so it never blocks the server). */
    boolean anyKey(String pattern) {
        for (String instance : instances()) {
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanStep step = scan(instance, cursor, pattern, 1000);
                if (!step.keys().isEmpty()) return true;
                cursor = step.cursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
        return false;
    }

    @Override
    public Reads reads(String instance) {
        return new PipelineReads(instance, client(instance));
    }

    @Override
    public void close() {
        RedisCalls.close(clients);
    }

    /** Queues commands on one pipeline; the connection goes back to the pool after execute(). */
    private static final class PipelineReads implements Reads {
        private final String instance;
        private final RedisClient client;
        private Pipeline pipeline;

        PipelineReads(String instance, RedisClient client) {
            this.instance = instance;
            this.client = client;
        }

        /** Queues a command (borrowing the connection for the first one). */
        private <T> Response<T> queue(Function<Pipeline, Response<T>> command) {
            return on(instance, () -> {
                if (pipeline == null) pipeline = client.pipelined();
                return command.apply(pipeline);
            });
        }

        /** The reply after execute(), converted. */
        private <T, R> Supplier<R> later(Response<T> r, Function<T, R> convert) {
            return () -> convert.apply(on(instance, r::get));
        }

        private <T> Supplier<T> later(Response<T> r) {
            return later(r, Function.identity());
        }

        private static Long score(Double d) {
            return d == null ? null : d.longValue();
        }

        @Override
        public Supplier<Long> zscore(String key, String member) {
            return later(queue(p -> p.zscore(key, member)), PipelineReads::score);
        }

        @Override
        public Supplier<List<Long>> zmscore(String key, List<String> members) {
            return later(queue(p -> p.zmscore(key, members.toArray(String[]::new))),
                    scores -> scores.stream().map(PipelineReads::score).toList());
        }

        @Override
        public Supplier<Long> zcard(String key) {
            return later(queue(p -> p.zcard(key)));
        }

        @Override
        public Supplier<Long> scard(String key) {
            return later(queue(p -> p.scard(key)));
        }

        @Override
        public Supplier<List<Boolean>> smismember(String key, List<String> members) {
            return later(queue(p -> p.smismember(key, members.toArray(String[]::new))));
        }

        @Override
        public Supplier<List<String>> hmget(String key, List<String> fields) {
            return later(queue(p -> p.hmget(key, fields.toArray(String[]::new))));
        }

        @Override
        public Supplier<List<Scored>> zrevrangeByScore(String key, Long max, boolean exclusive, int limit) {
            String top = max == null ? "+inf" : (exclusive ? "(" : "") + max;
            return later(queue(p -> p.zrevrangeByScoreWithScores(key, top, "-inf", 0, limit)), PipelineReads::scored);
        }

        @Override
        public Supplier<List<Scored>> zrangeByScoreEq(String key, long score) {
            return later(queue(p -> p.zrangeByScoreWithScores(key, Long.toString(score), Long.toString(score))), PipelineReads::scored);
        }

        private static List<Scored> scored(List<Tuple> tuples) {
            return tuples.stream().map(t -> new Scored(t.getElement(), (long) t.getScore())).toList();
        }

        @Override
        public Supplier<ScanBatch> hscan(String key, String cursor, int count) {
            return later(queue(p -> p.hscan(key, cursor, new ScanParams().count(count))),
                    r -> new ScanBatch(r.getCursor(), r.getResult().stream().map(Map.Entry::getKey).toList()));
        }

        @Override
        public void execute() {
            if (pipeline == null) return;
            Pipeline p = pipeline;
            pipeline = null;
            on(instance, () -> {
                try {
                    p.sync();
                } finally {
                    p.close();
                }
                return null;
            });
        }
    }
}
