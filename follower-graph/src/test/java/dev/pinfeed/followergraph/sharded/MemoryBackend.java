package dev.pinfeed.followergraph.sharded;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Redis's sorted sets, sets and hashes in process memory, with the three atomic writes of the Lua
 * scripts: a test double behind the {@link GraphBackend} port. Reproduces the Redis details the query
 * code depends on: equal scores ordered by member string, empty collections vanishing, HSCAN cursors
 * unsigned decimals ending at "0".
 */
final class MemoryBackend implements GraphBackend {

    private static final String INSTANCE = "memory";
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
        return new PairRead(hget(q.userRegisterKey(), q.userField()),
                Map.copyOf(hashes.getOrDefault(q.boardRegisterKey(), new TreeMap<>())), seq == null ? 0 : Long.parseLong(seq));
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

    /** Every key, for tests that look at the layout. */
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
