package dev.pinfeed.operations.verify.index;

import dev.pinfeed.operations.verify.index.IndexReport.Difference;
import dev.pinfeed.operations.verify.index.IndexReport.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToIntFunction;

/**
 * The cross-shard username index against the user rows, over plain collections (the store is read
 * elsewhere): seed 003's "way of detecting and fixing inconsistencies in the cross-shard index".
 *
 * <p>For each username in scope, the user rows naming it (its holders, first created first: createdAt,
 * then id) and its claim (the index row on the shard the name hashes to) must agree: the claim names
 * the first holder. A claim no holder backs is an orphan, unless its user's UserCreated with that
 * name is in the users topic (published, not materialized yet: the claim is right, the row is late).
 * A claim on any other shard is never read and is misplaced. Each difference carries the write
 * that repairs it, or none when it cannot be repaired automatically.
 */
public final class IndexCheck {

    /** A row of {@code dbNNNNN.usernames} as found on {@code shard}. */
    public record Claim(int shard, String username, long userId) {}

    /** A user row: its id, the username in its JSON (null when it has none) and createdAt (epoch ms). */
    public record UserRow(long userId, String username, long createdAt) {}

    /** A UserCreated in the users topic: this user was published with this username. */
    public record Created(long userId, String username) {}

    /** Usernames starting with {@code prefix} (empty: all). */
    public record Scope(String prefix) {
        public static final Scope ALL = new Scope("");

        public Scope {
            if (prefix == null) prefix = "";
            for (char c : prefix.toCharArray()) {
                if (c <= ' ' || c >= 0x7f) throw new IllegalArgumentException("a usernames prefix is printable ASCII: '" + prefix + "'");
            }
        }

        public boolean contains(String username) {
            return username != null && username.startsWith(prefix);
        }

        public boolean isAll() {
            return prefix.isEmpty();
        }

        /**
         * The first string after every name with the prefix, in the index's binary (ASCII) order: the
         * prefix with its last character incremented. Names in scope are those {@code >= prefix} and
         * {@code < upperBound()}.
         */
        public String upperBound() {
            if (isAll()) throw new IllegalStateException("the whole index has no upper bound");
            return prefix.substring(0, prefix.length() - 1) + (char) (prefix.charAt(prefix.length() - 1) + 1);
        }
    }

    /** The longest username the index column holds (infra/definitions/mysql-shard-schema.sql: VARCHAR(30) ASCII). */
    static final int INDEX_USERNAME_MAX = 30;

    private IndexCheck() {}

    /**
     * The user ids of claims in scope that no user row backs (no row of that user with that name): the
     * users whose UserCreated must be looked for in the users topic before their claims are judged.
     */
    public static Set<Long> unbackedUserIds(Collection<Claim> claims, Collection<UserRow> users, Scope scope,
                                            ToIntFunction<String> indexShardOf) {
        Map<Long, UserRow> byId = byId(users);
        Set<Long> out = new TreeSet<>();
        for (Claim c : claims) {
            if (!scope.contains(c.username()) || c.shard() != indexShardOf.applyAsInt(c.username())) continue;
            UserRow row = byId.get(c.userId());
            if (row == null || !c.username().equals(row.username())) out.add(c.userId());
        }
        return out;
    }

    /**
     * Compares claims and user rows in scope. {@code published}: UserCreated events of (at least) the
     * {@link #unbackedUserIds} found in the users topic. {@code indexShardOf}: the shard a name's claim
     * belongs on.
     */
    public static IndexReport compare(Collection<Claim> claims, Collection<UserRow> users, Collection<Created> published,
                                      Scope scope, ToIntFunction<String> indexShardOf) {
        Map<Long, UserRow> byId = byId(users);
        Set<Created> pending = new HashSet<>(published);
        Map<String, Claim> claimOf = new HashMap<>();
        List<Difference> differences = new ArrayList<>();
        int claimsInScope = 0;
        for (Claim c : claims) {
            if (!scope.contains(c.username())) continue;
            claimsInScope++;
            int home = indexShardOf.applyAsInt(c.username());
            if (c.shard() == home) {
                claimOf.put(c.username(), c);
            } else {
                differences.add(new Difference(Kind.MISPLACED, c.username(), c.userId(), 0, List.of(),
                        "a claim for user " + c.userId() + " on shard " + c.shard() + ", where no read looks (its shard is " + home + ")",
                        new IndexFix.DeleteClaim(c.shard(), c.username(), c.userId(), false)));
            }
        }
        Map<String, List<UserRow>> holders = new TreeMap<>();
        int usersInScope = 0;
        for (UserRow u : users) {
            if (!scope.contains(u.username())) continue;
            usersInScope++;
            holders.computeIfAbsent(u.username(), n -> new ArrayList<>()).add(u);
        }
        holders.values().forEach(h -> h.sort(Comparator.comparingLong(UserRow::createdAt).thenComparingLong(UserRow::userId)));
        Set<String> names = new TreeSet<>(claimOf.keySet());
        names.addAll(holders.keySet());
        int awaiting = 0;
        for (String name : names) {
            Claim claim = claimOf.get(name);
            List<UserRow> h = holders.getOrDefault(name, List.of());
            if (h.isEmpty()) {
                if (pending.contains(new Created(claim.userId(), name))) {
                    awaiting++;
                } else {
                    differences.add(orphan(claim, byId.get(claim.userId())));
                }
                continue;
            }
            Difference d = holdersDifference(name, claim, h, byId, pending, indexShardOf.applyAsInt(name));
            if (d != null) differences.add(d);
        }
        differences.sort(Comparator.comparing(Difference::username).thenComparing(Difference::kind));
        return new IndexReport(claimsInScope, usersInScope, awaiting, differences);
    }

