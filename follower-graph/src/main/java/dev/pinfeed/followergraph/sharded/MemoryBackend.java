package dev.pinfeed.followergraph.sharded;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Redis's sorted sets, sets and hashes in process memory, with the atomic writes of the Lua scripts,
 * behind the {@link GraphBackend} port: one instance, {@value #INSTANCE}. The oracle of an audit (the
 * graph as the events say it should be) and the unit tests' store run on it; {@code GraphStoreContract}
 * holds it and the Redis backend to the same behaviour. Reproduces the Redis details the query code
 * depends on: equal scores ordered by member string, empty collections vanishing, HSCAN cursors
 * unsigned decimals ending at "0".
 */
public final class MemoryBackend implements GraphBackend {

    /** The one instance's name. */
    public static final String INSTANCE = "memory";
    private static final Comparator<Scored> REDIS_ORDER =
            Comparator.comparingLong(Scored::score).thenComparing(Scored::member);

    private final Map<String, Map<String, Long>> zsets = new HashMap<>();
    private final Map<String, Set<String>> sets = new HashMap<>();
    private final Map<String, TreeMap<String, String>> hashes = new HashMap<>();

    @Override
    public String instanceOf(int shard) {
        return INSTANCE;
    }

    @Override
    public synchronized PairRead casRegister(int shard, CasRequest q) {
        String current = hget(q.registerKey(), q.field());
        String incoming = q.value();
        if (current == null || current.substring(0, Register.VERSION_KEY_LENGTH).compareTo(incoming.substring(0, Register.VERSION_KEY_LENGTH)) < 0) {
            hash(q.registerKey()).put(q.field(), incoming);
            String seq = hget(q.seqKey(), q.seqField());
            hash(q.seqKey()).put(q.seqField(), Long.toString(seq == null ? 1 : Long.parseLong(seq) + 1));
        }
        String seq = hget(q.seqKey(), q.seqField());
        Map<String, String> boards = q.boardRegisterKey().equals(q.userRegisterKey()) ? Map.of()
                : Map.copyOf(hashes.getOrDefault(q.boardRegisterKey(), new TreeMap<>()));
        String user = hget(q.userRegisterKey(), q.userField());
        FollowerSide side = q.followerSide();
        boolean sideWritten = side != null && boards.isEmpty() && user != null;
        long pairSeq = seq == null ? 0 : Long.parseLong(seq);
        String applied = sideWritten ? hget(q.seqKey(), side.appliedField()) : null;
        if (sideWritten && (applied == null || Long.parseLong(applied) < pairSeq)) {
            hash(q.seqKey()).put(side.appliedField(), Long.toString(pairSeq));
            Register winner = Register.decode(user);
            if (winner.follow()) zsets.computeIfAbsent(side.key(), k -> new HashMap<>()).put(side.member(), winner.at());
            else remove(zsets, side.key(), z -> z.remove(side.member()), Map::isEmpty);
        }
        return new PairRead(user, boards, pairSeq, sideWritten);
    }

    @Override
    public synchronized boolean apply(int shard, Guard guard, List<Mutation> mutations) {
        if (guard != null) {
            String stored = hget(guard.key(), guard.field());
            if (stored != null && Long.parseLong(stored) >= guard.seq()) return false;
            hash(guard.key()).put(guard.field(), Long.toString(guard.seq()));
        }
        for (Mutation m : mutations) {
            switch (m.op()) {
                case ZADD -> zsets.computeIfAbsent(m.key(), k -> new HashMap<>()).put(m.member(), Long.parseLong(m.value()));
                case ZADD_LT -> zsets.computeIfAbsent(m.key(), k -> new HashMap<>()).merge(m.member(), Long.parseLong(m.value()), Math::min);
                case ZREM -> remove(zsets, m.key(), z -> z.remove(m.member()), Map::isEmpty);
                case SADD -> sets.computeIfAbsent(m.key(), k -> new HashSet<>()).add(m.member());
                case SREM -> remove(sets, m.key(), s -> s.remove(m.member()), Set::isEmpty);
                case HSET -> hash(m.key()).put(m.member(), m.value());
                case HDEL -> remove(hashes, m.key(), h -> h.remove(m.member()), Map::isEmpty);
            }
        }
        return true;
    }

    /** A batch one call at a time, under the backend's lock. */
    @Override
    public synchronized List<Long> claimOwners(String instance, List<OwnerClaim> claims) {
        return GraphBackend.super.claimOwners(instance, claims);
    }

    @Override
    public synchronized List<PairRead> casRegisters(String instance, List<ShardCas> requests) {
        return GraphBackend.super.casRegisters(instance, requests);
    }

    @Override
    public synchronized List<Boolean> applyAll(String instance, List<Write> writes) {
        return GraphBackend.super.applyAll(instance, writes);
    }

