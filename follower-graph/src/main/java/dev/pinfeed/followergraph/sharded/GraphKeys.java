package dev.pinfeed.followergraph.sharded;

import dev.pinfeed.redisshards.VirtualShards;

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
 * </pre>
 * {@code <p>} is the key prefix: empty in production, a fresh one per test or rebuild target.
 */
public final class GraphKeys {

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

    /** A pattern matching every key under this prefix (rebuild's emptiness check). */
    public String everything() {
        return prefix.replaceAll("([*?\\[\\]\\\\])", "\\\\$1") + "*";
    }
}