    private static Difference orphan(Claim claim, UserRow row) {
        String why = row == null ? "user " + claim.userId() + " has no user row and no UserCreated in the users topic"
                : "user " + claim.userId() + "'s row has username " + quoted(row.username()) + " and no user row has this one";
        return new Difference(Kind.ORPHAN, claim.username(), claim.userId(), 0, List.of(), why,
                new IndexFix.DeleteClaim(claim.shard(), claim.username(), claim.userId(), true));
    }

    /** A name some user rows hold: the claim must name the first of them. */
    private static Difference holdersDifference(String name, Claim claim, List<UserRow> holders, Map<Long, UserRow> byId,
                                                Set<Created> pending, int home) {
        long first = holders.get(0).userId();
        List<Long> others = holders.subList(1, holders.size()).stream().map(UserRow::userId).toList();
        boolean shared = !others.isEmpty();
        String sharing = shared ? "users " + ids(holders) + " share it; " + first + " was created first and keeps it, the other"
                + (others.size() > 1 ? "s" : "") + " cannot be repaired automatically (rename them)" : null;
        if (claim == null) {
            boolean fits = fitsTheIndex(name);
            String what = (shared ? sharing + "; " : "user " + first + "'s row has this username; ") + "no claim"
                    + (fits ? "" : ", and it cannot be claimed: not ASCII of at most " + INDEX_USERNAME_MAX + " characters");
            return new Difference(shared ? Kind.SHARED : Kind.MISSING, name, 0, first, others, what,
                    fits ? new IndexFix.InsertClaim(home, name, first) : null);
        }
        long claimed = claim.userId();
        if (claimed == first) {
            return shared ? new Difference(Kind.SHARED, name, claimed, first, others, sharing + "; the claim names " + first, null) : null;
        }
        boolean claimedHolds = holders.stream().anyMatch(u -> u.userId() == claimed);
        if (shared) {
            // The claimed user holds the name too (created later), or holds none: either way the first keeps it.
            return new Difference(Kind.SHARED, name, claimed, first, others, sharing + "; the claim names " + claimed,
                    new IndexFix.MoveClaim(claim.shard(), name, claimed, first, !claimedHolds));
        }
        if (pending.contains(new Created(claimed, name))) {
            return new Difference(Kind.WRONG_USER, name, claimed, first, List.of(), "claims user " + claimed + ", whose UserCreated with this"
                    + " name is in the users topic but not materialized yet, while user " + first + "'s row has it: left alone, run again"
                    + " once the materializer caught up (the two will share the name)", null);
        }
        UserRow claimedRow = byId.get(claimed);
        String claimedIs = claimedRow == null ? "who has no user row" : "whose row has username " + quoted(claimedRow.username());
        return new Difference(Kind.WRONG_USER, name, claimed, first, List.of(),
                "claims user " + claimed + " (" + claimedIs + "), but user " + first + "'s row has this username",
                new IndexFix.MoveClaim(claim.shard(), name, claimed, first, true));
    }

    /**
     * How long to wait before reading the users topic's end for claims read at {@code claimsReadAt}: a
     * claim is made just before its UserCreated is published, and after {@code settle} (longer than
     * an ingest request's claim-to-acknowledgement time) its event is in the log or never will be.
     */
    public static Duration settleWait(Instant claimsReadAt, Instant now, Duration settle) {
        Duration left = settle.minus(Duration.between(claimsReadAt, now));
        return left.isNegative() ? Duration.ZERO : left;
    }

    static boolean fitsTheIndex(String username) {
        if (username.isEmpty() || username.length() > INDEX_USERNAME_MAX) return false;
        for (char c : username.toCharArray()) if (c >= 0x80) return false;
        return true;
    }

    private static Map<Long, UserRow> byId(Collection<UserRow> users) {
        Map<Long, UserRow> byId = new HashMap<>();
        for (UserRow u : users) byId.put(u.userId(), u);
        return byId;
    }

    private static String ids(List<UserRow> users) {
        return String.join(", ", users.stream().map(u -> Long.toString(u.userId())).toList());
    }

    private static String quoted(String username) {
        return username == null ? "(none)" : "'" + username + "'";
    }
}
