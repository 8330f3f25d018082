package dev.pinfeed.followergraph.audit;

import dev.pinfeed.followergraph.sharded.GraphBackend.KeyFix;
import dev.pinfeed.followergraph.sharded.GraphBackend.MemberFix;
import dev.pinfeed.followergraph.sharded.GraphBackend.RegisterFix;
import dev.pinfeed.followergraph.sharded.GraphKeys;
import dev.pinfeed.followergraph.sharded.GraphKeys.Kind;
import dev.pinfeed.followergraph.sharded.GraphKeyspace;
import dev.pinfeed.followergraph.sharded.GraphKeyspace.PairRepair;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The writes that turn what an audit found into what the oracle says, chosen so that a live processor
 * writing at the same time is never overwritten with older knowledge:
 * <ol>
 *   <li><b>clear</b>: keys of a type the graph never gives them, and sequence fields that are no number,
 *       are deleted if they still are so (the writes below would fail on them);</li>
 *   <li><b>pairs</b>: every difference that belongs to a (follower, owner) pair — following and follower
 *       sets, board follows and exceptions on both sides, registers, sequences — becomes one pair repair
 *       through the store's write protocol ({@link GraphKeyspace#repairPair}): register fields that still
 *       hold what the audit read take the oracle's value, the pair's sequence moves above everything both
 *       sides applied, and both sides are recomputed from the registers, guarded by that sequence. A newer
 *       event applied meanwhile wins by its register and its sequence, as between any two writers;</li>
 *   <li><b>keys</b>: the rest (boards owned, board owners, entries on an instance or under a tag the
 *       scheme does not put them, entries of boards no event names) member by member, each only if it still
 *       holds what the audit read.</li>
 * </ol>
 * Every write is idempotent; a second run of verify finds nothing left to do.
 */
public final class RepairPlan {

    /** A fix of one key on one instance. */
    private record KeyFixAt(String instance, KeyFix fix) {}

    /** What a run did. */
    public record Outcome(int pairs, int skippedRegisterFixes, int supersededSides, int keys, int members, int skippedKeys,
                          boolean stopped) {}

    private final List<KeyFixAt> clear;
    private final List<PairRepair> pairs;
    private final List<KeyFixAt> keys;

    private RepairPlan(List<KeyFixAt> clear, List<PairRepair> pairs, List<KeyFixAt> keys) {
        this.clear = List.copyOf(clear);
        this.pairs = List.copyOf(pairs);
        this.keys = List.copyOf(keys);
    }

    /** Steps in all. */
    public int size() {
        return clear.size() + pairs.size() + keys.size();
    }

    static RepairPlan of(Findings findings, GraphOracle oracle, GraphKeyspace live) {
        Builder b = new Builder(oracle, live.keys());
        for (KeyDifference d : findings.keys()) b.key(d);
        for (SequenceDifference s : findings.sequences()) b.sequence(s);
        return b.build();
    }

    Outcome run(GraphKeyspace live, GraphAudit.Listener listener) {
        int pairsDone = 0, skippedFixes = 0, superseded = 0, keysDone = 0, members = 0, skippedKeys = 0;
        List<Object> steps = new ArrayList<>(clear);
        steps.addAll(pairs);
        steps.addAll(keys);
        for (Object step : steps) {
            if (listener.stopRequested()) {
                return new Outcome(pairsDone, skippedFixes, superseded, keysDone, members, skippedKeys, true);
            }
            if (step instanceof PairRepair p) {
                GraphKeyspace.PairRepaired r = live.repairPair(p);
                pairsDone++;
                skippedFixes += r.skippedFixes();
                superseded += (r.followerSide() ? 0 : 1) + (r.followeeSide() ? 0 : 1);
            } else {
                KeyFixAt k = (KeyFixAt) step;
                int n = live.fixKey(k.instance(), k.fix());
                keysDone++;
                if (n < 0) skippedKeys++;
                else members += n;
            }
            listener.repaired();
        }
        return new Outcome(pairsDone, skippedFixes, superseded, keysDone, members, skippedKeys, false);
    }

    private static final class Builder {
        private final GraphOracle oracle;
        private final GraphKeys keys;
        private final List<KeyFixAt> clear = new ArrayList<>();
        private final Map<GraphAudit.Pair, PairBuilder> pairs = new TreeMap<>(
                java.util.Comparator.comparingLong(GraphAudit.Pair::follower).thenComparingLong(GraphAudit.Pair::owner));
        private final Map<String, KeyBuilder> keyFixes = new LinkedHashMap<>();

        Builder(GraphOracle oracle, GraphKeys keys) {
            this.oracle = oracle;
            this.keys = keys;
        }

        private PairBuilder pair(long follower, long owner) {
            return pairs.computeIfAbsent(new GraphAudit.Pair(follower, owner), p -> new PairBuilder());
        }

        private void member(KeyDifference d, KeyDifference.MemberDifference m, boolean afterClear) {
            keyFixes.computeIfAbsent(d.instance() + " " + d.key(), k -> new KeyBuilder(d.instance(), d.key(), d.parsed().kind().redisType()))
                    .members.add(new MemberFix(m.member(), afterClear ? null : m.actual(), m.expected()));
        }