    @Override
    public synchronized PairReset resetPair(int shard, PairResetRequest q) {
        int skipped = 0;
        for (RegisterFix f : q.fixes()) {
            if (java.util.Objects.equals(hget(f.key(), f.field()), f.observed())) {
                if (f.fixed() == null) remove(hashes, f.key(), h -> h.remove(f.field()), Map::isEmpty);
                else hash(f.key()).put(f.field(), f.fixed());
            } else {
                skipped++;
            }
        }
        long seq = Math.max(q.floor(), Math.max(sequence(q.seqKey(), q.seqField()), sequence(q.seqKey(), q.appliedField()))) + 1;
        hash(q.seqKey()).put(q.seqField(), Long.toString(seq));
        PairRead read = new PairRead(hget(q.userRegisterKey(), q.userField()),
                Map.copyOf(hashes.getOrDefault(q.boardRegisterKey(), new TreeMap<>())), seq);
        return new PairReset(read, skipped);
    }

    /** A stored sequence; absent or malformed counts as 0, as in the Lua script. */
    private long sequence(String key, String field) {
        String v = hget(key, field);
        try {
            return v == null ? 0 : Long.parseLong(v);
        } catch (NumberFormatException malformed) {
            return 0;
        }
    }

    @Override
    public synchronized int fixKey(String instance, KeyFix fix) {
        if (fix.deleteIfType() != null) {
            if (!typeOf(fix.key()).equals(fix.deleteIfType())) return -1;
            zsets.remove(fix.key());
            sets.remove(fix.key());
            hashes.remove(fix.key());
        }
        int applied = 0;
        for (MemberFix m : fix.members()) {
            if (!java.util.Objects.equals(member(fix.type(), fix.key(), m.member()), m.observed())) continue;
            switch (fix.type()) {
                case "zset" -> {
                    if (m.fixed() == null) remove(zsets, fix.key(), z -> z.remove(m.member()), Map::isEmpty);
                    else zsets.computeIfAbsent(fix.key(), k -> new HashMap<>()).put(m.member(), Long.parseLong(m.fixed()));
                }
                case "set" -> {
                    if (m.fixed() == null) remove(sets, fix.key(), z -> z.remove(m.member()), Set::isEmpty);
                    else sets.computeIfAbsent(fix.key(), k -> new HashSet<>()).add(m.member());
                }
                case "hash" -> {
                    if (m.fixed() == null) remove(hashes, fix.key(), h -> h.remove(m.member()), Map::isEmpty);
                    else hash(fix.key()).put(m.member(), m.fixed());
                }
                default -> throw new IllegalArgumentException("no graph key has type " + fix.type());
            }
            applied++;
        }
        return applied;
    }

    private String member(String type, String key, String member) {
        return switch (type) {
            case "zset" -> {
                Long score = zsets.getOrDefault(key, Map.of()).get(member);
                yield score == null ? null : score.toString();
            }
            case "set" -> sets.getOrDefault(key, Set.of()).contains(member) ? "" : null;
            default -> hget(key, member);
        };
    }

    private String typeOf(String key) {
        if (zsets.containsKey(key)) return "zset";
        if (sets.containsKey(key)) return "set";
        if (hashes.containsKey(key)) return "hash";
        return "none";
    }

    @Override
    public List<String> instances() {
        return List.of(INSTANCE);
    }

    @Override
    public synchronized long keyCount(String instance) {
        return keys().size();
    }

    /** Keys in string order after the cursor (the last key returned; "0" starts, "0" ends). */
    @Override
    public synchronized ScanStep scan(String instance, String cursor, String pattern, int count) {
        Pattern glob = glob(pattern);
        NavigableSet<String> all = new TreeSet<>(keys());
        List<String> page = new ArrayList<>();
        String last = null;
        for (String key : cursor.equals("0") ? all : all.tailSet(cursor, false)) {
            if (page.size() == count) return new ScanStep(last, page);
            last = key;
            if (glob.matcher(key).matches()) page.add(key);
        }
        return new ScanStep("0", page);
    }

    /** Redis's glob: * ? [..] and backslash escapes. */
    static Pattern glob(String pattern) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            switch (c) {
                case '*' -> re.append(".*");
                case '?' -> re.append('.');
                case '[' -> {
                    int end = pattern.indexOf(']', i + 1);
                    if (end < 0) {
                        re.append("\\[");
                    } else {
                        re.append('[').append(pattern, i + 1, end).append(']');
                        i = end;
                    }
                }
                case '\\' -> {
                    if (i + 1 < pattern.length()) re.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
                }
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }

