package dev.pinfeed.followergraph.audit;

import dev.pinfeed.followergraph.sharded.GraphBackend.ScanStep;
import dev.pinfeed.followergraph.sharded.GraphBackend.Stored;
import dev.pinfeed.followergraph.sharded.GraphKeys;
import dev.pinfeed.followergraph.sharded.GraphKeys.Kind;
import dev.pinfeed.followergraph.sharded.GraphKeyspace;
import dev.pinfeed.followergraph.sharded.MemoryBackend;
import dev.pinfeed.redisshards.VirtualShards;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The live graph against its oracle, key by key and value by value.
 * <ul>
 *   <li>{@link #scan}: every instance is SCANned for keys shaped like the graph's under the prefix; the
 *       keys {@link GraphKeys#parse} accepts are read whole (pipelined, a batch at a time) and compared with
 *       the oracle's. Oracle keys no instance showed are missing; a key on an instance the shard map does
 *       not put it on is extra there.</li>
 *   <li>The pair sequences ({@code pv}, {@code rv}) count changes in arrival order, so they are checked
 *       by the protocol's invariant ({@link SequenceDifference}), not against the oracle's numbers. A pair
 *       without registers may keep consistent sequences (a repair leaves them: removing a guard could let a
 *       stale writer through).</li>
 *   <li>{@link #observe} then {@link #recheck}: the same comparison, only for what an earlier pass found —
 *       read again, then compared after the oracle caught up with the events published meanwhile.</li>
 *   <li>{@link #plan} and {@link #repair}: see {@link RepairPlan}.</li>
 * </ul>
 */
public final class GraphAudit {

    /** Keys per SCAN step and per pipelined read. */
    static final int BATCH = 1_000;

    /** What a long pass reports as it goes, and how it is asked to stop. */
    public interface Listener {
        /** A scan of {@code instance} starts; it holds {@code keys} keys of every scheme. */
        default void scanning(String instance, long keys) {}

        /**
         * One more SCAN step on {@code instance}: about {@code walked} more keys looked at, all schemes together
         * (SCAN's COUNT is the number of keys a step walks, roughly), {@code graphKeys} of them the graph's.
         */
        default void scanned(String instance, long walked, long graphKeys) {}

        /** One more repair done (a pair or a key). */
        default void repaired() {}

        /** True when the pass should stop at the next batch. */
        default boolean stopRequested() {
            return false;
        }
    }

    /** A pass stopped by {@link Listener#stopRequested()}; nothing it did is half done. */
    public static final class StoppedException extends RuntimeException {
        StoppedException() {
            super("stopped on request");
        }
    }

    private final GraphOracle oracle;
    private final GraphKeyspace expected;
    private final GraphKeyspace live;
    private final GraphKeys keys;

    public GraphAudit(GraphOracle oracle, GraphKeyspace live) {
        if (!oracle.keys().prefix().equals(live.keys().prefix())) {
            throw new IllegalArgumentException("the oracle's key prefix '" + oracle.keys().prefix() + "' is not the live one's '"
                    + live.keys().prefix() + "'");
        }
        this.oracle = oracle;
        this.expected = oracle.keyspace();
        this.live = live;
        this.keys = live.keys();
    }

    /** Every graph key of every instance against the oracle. */
    public Findings scan(Listener listener) {
        Set<String> oracleKeys = new HashSet<>();
        String cursor = "0";
        do {
            ScanStep step = expected.scan(MemoryBackend.INSTANCE, cursor, Integer.MAX_VALUE);
            oracleKeys.addAll(step.keys());
            cursor = step.cursor();
        } while (!cursor.equals("0"));

        List<KeyDifference> differences = new ArrayList<>();
        Sequences sequences = new Sequences();
        Set<String> seen = new HashSet<>();
        Map<String, Long> graphKeys = new TreeMap<>();
        for (String instance : live.instances()) {
            listener.scanning(instance, live.keyCount(instance));
            graphKeys.put(instance, 0L);
            cursor = "0";
            do {
                if (listener.stopRequested()) throw new StoppedException();
                ScanStep step = live.scan(instance, cursor, BATCH);
                List<String> batch = step.keys().stream().filter(k -> keys.parse(k).isPresent()).distinct().toList();
                Map<String, Stored> found = live.read(instance, batch);
                Map<String, Stored> wanted = expected.read(MemoryBackend.INSTANCE, batch);
                for (String key : batch) {
                    GraphKeys.Key parsed = keys.parse(key).orElseThrow();
                    String home = live.instanceOf(parsed.shard());
                    if (!seen.add(home.equals(instance) ? key : instance + " " + key)) continue; // SCAN may return a key twice
                    if (home.equals(instance)) graphKeys.merge(instance, 1L, Long::sum);
                    if (parsed.kind() == Kind.PAIR_SEQUENCES && home.equals(instance)) sequences.registered(parsed.id(), wanted.get(key));
                    compare(instance, home, key, parsed, home.equals(instance) ? wanted.get(key) : Stored.ABSENT, found.get(key), sequences)
                            .ifPresent(differences::add);
                }
                listener.scanned(instance, BATCH, batch.size());
                cursor = step.cursor();
            } while (!cursor.equals("0"));
        }

        List<String> missing = oracleKeys.stream().filter(k -> !seen.contains(k)).sorted().toList();
        for (int from = 0; from < missing.size(); from += BATCH) {
            List<String> batch = missing.subList(from, Math.min(missing.size(), from + BATCH));
            Map<String, Stored> wanted = expected.read(MemoryBackend.INSTANCE, batch);
            for (String key : batch) {
                GraphKeys.Key parsed = keys.parse(key).orElseThrow();
                String home = live.instanceOf(parsed.shard());
                if (parsed.kind() == Kind.PAIR_SEQUENCES) sequences.registered(parsed.id(), wanted.get(key));
                compare(home, home, key, parsed, wanted.get(key), Stored.ABSENT, sequences).ifPresent(differences::add);
            }
        }
        return new Findings(sorted(differences), sequences.check(null), graphKeys, oracleKeys.size());
    }

    /**
     * The live keys of what {@code earlier} found (their keys, and the sequence keys of their pairs), read
     * again now. Read before the oracle catches up with newer events, so the oracle then knows every event
     * these values can reflect: a difference left is never a newer live state the oracle has not seen.
     */
    public Observation observe(Findings earlier) {
        Map<String, Set<String>> reread = new TreeMap<>();
        for (KeyDifference d : earlier.keys()) reread.computeIfAbsent(d.instance(), i -> new TreeSet<>()).add(d.key());
        Set<Pair> pairs = new HashSet<>();
        for (SequenceDifference s : earlier.sequences()) {
            pairs.add(new Pair(s.follower(), s.owner()));
            reread.computeIfAbsent(instanceOfUser(s.follower()), i -> new TreeSet<>()).add(keys.pairVersions(s.follower()));
            reread.computeIfAbsent(instanceOfUser(s.owner()), i -> new TreeSet<>()).add(keys.followeeVersions(s.owner()));
        }
        Map<String, Map<String, Stored>> found = new TreeMap<>();
        reread.forEach((instance, batch) -> found.put(instance, live.read(instance, batch)));
        return new Observation(found, pairs, earlier);
    }

    /** Live keys read again ({@link #observe}) for {@link #recheck}, and the findings they were read for. */
    public record Observation(Map<String, Map<String, Stored>> found, Set<Pair> pairs, Findings earlier) {}

    /** What of an observation still differs from the oracle as it is now. */
    public Findings recheck(Observation observation) {
        List<KeyDifference> differences = new ArrayList<>();
        Sequences sequences = new Sequences();
        observation.found().forEach((instance, found) -> {
            Map<String, Stored> wanted = expected.read(MemoryBackend.INSTANCE, found.keySet());
            for (String key : found.keySet()) {
                GraphKeys.Key parsed = keys.parse(key).orElseThrow();
                String home = live.instanceOf(parsed.shard());
                if (parsed.kind() == Kind.PAIR_SEQUENCES && home.equals(instance)) sequences.registered(parsed.id(), wanted.get(key));
                compare(instance, home, key, parsed, home.equals(instance) ? wanted.get(key) : Stored.ABSENT, found.get(key), sequences)
                        .ifPresent(differences::add);
            }
        });
        return new Findings(sorted(differences), sequences.check(observation.pairs()), observation.earlier().graphKeysByInstance(),
                observation.earlier().expectedKeys());
    }

    private String instanceOfUser(long user) {
        return live.instanceOf(VirtualShards.of(user));
    }

    /** The repairs that make the live graph what the oracle says (see {@link RepairPlan}). */
    public RepairPlan plan(Findings findings) {
        return RepairPlan.of(findings, oracle, live);
    }

    /** Runs a plan against the live graph; stops between two repairs when asked. */
    public RepairPlan.Outcome repair(RepairPlan plan, Listener listener) {
        return plan.run(live, listener);
    }

    /**
     * One key as found on {@code instance} against what the oracle wants there. Sequence keys go to
     * {@code sequences} (only fields the scheme never writes are differences of the key itself).
     */
    private Optional<KeyDifference> compare(String instance, String home, String key, GraphKeys.Key parsed, Stored wanted, Stored found,
                                            Sequences sequences) {
        boolean sequenceKey = parsed.kind() == Kind.PAIR_SEQUENCES || parsed.kind() == Kind.FOLLOWEE_SEQUENCES;
        if (sequenceKey && home.equals(instance) && !found.exists()) return Optional.empty();
        if (sequenceKey && home.equals(instance) && found.type().equals(parsed.kind().redisType())) {
            List<KeyDifference.MemberDifference> malformed = sequences.found(parsed, found);
            if (malformed.isEmpty()) return Optional.empty();
            return Optional.of(new KeyDifference(instance, home, key, parsed, wanted.type(), found.type(), malformed));
        }
        if (sequenceKey && home.equals(instance)) {
            wanted = Stored.ABSENT; // a sequence key of the wrong type: only its deletion is expected
        }
        if (wanted.type().equals(found.type()) && wanted.entries().equals(found.entries())) return Optional.empty();
        List<KeyDifference.MemberDifference> members = new ArrayList<>();
        Set<String> all = new TreeSet<>(wanted.entries().keySet());
        all.addAll(found.entries().keySet());
        for (String m : all) {
            String e = wanted.entries().get(m);
            String a = found.entries().get(m);
            if (!Objects.equals(e, a)) members.add(new KeyDifference.MemberDifference(m, e, a));
        }
        return Optional.of(new KeyDifference(instance, home, key, parsed, wanted.type(), found.type(), members));
    }

    private static List<KeyDifference> sorted(List<KeyDifference> differences) {
        List<KeyDifference> out = new ArrayList<>(differences);
        out.sort(java.util.Comparator.comparing((KeyDifference d) -> d.parsed().kind()).thenComparing(KeyDifference::instance)
                .thenComparing(KeyDifference::key));
        return out;
    }

    /** A follower and the owner he follows (or whose boards he follows). */
    public record Pair(long follower, long owner) {}

    /** The sequence fields of the pairs, gathered from both sides, then checked pair by pair. */
    private final class Sequences {
        private final Map<Pair, String[]> values = new LinkedHashMap<>();
        private final Set<Pair> registered = new HashSet<>();

        private String[] of(Pair p) {
            return values.computeIfAbsent(p, k -> new String[3]);
        }

        /** The pairs the oracle has registers for: its register-sequence fields of {@code follower}. */
        void registered(long follower, Stored oraclePairVersions) {
            for (String field : oraclePairVersions.entries().keySet()) {
                GraphKeys.parseSequenceField(field).filter(f -> !f.applied()).ifPresent(f -> registered.add(new Pair(follower, f.owner())));
            }
        }

        /** A live sequence key's fields; returns the fields the scheme never writes. */
        List<KeyDifference.MemberDifference> found(GraphKeys.Key parsed, Stored stored) {
            List<KeyDifference.MemberDifference> malformed = new ArrayList<>();
            stored.entries().forEach((field, value) -> {
                if (parsed.kind() == Kind.PAIR_SEQUENCES) {
                    Optional<GraphKeys.SequenceField> f = GraphKeys.parseSequenceField(field);
                    if (f.isPresent() && !f.get().applied()) of(new Pair(parsed.id(), f.get().owner()))[0] = value;
                    else if (f.isPresent()) of(new Pair(parsed.id(), f.get().owner()))[1] = value;
                    else malformed.add(new KeyDifference.MemberDifference(field, null, value));
                } else {
                    Optional<GraphKeys.SequenceField> f = GraphKeys.parseSequenceField(field);
                    if (f.isPresent() && !f.get().applied()) of(new Pair(f.get().owner(), parsed.id()))[2] = value;
                    else malformed.add(new KeyDifference.MemberDifference(field, null, value));
                }
            });
            return malformed;
        }

        /** The pairs (all, or those of {@code only}) breaking the invariant. */
        List<SequenceDifference> check(Collection<Pair> only) {
            Set<Pair> pairs = new TreeSet<>(java.util.Comparator.comparingLong(Pair::follower).thenComparingLong(Pair::owner));
            if (only != null) {
                pairs.addAll(only);
            } else {
                pairs.addAll(values.keySet());
                pairs.addAll(registered);
            }
            List<SequenceDifference> out = new ArrayList<>();
            for (Pair p : pairs) {
                String[] v = values.getOrDefault(p, new String[3]);
                boolean has = registered.contains(p);
                boolean consistent = number(v[0]) > 0 && number(v[0]) == number(v[1]) && number(v[0]) == number(v[2]);
                boolean none = v[0] == null && v[1] == null && v[2] == null;
                if (consistent || (!has && none)) continue;
                out.add(new SequenceDifference(p.follower(), p.owner(), has, v[0], v[1], v[2], instanceOfUser(p.follower()),
                        instanceOfUser(p.owner())));
            }
            return out;
        }
    }

    /** A stored sequence as a number; absent or malformed is -1 (never consistent). */
    static long number(String value) {
        if (value == null || !value.matches("[0-9]{1,18}")) return -1;
        return Long.parseLong(value);
    }
}