        void key(KeyDifference d) {
            GraphKeys.Key p = d.parsed();
            boolean cleared = d.wrongType();
            if (cleared) clear.add(new KeyFixAt(d.instance(), new KeyFix(d.key(), p.kind().redisType(), d.actualType(), List.of())));
            boolean placed = !d.misplaced() && (!p.kind().ofUser() || keys.userKey(p.kind(), p.id(), p.owner()).equals(d.key()));
            for (KeyDifference.MemberDifference m : d.members()) {
                if (!placed) {
                    if (!cleared) member(d, new KeyDifference.MemberDifference(m.member(), null, m.actual()), false);
                    continue;
                }
                OptionalLong id = id(m.member());
                switch (p.kind()) {
                    case FOLLOWING_EXPLICIT, FOLLOWING_IMPLICIT -> {
                        if (id.isPresent()) pair(p.id(), id.getAsLong()); else member(d, m, cleared);
                    }
                    case FOLLOWERS_EXPLICIT, FOLLOWERS_IMPLICIT -> {
                        if (id.isPresent()) pair(id.getAsLong(), p.id()); else member(d, m, cleared);
                    }
                    case BOARDS_FOLLOWED, BOARDS_UNFOLLOWED -> {
                        OptionalLong owner = id.isPresent() ? oracle.boardOwner(id.getAsLong()) : OptionalLong.empty();
                        if (owner.isPresent()) pair(p.id(), owner.getAsLong()).strays.add(id.getAsLong()); else member(d, m, cleared);
                    }
                    case USER_REGISTERS -> {
                        if (id.isPresent()) {
                            pair(p.id(), id.getAsLong()).fixes.add(new RegisterFix(d.key(), m.member(), cleared ? null : m.actual(), m.expected()));
                        } else {
                            member(d, m, cleared);
                        }
                    }
                    case BOARD_REGISTERS -> {
                        PairBuilder pair = pair(p.id(), p.owner());
                        pair.fixes.add(new RegisterFix(d.key(), m.member(), cleared ? null : m.actual(), m.expected()));
                        id.ifPresent(pair.strays::add);
                    }
                    case BOARD_FOLLOWERS, BOARD_UNFOLLOWERS -> {
                        OptionalLong owner = oracle.boardOwner(p.id());
                        boolean ownersKey = owner.isPresent() && id.isPresent() && (p.kind() == Kind.BOARD_FOLLOWERS
                                ? keys.boardFollowers(owner.getAsLong(), p.id()) : keys.boardUnfollowers(owner.getAsLong(), p.id())).equals(d.key());
                        if (ownersKey) pair(id.getAsLong(), owner.getAsLong()).strays.add(p.id()); else member(d, m, cleared);
                    }
                    case PAIR_SEQUENCES, FOLLOWEE_SEQUENCES -> {
                        // Fields the scheme never writes (a sequence of the wrong type is cleared above).
                        if (!cleared) clear.add(new KeyFixAt(d.instance(), new KeyFix(d.key(), "hash", null,
                                List.of(new MemberFix(m.member(), m.actual(), null)))));
                    }
                    case BOARDS_OWNED, BOARD_OWNERS -> member(d, m, cleared);
                }
            }
        }

        void sequence(SequenceDifference s) {
            PairBuilder pair = pair(s.follower(), s.owner());
            pair.floor = Math.max(pair.floor, Math.max(GraphAudit.number(s.registerSeq()),
                    Math.max(GraphAudit.number(s.followerApplied()), GraphAudit.number(s.followeeApplied()))));
            // The guards compare numbers: a stored sequence that is none goes first (if still the same).
            String pv = keys.pairVersions(s.follower());
            if (malformed(s.registerSeq())) clearField(s.followerInstance(), pv, Long.toString(s.owner()), s.registerSeq());
            if (malformed(s.followerApplied())) clearField(s.followerInstance(), pv, s.owner() + ":m", s.followerApplied());
            if (malformed(s.followeeApplied())) {
                clearField(s.followeeInstance(), keys.followeeVersions(s.owner()), Long.toString(s.follower()), s.followeeApplied());
            }
        }

        private static boolean malformed(String sequence) {
            return sequence != null && GraphAudit.number(sequence) < 0;
        }

        private void clearField(String instance, String key, String field, String observed) {
            clear.add(new KeyFixAt(instance, new KeyFix(key, "hash", null, List.of(new MemberFix(field, observed, null)))));
        }

        RepairPlan build() {
            List<PairRepair> repairs = new ArrayList<>();
            pairs.forEach((p, b) -> repairs.add(new PairRepair(p.follower(), p.owner(), List.copyOf(b.fixes), b.floor, Set.copyOf(b.strays))));
            List<KeyFixAt> fixes = new ArrayList<>();
            keyFixes.values().forEach(k -> fixes.add(new KeyFixAt(k.instance, new KeyFix(k.key, k.type, null, List.copyOf(k.members)))));
            return new RepairPlan(clear, repairs, fixes);
        }

        /** A decimal id as the scheme writes it (members and fields naming users or boards). */
        private static OptionalLong id(String member) {
            if (!member.matches("[1-9][0-9]{0,18}")) return OptionalLong.empty();
            try {
                return OptionalLong.of(Long.parseLong(member));
            } catch (NumberFormatException tooLarge) {
                return OptionalLong.empty();
            }
        }
    }

    private static final class PairBuilder {
        final List<RegisterFix> fixes = new ArrayList<>();
        final Set<Long> strays = new TreeSet<>();
        long floor;
    }

    private static final class KeyBuilder {
        final String instance;
        final String key;
        final String type;
        final List<MemberFix> members = new ArrayList<>();

        KeyBuilder(String instance, String key, String type) {
            this.instance = instance;
            this.key = key;
            this.type = type;
        }
    }
}