    @Override
    public synchronized Map<String, Stored> read(String instance, List<KeyRead> reads) {
        Map<String, Stored> out = new LinkedHashMap<>();
        for (KeyRead r : reads) {
            String type = typeOf(r.key());
            TreeMap<String, String> entries = new TreeMap<>();
            if (type.equals(r.type())) {
                switch (type) {
                    case "zset" -> zsets.get(r.key()).forEach((m, score) -> entries.put(m, score.toString()));
                    case "set" -> sets.get(r.key()).forEach(m -> entries.put(m, ""));
                    default -> entries.putAll(hashes.get(r.key()));
                }
            }
            out.put(r.key(), type.equals("none") ? Stored.ABSENT : new Stored(type, entries));
        }
        return out;
    }

    @Override
    public synchronized long claimOwner(int shard, String ownersKey, long board, long owner) {
        return Long.parseLong(hash(ownersKey).computeIfAbsent(Long.toString(board), k -> Long.toString(owner)));
    }

    private TreeMap<String, String> hash(String key) {
        return hashes.computeIfAbsent(key, k -> new TreeMap<>());
    }

    private String hget(String key, String field) {
        Map<String, String> h = hashes.get(key);
        return h == null ? null : h.get(field);
    }

    private static <C> void remove(Map<String, C> store, String key, java.util.function.Consumer<C> op,
                                   java.util.function.Predicate<C> empty) {
        C c = store.get(key);
        if (c == null) return;
        op.accept(c);
        if (empty.test(c)) store.remove(key);
    }

    /** Every key. */
    synchronized Set<String> keys() {
        Set<String> all = new HashSet<>(zsets.keySet());
        all.addAll(sets.keySet());
        all.addAll(hashes.keySet());
        return all;
    }

    @Override
    public Reads reads(String instance) {
        return new MemoryReads();
    }

    @Override
    public void close() {}

    /** Runs each read at once (under the backend's lock); execute() has nothing left to do. */
    private final class MemoryReads implements Reads {

        private <T> Supplier<T> now(Supplier<T> read) {
            T value;
            synchronized (MemoryBackend.this) {
                value = read.get();
            }
            return () -> value;
        }

        @Override
        public Supplier<Long> zscore(String key, String member) {
            return now(() -> zsets.getOrDefault(key, Map.of()).get(member));
        }

        @Override
        public Supplier<List<Long>> zmscore(String key, List<String> members) {
            return now(() -> {
                Map<String, Long> z = zsets.getOrDefault(key, Map.of());
                List<Long> out = new ArrayList<>();
                for (String m : members) out.add(z.get(m));
                return out;
            });
        }

        @Override
        public Supplier<Long> zcard(String key) {
            return now(() -> (long) zsets.getOrDefault(key, Map.of()).size());
        }

        @Override
        public Supplier<Long> scard(String key) {
            return now(() -> (long) sets.getOrDefault(key, Set.of()).size());
        }

        @Override
        public Supplier<List<Boolean>> smismember(String key, List<String> members) {
            return now(() -> members.stream().map(m -> sets.getOrDefault(key, Set.of()).contains(m)).toList());
        }

        @Override
        public Supplier<List<String>> hmget(String key, List<String> fields) {
            return now(() -> {
                List<String> out = new ArrayList<>();
                for (String f : fields) out.add(hget(key, f));
                return out;
            });
        }

        @Override
        public Supplier<List<Scored>> zrevrangeByScore(String key, Long max, boolean exclusive, int limit) {
            return now(() -> zsets.getOrDefault(key, Map.of()).entrySet().stream()
                    .map(e -> new Scored(e.getKey(), e.getValue()))
                    .filter(s -> max == null || (exclusive ? s.score() < max : s.score() <= max))
                    .sorted(REDIS_ORDER.reversed()).limit(limit).toList());
        }

        @Override
        public Supplier<List<Scored>> zrangeByScoreEq(String key, long score) {
            return now(() -> zsets.getOrDefault(key, Map.of()).entrySet().stream()
                    .filter(e -> e.getValue() == score).map(e -> new Scored(e.getKey(), e.getValue()))
                    .sorted(REDIS_ORDER).toList());
        }

        /**
         * Cursor "0" = start; otherwise the last field returned. The only hashes scanned are a board's
         * followers, whose fields are user ids (positive decimals): cursors are numeric, as Redis's are.
         */
        @Override
        public Supplier<ScanBatch> hscan(String key, String cursor, int count) {
            return now(() -> {
                TreeMap<String, String> h = hashes.getOrDefault(key, new TreeMap<>());
                var tail = cursor.equals("0") ? h : h.tailMap(cursor, false);
                List<String> fields = tail.keySet().stream().limit(count).toList();
                boolean more = fields.size() == count && tail.size() > count;
                return new ScanBatch(more ? fields.get(fields.size() - 1) : "0", fields);
            });
        }

        @Override
        public void execute() {}
    }
}
