package dev.pinfeed.followergraph.sharded;

import dev.pinfeed.redisshards.VirtualShards;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Redis key scheme of the graph; nothing else formats keys. Every key of a user — and of the
 * boards he owns — carries his virtual shard as the hash tag {@code {v<shard>}}, so they live on one
 * instance (and would share one Redis Cluster slot) and one Lua script may touch them together.
 *
 * <pre>
 * per user U (tag = shard of U)
 *   &lt;p&gt;{v&lt;s&gt;}:u:&lt;U&gt;:fe        ZSET users U follows explicitly           member user,  score follow ms
 *   &lt;p&gt;{v&lt;s&gt;}:u:&lt;U&gt;:fi        ZSET users U follows implicitly only      member user,  score earliest board follow ms
 *   &lt;p&gt;{v&lt;s&gt;}:u:&lt;U&gt;:re        ZSET U's explicit followers               member user,  score follow ms
 *   &lt;p&gt;{v&lt;s&gt;}:u:&lt;U&gt;:ri        ZSET U's implicit-only followers          member user,  score earliest board follow ms
 *   &lt;p&gt;{v&lt;s&gt;}:u:&lt;U&gt;:bf        ZSET boards U follows explicitly          member board, score follow ms
 *   &lt;p&gt;{v&lt;s&gt;}:u:&lt;U&gt;:bu        SET  boards U unfollowed explicitly (exceptions to an explicit user follow)
 *   &lt;p&gt;{v&lt;s&gt;}:u:&lt;U&gt;:bo        ZSET boards U owns                        member board, score created ms
 *   &lt;p&gt;{v&lt;s&gt;}:u:&lt;U&gt;:ru        HASH edge registers U → user   field user,  value version+F|U
 *   &lt;p&gt;{v&lt;s&gt;}:u:&lt;U&gt;:rb:&lt;O&gt;    HASH edge registers U → O's boards  field board, value version+F|U
 *   &lt;p&gt;{v&lt;s&gt;}:u:&lt;U&gt;:pv        HASH pair sequence: field O = registers changed, O:m = applied on U's side
 *   &lt;p&gt;{v&lt;s&gt;}:u:&lt;U&gt;:rv        HASH pair sequence applied on U's followee side, field = the follower
 * per board B owned by O (tag = shard of O, so receivers of B are one instance's work)
 *   &lt;p&gt;{v&lt;s&gt;}:b:&lt;B&gt;:f          HASH B's explicit followers    field user, value follow ms
 *   &lt;p&gt;{v&lt;s&gt;}:b:&lt;B&gt;:u          SET  B's explicit unfollowers (exceptions)
 * per virtual shard s (boards whose id maps to s)
 *   &lt;p&gt;{v&lt;s&gt;}:owners           HASH board → owner
 * interests (user U's keys tagged with U's shard, interest I's with I's)
 *   &lt;p&gt;{v&lt;s&gt;}:u:&lt;U&gt;:nf        ZSET interests U follows                  member interest, score follow ms
 *   &lt;p&gt;{v&lt;s&gt;}:u:&lt;U&gt;:nr        HASH edge registers U → interest  field interest, value version+F|U
 *   &lt;p&gt;{v&lt;s&gt;}:u:&lt;U&gt;:nv        HASH sequences: field I = register changes, I:m = applied on U's side
 *   &lt;p&gt;{v&lt;s&gt;}:n:&lt;I&gt;:f        ZSET I's followers                        member user, score follow ms
 *   &lt;p&gt;{v&lt;s&gt;}:n:&lt;I&gt;:v        HASH sequence applied on I's side, field = the follower
 * </pre>
 * The interest keys are outside {@link #parse}'s layout: the audit ({@code ./pinfeed verify graph}) does not cover them.
 * {@code <p>} is the key prefix: empty in production, a fresh one per test or rebuild target.
 */
public final class GraphKeys {

    /** The kinds of graph keys, with the Redis type each holds and the name reports use. */
    public enum Kind {
        FOLLOWING_EXPLICIT("fe", "zset", "following-explicit"),
        FOLLOWING_IMPLICIT("fi", "zset", "following-implicit"),
        FOLLOWERS_EXPLICIT("re", "zset", "followers-explicit"),
        FOLLOWERS_IMPLICIT("ri", "zset", "followers-implicit"),
        BOARDS_FOLLOWED("bf", "zset", "boards-followed"),
        BOARDS_UNFOLLOWED("bu", "set", "boards-unfollowed"),
        BOARDS_OWNED("bo", "zset", "boards-owned"),
        USER_REGISTERS("ru", "hash", "user-registers"),
        BOARD_REGISTERS("rb", "hash", "board-registers"),
        PAIR_SEQUENCES("pv", "hash", "pair-sequences"),
        FOLLOWEE_SEQUENCES("rv", "hash", "followee-sequences"),
        BOARD_FOLLOWERS("f", "hash", "board-followers"),
        BOARD_UNFOLLOWERS("u", "set", "board-unfollowers"),
        BOARD_OWNERS("owners", "hash", "board-owners");

        private final String suffix;
        private final String redisType;
        private final String label;

        Kind(String suffix, String redisType, String label) {
            this.suffix = suffix;
            this.redisType = redisType;
            this.label = label;
        }

        /** What Redis's TYPE answers for a key of this kind: zset, set or hash. */
        public String redisType() {
            return redisType;
        }

        public String label() {
            return label;
        }

        /** A key of a user ({@code u:<U>:...}), tagged with that user's shard. */
        public boolean ofUser() {
            return this != BOARD_FOLLOWERS && this != BOARD_UNFOLLOWERS && this != BOARD_OWNERS;
        }
    }

    /**
     * A graph key taken apart: its kind, the shard of its hash tag, and the ids it names — {@code id} is
     * the user of a user's key, the board of a board's key (0 for an owner bucket); {@code owner} is the
     * owner of a board-register hash (else 0).
     */
    public record Key(Kind kind, int shard, long id, long owner) {}

    private static final Pattern LAYOUT = Pattern.compile(
            "\\{v(0|[1-9][0-9]{0,3})}:(?:u:([1-9][0-9]{0,18}):(fe|fi|re|ri|bf|bu|bo|ru|pv|rv|rb:([1-9][0-9]{0,18}))"
                    + "|b:([1-9][0-9]{0,18}):(f|u)|(owners))");

    private final String prefix;

    public GraphKeys(String prefix) {
        this.prefix = VirtualShards.checkedPrefix(prefix);
    }

    public String prefix() {
        return prefix;
    }

    private String user(long userId, String suffix) {
        return prefix + VirtualShards.tag(userId) + ":u:" + userId + ":" + suffix;
    }

    public String followingExplicit(long user) {
        return user(user, "fe");
    }

    public String followingImplicit(long user) {
        return user(user, "fi");
    }

    public String followersExplicit(long user) {
        return user(user, "re");
    }

    public String followersImplicit(long user) {
        return user(user, "ri");
    }

    public String boardsFollowed(long user) {
        return user(user, "bf");
    }

    public String boardsUnfollowed(long user) {
        return user(user, "bu");
    }

    public String boardsOwned(long user) {
        return user(user, "bo");
    }

    public String userRegisters(long user) {
        return user(user, "ru");
    }

    public String boardRegisters(long user, long owner) {
        return user(user, "rb:" + owner);
    }

    public String pairVersions(long user) {
        return user(user, "pv");
    }

    public String followeeVersions(long user) {
        return user(user, "rv");
    }

    public String boardFollowers(long owner, long board) {
        return prefix + VirtualShards.tag(owner) + ":b:" + board + ":f";
    }

    public String boardUnfollowers(long owner, long board) {
        return prefix + VirtualShards.tag(owner) + ":b:" + board + ":u";
    }

    public String interestsFollowed(long user) {
        return user(user, "nf");
    }

    public String interestRegisters(long user) {
        return user(user, "nr");
    }

    public String interestSequences(long user) {
        return user(user, "nv");
    }

    public String interestFollowers(long interest) {
        return prefix + VirtualShards.tag(interest) + ":n:" + interest + ":f";
    }

    public String interestFollowerSequences(long interest) {
        return prefix + VirtualShards.tag(interest) + ":n:" + interest + ":v";
    }

    public String boardOwners(long board) {
        return prefix + VirtualShards.tag(board) + ":owners";
    }

    /** Field of {@link #pairVersions}: the pair's register sequence. */
    static String registerSeqField(long owner) {
        return Long.toString(owner);
    }

    /** Field of {@link #pairVersions}: the sequence last materialized on the follower's side. */
    static String appliedSeqField(long owner) {
        return owner + ":m";
    }

    /**
     * The key of this scheme {@code key} is, if it is one: the prefix, a tag of a virtual shard, and
     * one of the layouts above with canonical decimal ids. Anything else under the prefix (another
     * scheme's keys, which share the instances) is not the graph's.
     */
    public Optional<Key> parse(String key) {
        if (!key.startsWith(prefix)) return Optional.empty();
        Matcher m = LAYOUT.matcher(key);
        if (!m.region(prefix.length(), key.length()).matches()) return Optional.empty();
        int shard = Integer.parseInt(m.group(1));
        if (shard >= VirtualShards.COUNT) return Optional.empty();
        try {
            if (m.group(2) != null) {
                long user = Long.parseLong(m.group(2));
                if (m.group(4) != null) return Optional.of(new Key(Kind.BOARD_REGISTERS, shard, user, Long.parseLong(m.group(4))));
                for (Kind k : Kind.values()) {
                    if (k.ofUser() && k.suffix.equals(m.group(3))) return Optional.of(new Key(k, shard, user, 0));
                }
                return Optional.empty();
            }
            if (m.group(5) != null) {
                Kind kind = m.group(6).equals("f") ? Kind.BOARD_FOLLOWERS : Kind.BOARD_UNFOLLOWERS;
                return Optional.of(new Key(kind, shard, Long.parseLong(m.group(5)), 0));
            }
            return Optional.of(new Key(Kind.BOARD_OWNERS, shard, 0, 0));
        } catch (NumberFormatException tooLarge) {
            return Optional.empty(); // 19 digits beyond Long.MAX_VALUE: no id of ours
        }
    }

    /** The key {@code key}'s user would have under this scheme: equal to it unless the key carries the wrong tag. */
    public String userKey(Kind kind, long user, long owner) {
        if (!kind.ofUser()) throw new IllegalArgumentException(kind + " is not a user's key");
        return kind == Kind.BOARD_REGISTERS ? boardRegisters(user, owner) : user(user, kind.suffix);
    }

    /** The owner whose pair a field of {@link #pairVersions} belongs to, and whether it is the applied-sequence field. */
    public record SequenceField(long owner, boolean applied) {}

    /** A field of {@link #pairVersions} taken apart; empty if it is none this scheme writes. */
    public static Optional<SequenceField> parseSequenceField(String field) {
        boolean applied = field.endsWith(":m");
        String id = applied ? field.substring(0, field.length() - 2) : field;
        if (!id.matches("[1-9][0-9]{0,18}")) return Optional.empty();
        try {
            return Optional.of(new SequenceField(Long.parseLong(id), applied));
        } catch (NumberFormatException tooLarge) {
            return Optional.empty();
        }
    }

    /**
     * A SCAN pattern for the graph's keys under this prefix: the prefix (glob characters escaped) then a
     * hash tag. It also matches other schemes' tagged keys (last reads, affinities share the tag form
     * and, in production, the empty prefix): callers keep only what {@link #parse} accepts.
     */
    public String scanPattern() {
        return escapedPrefix() + "{v*";
    }

    private String escapedPrefix() {
        return prefix.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
    }

    /** A pattern matching every key under this prefix (rebuild's emptiness check). */
    public String everything() {
        return escapedPrefix() + "*";
    }
}
