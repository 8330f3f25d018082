package dev.pinfeed.operations.verify.index;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link IndexCheck#compare} found: how many claims and user rows were in scope, how many claims
 * wait for a user row that is on its way (UserCreated in the topic), and the differences, by username.
 */
public record IndexReport(int claims, int users, int awaiting, List<Difference> differences) {

    public IndexReport {
        differences = List.copyOf(differences);
    }

    /** The kinds of difference, in the order the summary names them. */
    public enum Kind {
        /** A claim no user row backs, and no UserCreated of its user with that name in the topic. */
        ORPHAN("orphan claims"),
        /** A user row's username without a claim. */
        MISSING("missing claims"),
        /** A claim naming another user than the one whose row has the name. */
        WRONG_USER("claims naming the wrong user"),
        /** Several user rows with one username. */
        SHARED("usernames shared by several users"),
        /** A claim on another shard than the one its name hashes to (no read ever finds it). */
        MISPLACED("misplaced claims");

        private final String title;

        Kind(String title) {
            this.title = title;
        }

        public String title() {
            return title;
        }

        /** The name in JSON output: {@code wrong-user}. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * One username's difference. {@code claimedUserId}: the user the claim names (0: no claim);
     * {@code expectedUserId}: the user it should name (0: none, the claim should go); {@code sharing}:
     * the other users whose rows have the name; {@code fix}: the write that repairs it, null when it
     * cannot be repaired automatically.
     */
    public record Difference(Kind kind, String username, long claimedUserId, long expectedUserId, List<Long> sharing,
                             String detail, IndexFix fix) {
        public Difference {
            Objects.requireNonNull(kind);
            Objects.requireNonNull(username);
            sharing = List.copyOf(sharing);
        }

        @Override
        public String toString() {
            return String.format("%-11s '%s': %s; %s", kind.label(), username, detail,
                    fix == null ? "not repaired automatically" : "repair: " + fix.describe());
        }
    }

    public boolean clean() {
        return differences.isEmpty();
    }

    /** Differences per kind, every kind present (zero when none). */
    public Map<Kind, Integer> counts() {
        Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
        for (Kind k : Kind.values()) counts.put(k, 0);
        for (Difference d : differences) counts.merge(d.kind(), 1, Integer::sum);
        return counts;
    }

    /** The repairs of the differences that have one, in username order. */
    public List<IndexFix> fixes() {
        return differences.stream().map(Difference::fix).filter(Objects::nonNull).toList();
    }
}
